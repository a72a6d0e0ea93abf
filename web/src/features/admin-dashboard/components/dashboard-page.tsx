import type { AdminStats, StatsSample } from "@contracts/admin-panel";
import { LoadFailed } from "@/components/admin/load-failed";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { ActivityIcon, CoinsIcon, DashboardIcon, KeyIcon, UsersIcon } from "@/components/ui/icons";
import { EyeIcon } from "@/components/ui/stream-icons";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { useAdminStats } from "@/lib/admin-stats";
import { formatCount } from "@/lib/numbers";
import { formatMoney } from "@contracts/money";
import { useStatsHistory } from "../api/get-stats-history";
import { DonationMeter } from "./donation-meter";
import { FakeViewersSummary } from "./fake-viewers-summary";
import { ModeWarnings } from "./mode-warnings";
import { ReadyToSellPanel } from "./ready-to-sell";
import { RecordingsSpace } from "./recordings-space";
import { BackupWarning, ServerStatus } from "./server-status";
import { StatCard } from "./stat-card";
import { StreamStatus } from "./stream-status";
import { StatsChart } from "@/components/charts/stats-chart";

const updatedAt = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** The admin overview: live stats (every 10 s), the stream when OBS sends it here, the donation goal, fake viewers and a chart of the event. */
export function DashboardPage() {
  const stats = useAdminStats();
  const history = useStatsHistory();
  useQueryErrorToast(stats, "Failed to fetch dashboard stats.");

  return (
    <>
      <AdminPageHeader
        title="Dashboard"
        description="How the event is doing right now."
        actions={
          stats.data ? (
            <p className="dash-live-chip" aria-live="off">
              <span className="dash-live-dot" aria-hidden="true" />
              Live · updated {updatedAt.format(stats.dataUpdatedAt)}
            </p>
          ) : null
        }
      />
      {stats.data ? (
        <Dashboard stats={stats.data} samples={history.data?.samples} />
      ) : stats.isError ? (
        <section className="card panel">
          <LoadFailed icon={<DashboardIcon />} title="The stats could not be loaded" onRetry={() => void stats.refetch()} />
        </section>
      ) : (
        <DashboardSkeleton />
      )}
    </>
  );
}

/** Each currency's donations, labelled: after a change of currency the event has donations in both, never added up. */
function DonationTotalDetail({ stats }: { stats: AdminStats }) {
  const others = (stats.donationTotals ?? []).filter((t) => t.currency !== stats.currency);
  if (others.length === 0) return <>Every donation so far, less refunds</>;
  return (
    <>
      In {stats.currency.toUpperCase()}, less refunds.
      {others.map((t) => (
        <span key={t.currency} className="dash-stat-card-other-total">
          Also <strong>{formatMoney(t.amount, t.currency)}</strong> in {t.currency.toUpperCase()}
        </span>
      ))}
    </>
  );
}

function Dashboard({ stats, samples }: { stats: AdminStats; samples: StatsSample[] | undefined }) {
  const otherCurrencies = (stats.donationTotals ?? []).filter((t) => t.currency !== stats.currency).map((t) => t.currency.toUpperCase());
  const realViewers = Math.max(0, stats.viewerCount - stats.currentFakeViewers);
  // The live figures extend the minute-by-minute history up to now.
  const series = samples
    ? [
        ...samples.map((s) => ({ at: Date.parse(s.sampledAt), count: s.viewerCount, money: s.donationTotal })),
        { at: Date.now(), count: stats.viewerCount, money: stats.donationTotal },
      ]
    : null;
  return (
    <div className="dash">
      <ModeWarnings paymentMode={stats.paymentMode} mailMode={stats.mailMode} />
      <BackupWarning backups={stats.backups} />
      <ReadyToSellPanel />
      <StreamStatus />
      <RecordingsSpace />
      <section className="dash-stat-grid" aria-label="Stats">
        <StatCard
          icon={<EyeIcon />}
          label="Viewers"
          value={formatCount(stats.viewerCount)}
          detail={`${formatCount(realViewers)} watching · ${formatCount(stats.currentFakeViewers)} fake`}
        />
        <StatCard icon={<UsersIcon />} label="Users" value={formatCount(stats.userCount)} detail="Entered with an access code" />
        <StatCard icon={<KeyIcon />} label="Access codes" value={formatCount(stats.accessCodeCount)} detail="Sold and generated" />
        <StatCard icon={<CoinsIcon />} label="Donation total" value={formatMoney(stats.donationTotal, stats.currency)} detail={<DonationTotalDetail stats={stats} />} />
      </section>
      <section className="dash-row" aria-label="Goal and fake viewers">
        <DonationMeter current={stats.currentDonation} goal={stats.donationGoal} currency={stats.currency} />
        <FakeViewersSummary stats={stats} />
      </section>
      <section className="card dash-chart" aria-label="Chart">
        {series ? (
          <>
            <StatsChart points={series} currency={stats.currency} />
            {otherCurrencies.length > 0 ? (
              <p className="dash-chart-note">
                Donations in {stats.currency.toUpperCase()} only; those paid in {otherCurrencies.join(" and ")} are in the Donation total above.
              </p>
            ) : null}
          </>
        ) : (
          <div className="dash-chart-placeholder">
            <ActivityIcon />
            <p>Loading the event's history…</p>
          </div>
        )}
      </section>
      <ServerStatus server={stats.server} backups={stats.backups} />
    </div>
  );
}

function DashboardSkeleton() {
  return (
    <div className="dash" aria-busy="true">
      <p className="sr-only" role="status">
        Loading stats…
      </p>
      <div className="dash-stat-grid">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="card dash-stat-card dash-skeleton" />
        ))}
      </div>
      <div className="card dash-chart dash-skeleton dash-skeleton-tall" />
    </div>
  );
}
