import { useMemo, useState } from "react";
import { DEFAULT_CURRENCY, formatMoney } from "@contracts/money";
import { PAYMENT_STATUSES, paymentTotals, type PaymentRecord, type PaymentStatus } from "@contracts/payments-ledger";
import { LoadFailed } from "@/components/admin/load-failed";
import { ListPager, useListPage } from "@/components/admin/list-pager";
import { SearchField } from "@/components/admin/search-field";
import { StatsChart } from "@/components/charts/stats-chart";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { CoinsIcon, DownloadIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { useMediaQuery } from "@/hooks/use-media-query";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { useAdminStats } from "@/lib/admin-stats";
import { matchesSearch } from "@/lib/search";
import { PAYMENTS_CSV_URL, usePayments } from "../api/payments";
import { currenciesOf, KIND_PLURALS, NET_REVENUE, STATUS_LABELS, netRevenuePoints } from "../lib/payment-labels";
import { PaymentList } from "./payment-list";
import { RefundDialog } from "./refund-dialog";

type KindFilter = "all" | PaymentRecord["kind"];
type StatusFilter = "all" | PaymentStatus;

/** Gross, refunded and net, one row per currency (amounts paid in different currencies are never added). */
function Totals({ payments, currency }: { payments: PaymentRecord[]; currency: string }) {
  const totals = paymentTotals(payments).sort((a, b) => Number(b.currency === currency) - Number(a.currency === currency));
  if (totals.length === 0) totals.push({ currency, gross: 0, refunded: 0, net: 0 });
  return (
    <section className="ledger-totals" aria-label="Totals">
      {totals.map((t) => (
        <dl key={t.currency} className="card ledger-total">
          <div>
            <dt>Gross {t.currency.toUpperCase()}</dt>
            <dd>{formatMoney(t.gross, t.currency)}</dd>
          </div>
          <div>
            <dt>Refunded &amp; disputed</dt>
            <dd className="ledger-total-refunded">{formatMoney(t.refunded, t.currency)}</dd>
          </div>
          <div>
            <dt>Net</dt>
            <dd className="ledger-total-net">{formatMoney(t.net, t.currency)}</dd>
          </div>
        </dl>
      ))}
      <p className="ledger-totals-note">What buyers paid and got back, before Stripe's own fees (per payment, and per dispute).</p>
    </section>
  );
}

/** Every access purchase and donation: search, filters, totals, net revenue over the event, refunds, CSV. */
export function PaymentsPage() {
  const payments = usePayments();
  useQueryErrorToast(payments, "Failed to fetch payments.");
  const currency = useAdminStats().data?.currency ?? DEFAULT_CURRENCY;
  const asCards = !useMediaQuery("(min-width: 1240px)");
  const [search, setSearch] = useState("");
  const [kind, setKind] = useState<KindFilter>("all");
  const [status, setStatus] = useState<StatusFilter>("all");
  // The payment being refunded, read from the list each time: when the list reloads (a refund refused
  // because the payment changed meanwhile), the dialog shows what is left now.
  const [refundingId, setRefundingId] = useState<string | null>(null);
  // The chart adds up one currency (amounts paid in different currencies are never added): the event's,
  // or another the admin picks when payments were taken in several.
  const [pickedCurrency, setPickedCurrency] = useState<string | null>(null);

  const all = payments.data ?? [];
  const refunding = refundingId === null ? null : (all.find((p) => p.paymentIntentId === refundingId) ?? null);
  const shown = all.filter(
    (p) => (kind === "all" || p.kind === kind) && (status === "all" || p.status === status) && matchesSearch(search, p.email, p.username, p.code, p.paymentIntentId),
  );
  const filtered = search.trim() !== "" || kind !== "all" || status !== "all";
  const list = useListPage(shown, `${search.trim()}|${kind}|${status}`);
  const currencies = useMemo(() => currenciesOf(payments.data ?? [], currency), [payments.data, currency]);
  const chartCurrency = pickedCurrency !== null && currencies.includes(pickedCurrency) ? pickedCurrency : currency;
  const inChart = all.filter((p) => p.currency === chartCurrency).length;
  // Drawn again only when the payments or the chart's currency change, not on every keystroke or page turn.
  const chart = useMemo(
    () => <StatsChart points={netRevenuePoints(payments.data ?? [], chartCurrency)} currency={chartCurrency} labels={NET_REVENUE} />,
    [payments.data, chartCurrency],
  );

  return (
    <>
      <AdminPageHeader
        title="Payments"
        description="Every pass and donation paid, with refunds and disputes."
        actions={
          <a className="btn btn-outline" href={PAYMENTS_CSV_URL} download>
            <DownloadIcon />
            Export CSV
          </a>
        }
      />
      {payments.data ? (
        <>
          <Totals payments={all} currency={currency} />
          <section className="card ledger-chart" aria-label="Net revenue chart">
            {chart}
            {currencies.length > 1 ? (
              <div className="ledger-chart-scope">
                <p className="ledger-chart-note">
                  In {chartCurrency.toUpperCase()} only: {inChart} of {all.length} payments. Amounts paid in different currencies are never added up.
                </p>
                <div className="ledger-chart-currencies" role="group" aria-label="Chart currency">
                  {currencies.map((c) => (
                    <button
                      key={c}
                      type="button"
                      className={`btn btn-sm ${c === chartCurrency ? "btn-primary" : "btn-outline"}`}
                      aria-pressed={c === chartCurrency}
                      onClick={() => setPickedCurrency(c)}
                    >
                      {c.toUpperCase()}
                    </button>
                  ))}
                </div>
              </div>
            ) : null}
          </section>
        </>
      ) : null}
      <section ref={list.topRef} className="card list-panel" aria-labelledby="payments-heading">
        <h2 id="payments-heading" className="sr-only">
          All payments
        </h2>
        <div className="admin-toolbar">
          <SearchField label="Search payments" placeholder="E-mail, chat name or code…" value={search} onChange={setSearch} />
          <select className="input admin-select ledger-filter" aria-label="Kind" value={kind} onChange={(e) => setKind(e.target.value as KindFilter)}>
            <option value="all">All kinds</option>
            <option value="access">{KIND_PLURALS.access}</option>
            <option value="donation">{KIND_PLURALS.donation}</option>
          </select>
          <select className="input admin-select ledger-filter" aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
            <option value="all">All statuses</option>
            {PAYMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
          {payments.data ? (
            <p className="admin-toolbar-count" aria-live="polite">
              {filtered ? `${shown.length} of ${all.length} payments` : `${all.length} ${all.length === 1 ? "payment" : "payments"}`}
            </p>
          ) : null}
        </div>
        {payments.isPending ? (
          <PageLoader label="Loading payments…" />
        ) : payments.isError ? (
          <LoadFailed icon={<CoinsIcon />} title="The payments could not be loaded" onRetry={() => void payments.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState icon={<CoinsIcon />} title={all.length === 0 ? "No payments yet" : "No payments match"}>
            {all.length === 0 ? "Passes and donations appear here as soon as they are paid." : "Nothing matches this search and these filters."}
          </EmptyState>
        ) : (
          <>
            <PaymentList payments={list.rows} asCards={asCards} onRefund={(p: PaymentRecord) => setRefundingId(p.paymentIntentId)} />
            <ListPager list={list} noun="payments" />
          </>
        )}
      </section>
      <RefundDialog payment={refunding} onOpenChange={(open) => !open && setRefundingId(null)} />
    </>
  );
}
