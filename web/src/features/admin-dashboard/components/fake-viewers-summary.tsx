import { Link } from "wouter";
import type { AdminStats } from "@contracts/admin-panel";
import { EyeIcon } from "@/components/ui/stream-icons";
import { paths } from "@/config/paths";
import { useCan } from "@/lib/admin-auth";
import { formatCount } from "@/lib/numbers";
import { DashPanel } from "./dash-panel";

/** Whether fake viewers are on, the target and how many are shown now (they move ~100 at a time). */
export function FakeViewersSummary({ stats }: { stats: AdminStats }) {
  const moving = stats.currentFakeViewers !== (stats.fakeViewerMode ? stats.fakeViewersTarget : 0);
  const mayChange = useCan("fakeViewers");
  return (
    <DashPanel icon={<EyeIcon />} title="Fake viewers" aside={<span className={stats.fakeViewerMode ? "badge badge-on" : "badge"}>{stats.fakeViewerMode ? "On" : "Off"}</span>}>
      <dl className="dash-fake-figures">
        <div>
          <dt>Mode</dt>
          <dd>{stats.fakeViewerMode ? "Enabled" : "Disabled"}</dd>
        </div>
        <div>
          <dt>Target</dt>
          <dd>{formatCount(stats.fakeViewersTarget)}</dd>
        </div>
        <div>
          <dt>Current</dt>
          <dd>{formatCount(stats.currentFakeViewers)}</dd>
        </div>
      </dl>
      <p className="dash-stat-card-detail">
        {moving ? "Moving toward the target, about 100 at a time. " : null}
        {mayChange ? (
          <Link href={paths.admin.settings} className="text-link">
            Change in Settings
          </Link>
        ) : null}
      </p>
    </DashPanel>
  );
}
