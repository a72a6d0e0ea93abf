import { z } from "zod";
import { emailSchema } from "./admin.ts";
import { REFUND_REASONS } from "./payments-ledger.ts";

/** Payloads of the admin panel calls, shared by the server and the web app. Money is integer pence. */

export interface AdminStats {
  userCount: number;
  accessCodeCount: number;
  /** pence, every counted donation in the event's currency, less refunds */
  donationTotal: number;
  /**
   * Every counted donation less refunds, one total per currency it was paid in, the event's currency first
   * (always there, 0 when nothing was given in it): after a change of currency, those from before too.
   */
  donationTotals: { currency: string; amount: number }[];
  viewerCount: number;
  /** pence, toward the goal */
  currentDonation: number;
  /** pence */
  donationGoal: number;
  /** The event's currency: the donation figures above are in it. */
  currency: string;
  fakeViewerMode: boolean;
  fakeViewersTarget: number;
  currentFakeViewers: number;
  paymentMode: "demo" | "stripe";
  mailMode: "outbox" | "smtp";
  /** The build this server runs and the database schema it is at. */
  server: { version: string; schema: number };
  /** The scheduled backups (--backup-every); null when this server takes none. */
  backups: BackupStatus | null;
}

export interface BackupStatus {
  everyMs: number;
  /** ISO 8601; null before the first. */
  lastGoodAt: string | null;
  lastFailedAt: string | null;
  /** The last backup failed. */
  failing: boolean;
  /** The last good backup is older than twice the interval (or none came in that long). */
  late: boolean;
}

export interface StatsSample {
  /** ISO 8601 */
  sampledAt: string;
  viewerCount: number;
  /** Minor units of the event's currency: donations so far in it (a sample taken under another currency shows the last total in this one). */
  donationTotal: number;
}

/** Why a bought pass stays revoked: its payment is refunded in full, was disputed, or is under an open inquiry. */
export type PassHold = "refunded" | "disputed" | "inquiry";

export const PASS_HOLD_LABELS: Record<PassHold, string> = { refunded: "Refunded", disputed: "Disputed", inquiry: "Inquiry open" };

export interface AccessCodeRecord {
  id: number;
  code: string;
  kind: "SKP" | "MOD" | "SCP";
  used: boolean;
  revoked: boolean;
  /** What keeps the code's pass revoked (its payment's refunds and disputes); null when it can be restored. */
  hold: PassHold | null;
  deviceBound: boolean;
  email: string | null;
  username: string | null;
  /** ISO 8601 */
  createdAt: string;
}

export interface UserRecord {
  id: number;
  username: string;
  email: string | null;
  accessCodeId: number | null;
  accessCode: string | null;
  banned: boolean;
  /** Their pass no longer lets them in (refunded, disputed, or revoked in the panel). */
  revoked: boolean;
  /** What happened to their pass's payment (refunded in full, disputed…); null when nothing did. */
  hold: PassHold | null;
  /** A moderator by their MOD- code, made one in the panel, or not a moderator. */
  moderator: "code" | "panel" | null;
  /** ISO 8601 */
  createdAt: string;
}

const optionalEmail = z
  .union([z.literal(""), emailSchema])
  .optional()
  .transform((e) => (e ? e : undefined));

export const generateAccessCodeBody = z
  .object({
    email: optionalEmail,
    kind: z.enum(["SKP", "MOD"], { error: "Kind must be SKP or MOD" }).optional(),
  })
  .default({ email: undefined, kind: undefined });

export const sendAccessCodeBody = z.object({ email: optionalEmail }).default({ email: undefined });

export const FAKE_VIEWERS_MAX = 5000;

export const fakeViewersBody = z
  .object({
    enabled: z.boolean({ error: "enabled must be true or false" }),
    targetViewers: z
      .number({ error: "Please enter a valid number of viewers" })
      .int("Please enter a valid number of viewers")
      .min(0, "Please enter a valid number of viewers")
      .max(FAKE_VIEWERS_MAX, "Please enter a valid number of viewers")
      .optional(),
  })
  .refine((b) => !b.enabled || b.targetViewers !== undefined, { message: "Please enter a valid number of viewers", path: ["targetViewers"] });

export const unbanUserBody = z.object({ username: z.string().trim().min(1, "Username is required").max(100, "Username is too long") });

export const idParam = z.object({ id: z.coerce.number().int().positive("Unknown access code") });

/** POST /api/admin/payments/refund: the whole remaining amount when `amount` is left out. */
export const refundPaymentBody = z.object({
  paymentIntentId: z.string({ error: "paymentIntentId is required" }).trim().min(1, "paymentIntentId is required").max(255, "Unknown payment"),
  amount: z
    .number({ error: "Refund amount must be a number of pence" })
    .int("Refund amount must be a whole number of pence")
    .min(1, "Refund amount must be at least 1 pence")
    .optional(),
  /**
   * What had been refunded of the payment when the admin decided (its `refundedAmount` on their screen).
   * When the ledger shows more by now (a refund whose answer was lost, recorded since by Stripe's webhook),
   * the refund is refused rather than made again.
   */
  expectedRefunded: z
    .number({ error: "expectedRefunded must be a number of pence" })
    .int("expectedRefunded must be a whole number of pence")
    .min(0, "expectedRefunded cannot be negative")
    .optional(),
  reason: z.enum(REFUND_REASONS, { error: "reason must be requested_by_customer, duplicate or fraudulent" }).optional(),
});
