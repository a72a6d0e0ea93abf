import { z } from "zod";
import { slowModeSecondsSchema } from "./chat.ts";

/** Chat rules, the moderation log and the chat export: payloads of the admin calls, shared with the web app. */

export const MAX_BLOCKED_TERMS = 2000;
export const MAX_BLOCKED_TERM_LENGTH = 60;

/** GET/PUT /api/admin/chat-rules. */
export const chatRulesBody = z.object({
  slowModeSeconds: slowModeSecondsSchema,
  blockedTerms: z
    .array(
      z
        .string({ error: "Each blocked term must be text" })
        .trim()
        .min(1, "A blocked term cannot be empty")
        .max(MAX_BLOCKED_TERM_LENGTH, `A blocked term must be ${MAX_BLOCKED_TERM_LENGTH} characters or less`)
        .refine((term) => /[\p{L}\p{N}]/u.test(term), "A blocked term needs at least one letter or digit"),
      { error: "blockedTerms must be a list of words" },
    )
    .max(MAX_BLOCKED_TERMS, `At most ${MAX_BLOCKED_TERMS} blocked terms`)
    // One entry per spelling, whatever the case.
    .transform((terms) => [...new Map(terms.map((t) => [t.toLowerCase(), t])).values()]),
  filterAction: z.enum(["block", "mask"], { error: "filterAction must be 'block' or 'mask'" }),
  blockLinks: z.boolean({ error: "blockLinks must be true or false" }),
});
export type ChatRules = z.infer<typeof chatRulesBody>;

export const MODERATION_ACTIONS = [
  "delete",
  "pin",
  "unpin",
  "kick",
  "ban",
  "unban",
  "timeout",
  "lift_timeout",
  "slow_mode",
  "chat_rules",
  "filtered",
  "moderator_added",
  "moderator_removed",
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export interface ModerationLogEntry {
  id: number;
  action: ModerationAction;
  /** Who acted: a moderator's or admin's name; for `filtered`, the sender. */
  moderator: string | null;
  /** Whom it was done to. */
  target: string | null;
  /** The chat line concerned (deleted, pinned, refused…). */
  messageText: string | null;
  /** A ban's reason, a timeout's length, the new slow mode, what changed in the rules… */
  detail: string | null;
  /** ISO 8601 */
  createdAt: string;
}

/** GET /api/admin/moderation-log: optional action, a case-insensitive search and how many (newest first). */
export const moderationLogQuery = z.object({
  action: z.enum(MODERATION_ACTIONS, { error: "Unknown action" }).optional(),
  q: z.string().max(200, "The search is too long").optional(),
  limit: z.coerce.number({ error: "limit must be a number" }).int("limit must be a whole number").min(1).max(5000).optional(),
});

/** One line of the chat export: every message ever sent, deleted ones included. */
export interface ChatExportMessage {
  id: string;
  username: string;
  text: string;
  type: "user" | "system" | "donation";
  /** ISO 8601 */
  timestamp: string;
  deleted: boolean;
  pinned: boolean;
  /** Major units (pounds), on donation lines. */
  donation: number | null;
  /** The currency the donation was paid in (ISO 4217, lower case), on donation lines that know it. */
  currency: string | null;
}

/** POST /api/admin/users/:id/ban: why, when the admin says (shown on Banned Users). */
export const banUserBody = z
  .object({
    reason: z
      .string({ error: "The reason must be text" })
      .trim()
      .max(200, "The reason must be 200 characters or less")
      .optional()
      .transform((r) => (r ? r : undefined)),
  })
  .default({ reason: undefined });

export const moderatorBody = z.object({ isModerator: z.boolean({ error: "isModerator must be true or false" }) });
export const userIdParam = z.object({ id: z.coerce.number().int().positive("Unknown user") });
export const liftTimeoutBody = z.object({ username: z.string().trim().min(1, "Username is required").max(100, "Username is too long") });

/** GET /api/admin/timeouts. */
export interface ActiveTimeout {
  username: string;
  /** ISO 8601 */
  until: string;
  timedOutBy: string;
}
