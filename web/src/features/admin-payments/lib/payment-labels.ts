import { netAmount, type PaymentRecord, type PaymentStatus } from "@contracts/payments-ledger";
import type { ChartLabels, ChartPoint } from "@/components/charts/stats-chart";

export const STATUS_LABELS: Record<PaymentStatus, string> = {
  succeeded: "Paid",
  partly_refunded: "Partly refunded",
  refunded: "Refunded",
  inquiry: "Inquiry",
  disputed: "Disputed",
  dispute_won: "Dispute won",
  dispute_lost: "Dispute lost",
};

export const STATUS_BADGES: Record<PaymentStatus, string> = {
  succeeded: "badge badge-yes",
  partly_refunded: "badge badge-test",
  refunded: "badge",
  inquiry: "badge badge-warn",
  disputed: "badge badge-danger",
  dispute_won: "badge badge-on",
  dispute_lost: "badge badge-danger",
};

export const KIND_LABELS: Record<PaymentRecord["kind"], string> = { access: "Access pass", donation: "Donation" };

/** The kind filter's choices. */
export const KIND_PLURALS: Record<PaymentRecord["kind"], string> = { access: "Access passes", donation: "Donations" };

/** "Refund £1.00 access pass of mara@crypt.example": the Refund button's accessible name. */
export function refundButtonName(p: Pick<PaymentRecord, "kind" | "amount" | "currency" | "email" | "username">, money: (minor: number, currency: string) => string): string {
  const buyer = p.email ?? p.username ?? "a buyer with no e-mail";
  return `Refund ${money(p.amount, p.currency)} ${KIND_LABELS[p.kind].toLowerCase()} of ${buyer}`;
}

/** The currencies paid in, the event's first, then by how many payments each has. */
export function currenciesOf(payments: Pick<PaymentRecord, "currency">[], eventCurrency: string): string[] {
  const counts = new Map<string, number>();
  for (const p of payments) counts.set(p.currency, (counts.get(p.currency) ?? 0) + 1);
  const others = [...counts.keys()].filter((c) => c !== eventCurrency).sort((a, b) => counts.get(b)! - counts.get(a)! || a.localeCompare(b));
  return [eventCurrency, ...others];
}

export const NET_REVENUE: ChartLabels = {
  title: "Sales & net revenue",
  summary: "Sales and net revenue",
  count: "Payments",
  countUnit: "payments",
  money: "Net revenue",
  moneyUnit: "net",
  countInCurrency: true,
};

/** The running count of payments and their net revenue in one currency, oldest first, for the chart. */
export function netRevenuePoints(payments: PaymentRecord[], currency: string): ChartPoint[] {
  let count = 0;
  let net = 0;
  return payments
    .filter((p) => p.currency === currency)
    .map((p) => ({ at: Date.parse(p.createdAt), net: netAmount(p) }))
    .sort((a, b) => a.at - b.at)
    .map((p) => ({ at: p.at, count: ++count, money: (net += p.net) }));
}
