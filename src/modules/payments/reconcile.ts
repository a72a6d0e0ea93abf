import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "../../db/store.ts";
import type { Logger } from "../../lib/logger.ts";
import type { PaymentService } from "./service.ts";

/**
 * Left in the data directory by `dreadcast restore`: the backup's time, so that the server started on the
 * restored event reads back from the payment provider what was paid, refunded or disputed since. Removed
 * once that is done.
 */
export const RESTORE_MARKER_FILE = "restored-backup.json";

/** How far before the restored database's last word the provider's records are read: clocks differ. */
export const RECONCILE_MARGIN_MS = 5 * 60_000;
/** A reconciliation that could not reach the provider is tried again after this long. */
export const RECONCILE_RETRY_MS = 60_000;

export interface RestoreMarker {
  archive: string;
  /** When the backup was taken (ISO). */
  takenAt: string;
}

export function writeRestoreMarker(dataDir: string, marker: RestoreMarker): void {
  writeFileSync(join(dataDir, RESTORE_MARKER_FILE), `${JSON.stringify({ ...marker, restoredAt: new Date().toISOString() })}\n`, { mode: 0o600 });
}

/** The marker of a restore not yet reconciled, or null (none, or not one: said once, and left). */
export function readRestoreMarker(dataDir: string, log: Logger): RestoreMarker | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, RESTORE_MARKER_FILE), "utf8");
  } catch {
    return null;
  }
  try {
    const marker = JSON.parse(text) as Partial<RestoreMarker>;
    if (typeof marker.archive === "string" && typeof marker.takenAt === "string" && Number.isFinite(Date.parse(marker.takenAt))) {
      return { archive: marker.archive, takenAt: marker.takenAt };
    }
  } catch {
    // Reported below.
  }
  log.warn(`${join(dataDir, RESTORE_MARKER_FILE)} is not a restore's marker; payments are not reconciled`);
  return null;
}

/**
 * From when the provider's records are read: the restored database's last word on a payment (it can know
 * nothing that came later), never after the backup's time, less a margin for the clocks.
 */
export async function reconcileSince(store: Store, takenAt: string): Promise<number> {
  const row = await store.get<{ t: number | string | null }>(
    "SELECT MAX(t) AS t FROM (SELECT MAX(updated_at) AS t FROM payments UNION ALL SELECT MAX(received_at) AS t FROM webhook_events) AS last_words",
  );
  const taken = Date.parse(takenAt);
  const last = row?.t === null || row?.t === undefined ? taken : Number(row.t);
  return Math.min(taken, last) - RECONCILE_MARGIN_MS;
}

/**
 * After a restore: reconciles the payments with the provider's records, says what it brought back, and
 * removes the marker; a provider out of reach is tried again every minute, the marker kept meanwhile (a
 * restart tries again too).
 */
export async function reconcileAfterRestore(options: { dataDir: string; store: Store; payments: PaymentService; log: Logger; siteUrl: () => string }): Promise<void> {
  const { dataDir, store, payments, log } = options;
  const marker = readRestoreMarker(dataDir, log);
  if (!marker) return;
  const provider = payments.provider.mode === "stripe" ? "Stripe" : "the demo payments' own records";
  if (payments.provider.mode === "demo" && (await store.get("SELECT 1 AS one FROM payments WHERE substr(intent_id, 1, 8) <> 'pi_demo_' LIMIT 1"))) {
    // Started without the keys by mistake: what Stripe holds is read when it starts with them.
    log.warn(
      `payments: the restored event sold through Stripe and this server runs without its keys: start it with --stripe-secret-key to read back what was paid, refunded or disputed after the backup taken at ${marker.takenAt} (${join(dataDir, RESTORE_MARKER_FILE)} is kept until then)`,
    );
    return;
  }
  for (;;) {
    try {
      const since = await reconcileSince(store, marker.takenAt);
      const done = await payments.reconcile(since, options.siteUrl());
      rmSync(join(dataDir, RESTORE_MARKER_FILE), { force: true });
      const read =
        payments.provider.mode === "stripe"
          ? `${done.read} event(s) since ${new Date(since).toISOString()} read, ${done.known} of them already known here`
          : `${done.read} paid payment(s) not yet fulfilled`;
      log.info(
        `payments: reconciled with ${provider} after the restore of the backup taken at ${marker.takenAt}: ${read}; ${done.passes} pass(es) and ${done.donations} donation(s) brought back (each pass with the code it had, sent again to its buyer), refunds and disputes since applied`,
      );
      return;
    } catch (error) {
      log.warn(
        `payments: could not reconcile with ${provider} after the restore of the backup taken at ${marker.takenAt} (${(error as Error).message.split("\n")[0]}); trying again in ${RECONCILE_RETRY_MS / 1000} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, RECONCILE_RETRY_MS).unref());
    }
  }
}
