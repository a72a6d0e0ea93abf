import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";
import type { Store } from "../db/store.ts";
import type { Logger } from "../lib/logger.ts";
import { recordBackupOutcome } from "./backup-status.ts";
import { formatBytes } from "./commands.ts";
import { takeBackup } from "./backup.ts";

/** Scheduled backups are named by when they were taken, so that their names sort by age. */
const SCHEDULED_NAME = /^dreadcast-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.dreadcast$/;

export function scheduledName(at: Date): string {
  return `dreadcast-${at.toISOString().replace(/[:.]/g, "-")}.dreadcast`;
}

/**
 * Of the scheduled backups named `names`, those to delete: all but the newest `keep`, and the last one of
 * each of the last `days` days (UTC, today's included, as their names give the time they were taken).
 */
export function backupsToDelete(names: string[], keep: number, days: number, now: Date): string[] {
  const sorted = names.filter((n) => SCHEDULED_NAME.test(n)).sort();
  const kept = new Set(sorted.slice(-keep));
  const dayOf = (name: string) => name.slice("dreadcast-".length, "dreadcast-".length + 10);
  const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1))).toISOString().slice(0, 10);
  const lastOfDay = new Map<string, string>();
  for (const name of sorted) lastOfDay.set(dayOf(name), name);
  for (const [day, name] of lastOfDay) if (day >= firstDay) kept.add(name);
  return sorted.filter((n) => !kept.has(n));
}

/** Where scheduled backups are kept: a folder, or a bucket's prefix. */
interface BackupShelf {
  /** Puts the archive made at `file` on the shelf as `name`. */
  put(file: string, name: string): Promise<void>;
  /** The names of the scheduled backups there. */
  names(): Promise<string[]>;
  remove(name: string): Promise<void>;
  describe(name: string): string;
}

class FolderShelf implements BackupShelf {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  async put(): Promise<void> {}
  async names(): Promise<string[]> {
    return readdirSync(this.dir).filter((n) => SCHEDULED_NAME.test(n));
  }
  async remove(name: string): Promise<void> {
    rmSync(join(this.dir, name), { force: true });
  }
  describe(name: string): string {
    return join(this.dir, name);
  }
}

class BucketShelf implements BackupShelf {
  private readonly client: Bun.S3Client;
  private readonly prefix: string;
  constructor(
    private readonly url: string,
    config: Config,
  ) {
    const parsed = new URL(url);
    this.prefix = parsed.pathname.replace(/^\/+/, "").replace(/\/*$/, "/").replace(/^\/$/, "");
    this.client = new Bun.S3Client({
      bucket: parsed.hostname,
      ...(config.s3Endpoint ? { endpoint: config.s3Endpoint } : {}),
      ...(config.s3Region ? { region: config.s3Region } : {}),
      ...(config.s3AccessKeyId ? { accessKeyId: config.s3AccessKeyId } : {}),
      ...(config.s3SecretAccessKey ? { secretAccessKey: config.s3SecretAccessKey } : {}),
    });
  }
  async put(file: string, name: string): Promise<void> {
    // Bun's client sends a large file in parts, read from the disk as it goes.
    await this.client.write(this.prefix + name, Bun.file(file));
  }
  async names(): Promise<string[]> {
    const found: string[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.client.list({ prefix: this.prefix, maxKeys: 1000, ...(startAfter ? { startAfter } : {}) });
      const keys = (page.contents ?? []).map((c) => c.key);
      found.push(...keys.map((k) => k.slice(this.prefix.length)).filter((n) => SCHEDULED_NAME.test(n)));
      if (!page.isTruncated || keys.length === 0) return found;
      startAfter = keys.at(-1);
    }
  }
  async remove(name: string): Promise<void> {
    await this.client.delete(this.prefix + name);
  }
  describe(name: string): string {
    return `${this.url.replace(/\/*$/, "")}/${name}`;
  }
}

/**
 * `--backup-every`: the server takes the archive `dreadcast backup` takes, on a timer, into a folder or a
 * bucket, and keeps the newest `--backup-keep`. One runs at a time; a failure is logged and the next
 * runs on time.
 */
export class BackupSchedule {
  private readonly shelf: BackupShelf;
  private running: Promise<void> | null = null;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    /** Where each outcome is written, for the panel and /metrics of every instance. */
    private readonly store: Store,
  ) {
    const to = config.backupTo!;
    this.shelf = to.startsWith("s3:") ? new BucketShelf(to, config) : new FolderShelf(to);
  }

  /** Takes one backup now, unless one is still being taken. */
  tick(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<void> {
    const { config } = this;
    const name = scheduledName(new Date());
    const toBucket = config.backupTo!.startsWith("s3:");
    // Made in a folder of its own inside the data directory when it goes to a bucket, then sent.
    const work = toBucket ? mkdtempSync(join(config.dataDir, ".backup-")) : null;
    const file = work ? join(work, name) : join(config.backupTo!, name);
    try {
      const { size } = await takeBackup({
        target: file,
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        recordingsUrl: config.recordingsUrl,
        passphrase: config.backupPassphrase!,
        keyIsTheirs: config.secretKey ? "--secret-key is given" : null,
      });
      await this.shelf.put(file, name);
      const pruned = await this.prune();
      this.log.info(
        `backup taken: ${this.shelf.describe(name)} (${formatBytes(size)})${pruned ? `; ${pruned} older one(s) deleted, the newest ${config.backupKeep} kept and the last of each of ${config.backupDays} day(s)` : ""}`,
      );
      await this.note("good");
    } catch (error) {
      this.log.error(`backup failed: ${(error as Error).message.split("\n")[0]}; the next is due in ${config.backupEveryMs! / 1000} s`);
      await this.note("failed");
    } finally {
      if (work) rmSync(work, { recursive: true, force: true });
    }
  }

  /** The outcome for the panel; a database away at that moment is said in the log, the backup's own line stands. */
  private async note(outcome: "good" | "failed"): Promise<void> {
    try {
      await recordBackupOutcome(this.store, outcome);
    } catch (error) {
      this.log.warn(`the backup's outcome could not be written for the panel: ${(error as Error).message.split("\n")[0]}`);
    }
  }

  private async prune(): Promise<number> {
    const old = backupsToDelete(await this.shelf.names(), this.config.backupKeep, this.config.backupDays, new Date());
    for (const name of old) await this.shelf.remove(name);
    return old.length;
  }
}
