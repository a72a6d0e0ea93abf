/**
 * The payments ledger of the admin panel, shared by the server and the web app (the chat page too, so
 * without the schema library: the refund body's schema is in admin-panel.ts). Money in minor units.
 */

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

/** POST /api/admin/payments/refund */
export interface RefundPaymentBody {
  paymentIntentId: string;
  /** minor units; all that is left when left out */
  amount?: number;
  /** minor units: what the admin saw refunded (`PaymentRecord.refundedAmount`); a ledger showing more refuses with 409 */
  expectedRefunded?: number;
}

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
