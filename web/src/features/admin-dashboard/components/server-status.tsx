import type { AdminStats, BackupStatus } from "@contracts/admin-panel";
import { HardDriveIcon } from "@/components/ui/icons";
import { AlertIcon } from "@/components/ui/site-icons";
import { useNow } from "@/hooks/use-now";
import { DashPanel } from "./dash-panel";

const clock = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** 90 s → "2 min", 3 h 5 min → "3 h 5 min", 50 h → "2 d 2 h"; under a minute, "less than a minute" or (`seconds`) "30 s". */
export function spanOf(ms: number, seconds = false): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (ms < 60_000) return seconds ? `${Math.max(1, Math.round(ms / 1000))} s` : "less than a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return hours % 24 ? `${Math.floor(hours / 24)} d ${hours % 24} h` : `${Math.floor(hours / 24)} d`;
}

/** The banner when the scheduled backups need looking at: the last one failed, or the last good one is too old. */
export function BackupWarning({ backups }: { backups: BackupStatus | null }) {
  const now = useNow(30_000);
  if (!backups || (!backups.failing && !backups.late)) return null;
  const lastGood = backups.lastGoodAt ? `The last good one was taken ${spanOf(now - Date.parse(backups.lastGoodAt))} ago.` : "None has been taken yet.";
  return (
    <div className="alert alert-warning" role="status" data-testid="warning-backups">
      <AlertIcon />
      <div>
        <p className="alert-title">{backups.failing ? "The last backup failed" : "The backups are late"}</p>
        <p>
          {backups.failing && backups.lastFailedAt ? `It failed at ${clock.format(Date.parse(backups.lastFailedAt))}; the server's log says why. ` : null}
          {lastGood} They are due every {spanOf(backups.everyMs, true)}: until one is taken, a restore would lose what happened since.
        </p>
      </div>
    </div>
  );
}

/** The build this server runs, its database schema and its backups. */
export function ServerStatus({ server, backups }: Pick<AdminStats, "server" | "backups">) {
  const now = useNow(30_000);
  const backupLine = !backups ? "Not scheduled here" : backups.lastGoodAt ? `${spanOf(now - Date.parse(backups.lastGoodAt))} ago` : backups.failing ? "None good yet" : "None yet";
  const bad = backups !== null && (backups.failing || backups.late);
  return (
    <section aria-label="Server" data-testid="dashboard-server">
      <DashPanel icon={<HardDriveIcon />} title="Server" aside={<span className={bad ? "badge dash-badge-alarm" : "badge"}>{bad ? "Backups need you" : "Running"}</span>}>
        <dl className="dash-fake-figures dash-server-figures">
          <div>
            <dt>Version</dt>
            <dd data-testid="server-version">{server.version}</dd>
          </div>
          <div>
            <dt>Schema</dt>
            <dd data-testid="server-schema">{server.schema}</dd>
          </div>
          <div>
            <dt>Last backup</dt>
            <dd data-testid="server-backup">{backupLine}</dd>
          </div>
        </dl>
        <p className="dash-stat-card-detail">
          {backups ? `A backup every ${spanOf(backups.everyMs, true)}. ` : "Start the server with --backup-every and --backup-to to take backups on a timer. "}
          The schema is the database's: an older dreadcast refuses it, restore a backup to go back.
        </p>
      </DashPanel>
    </section>
  );
}
