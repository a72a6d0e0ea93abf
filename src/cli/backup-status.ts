import type { Config } from "../config.ts";
import type { BackupStatus } from "../contracts/admin-panel.ts";
import type { Store } from "../db/store.ts";

/** Where the outcome of the scheduled backups is kept (epoch ms), beside the event's other counters: every instance of a cluster reads it. */
const LAST_GOOD = "backup_last_good_at";
const LAST_FAILED = "backup_last_failed_at";

/** Says that a scheduled backup was taken (or failed) at `at`. */
export async function recordBackupOutcome(store: Store, outcome: "good" | "failed", at = Date.now()): Promise<void> {
  await store.run(
    "INSERT INTO event_counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    outcome === "good" ? LAST_GOOD : LAST_FAILED,
    at,
  );
}

/**
 * The scheduled backups as the panel shows them: null when this server takes none. `late` when the last
 * good one is older than twice the interval (or none was taken in twice the interval since `startedAt`),
 * `failing` when the last one failed.
 */
export async function backupStatus(store: Store, config: Pick<Config, "backupEveryMs">, startedAt: number, now = Date.now()): Promise<BackupStatus | null> {
  if (!config.backupEveryMs) return null;
  const rows = await store.all<{ name: string; value: number | string }>("SELECT name, value FROM event_counters WHERE name IN (?, ?)", LAST_GOOD, LAST_FAILED);
  const at = (name: string) => {
    const row = rows.find((r) => r.name === name);
    return row ? Number(row.value) : null;
  };
  const good = at(LAST_GOOD);
  const failed = at(LAST_FAILED);
  const every = config.backupEveryMs;
  return {
    everyMs: every,
    lastGoodAt: good === null ? null : new Date(good).toISOString(),
    lastFailedAt: failed === null ? null : new Date(failed).toISOString(),
    failing: failed !== null && (good === null || failed > good),
    late: now - (good ?? startedAt) > 2 * every,
  };
}
