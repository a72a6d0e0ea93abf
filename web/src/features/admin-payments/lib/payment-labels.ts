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

export const NET_REVENUE: ChartLabels = { title: "Sales & net revenue", summary: "Sales and net revenue", count: "Payments", countUnit: "payments", money: "Net revenue", moneyUnit: "net" };

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
