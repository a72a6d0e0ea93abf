/**
 * The payments ledger of the admin panel, shared by the server and the web app (the chat page too, so
 * without the schema library: the refund body's schema is in admin-panel.ts). Money in minor units.
 */

/** `inquiry`: the buyer's bank asks about the payment before any dispute; no money has been taken yet. */
export const PAYMENT_STATUSES = ["succeeded", "partly_refunded", "refunded", "inquiry", "disputed", "dispute_won", "dispute_lost"] as const;
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
  /** Refunds that failed or were canceled: their money went back to the account, not to the buyer. */
  failedRefundAmount: number;
  /** Why the last of them failed: Stripe's `failure_reason` (e.g. "expired_or_canceled_card"), or "canceled". */
  refundFailure: string | null;
  email: string | null;
  username: string | null;
  code: string | null;
  /** The pass's code no longer works (refunded in full or disputed, also when that refund failed later). */
  codeRevoked: boolean;
  /** ISO 8601 */
  createdAt: string;
}

/**
 * Why a refund is made, as Stripe's Refunds API takes it: "fraudulent" also puts the card and e-mail on
 * the Stripe account's block lists.
 */
export const REFUND_REASONS = ["requested_by_customer", "duplicate", "fraudulent"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** POST /api/admin/payments/refund */
export interface RefundPaymentBody {
  paymentIntentId: string;
  /** minor units; all that is left when left out */
  amount?: number;
  /** minor units: what the admin saw refunded (`PaymentRecord.refundedAmount`); a ledger showing more refuses with 409 */
  expectedRefunded?: number;
  /** Passed to Stripe; none when left out. */
  reason?: RefundReason;
}

export interface RefundOutcome {
  payment: PaymentRecord;
  /** The access code the refund revoked, if any. */
  revokedCode: string | null;
}

/** Stripe's reasons a refund failed, as the admin reads them; "canceled" for one that was canceled. */
const REFUND_FAILURES: Record<string, string> = {
  expired_or_canceled_card: "the card has expired or was canceled",
  lost_or_stolen_card: "the card was reported lost or stolen",
  charge_for_pending_refund_disputed: "the buyer disputed the charge",
  insufficient_funds: "your Stripe balance was too low to cover it",
  declined: "the card's bank declined it",
  merchant_request: "it was canceled at your request",
  canceled: "it was canceled",
};

/** "£4.00 refund failed: the card has expired or was canceled", or null when no refund failed. */
export function refundFailureText(p: Pick<PaymentRecord, "failedRefundAmount" | "refundFailure" | "currency">, money: (minor: number) => string): string | null {
  if (p.failedRefundAmount <= 0) return null;
  const why = REFUND_FAILURES[p.refundFailure ?? ""] ?? "Stripe gave no reason";
  return `${money(p.failedRefundAmount)} refund ${p.refundFailure === "canceled" ? "canceled" : "failed"}: ${why}`;
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
