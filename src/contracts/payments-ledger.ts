import { z } from "zod";

/** The payments ledger of the admin panel, shared by the server and the web app. Money in minor units. */

export const PAYMENT_STATUSES = ["succeeded", "partly_refunded", "refunded", "disputed", "dispute_won", "dispute_lost"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** GET /api/admin/payments: one fulfilled access purchase or donation. */
export interface PaymentRecord {
  paymentIntentId: string;
  kind: "access" | "donation";
  /** minor units of `currency`, the currency it was paid in */
  amount: number;
  currency: string;
  status: PaymentStatus;
  refundedAmount: number;
  /** What an open or lost dispute holds back. */
  disputedAmount: number;
  email: string | null;
  username: string | null;
  code: string | null;
  /** ISO 8601 */
  createdAt: string;
}

/** POST /api/admin/payments/refund: the whole remaining amount when `amount` is left out. */
export const refundPaymentBody = z.object({
  paymentIntentId: z.string({ error: "paymentIntentId is required" }).trim().min(1, "paymentIntentId is required").max(255, "Unknown payment"),
  amount: z
    .number({ error: "Refund amount must be a number of pence" })
    .int("Refund amount must be a whole number of pence")
    .min(1, "Refund amount must be at least 1 pence")
    .optional(),
});
export type RefundPaymentBody = z.infer<typeof refundPaymentBody>;

/** POST /api/admin/payments/refund */
export interface RefundOutcome {
  payment: PaymentRecord;
  /** The access code the refund revoked, if any. */
  revokedCode: string | null;
}

/** What a payment still brings in: its amount less refunds and what a dispute holds. */
export function netAmount(p: Pick<PaymentRecord, "amount" | "refundedAmount" | "disputedAmount">): number {
  return p.amount - Math.min(p.amount, p.refundedAmount + p.disputedAmount);
}

/** What is left to refund: nothing while a dispute holds the money. */
export function refundableAmount(p: Pick<PaymentRecord, "amount" | "refundedAmount" | "disputedAmount" | "status">): number {
  return p.status === "disputed" || p.status === "dispute_lost" ? 0 : p.amount - p.refundedAmount;
}

export interface PaymentTotals {
  currency: string;
  gross: number;
  refunded: number;
  net: number;
}

/** Gross, refunded (and disputed) and net per currency: amounts paid in different currencies are never added up. */
export function paymentTotals(payments: PaymentRecord[]): PaymentTotals[] {
  const byCurrency = new Map<string, PaymentTotals>();
  for (const p of payments) {
    const t = byCurrency.get(p.currency) ?? { currency: p.currency, gross: 0, refunded: 0, net: 0 };
    t.gross += p.amount;
    t.net += netAmount(p);
    t.refunded = t.gross - t.net;
    byCurrency.set(p.currency, t);
  }
  return [...byCurrency.values()];
}
