import { Database } from "bun:sqlite";
import { type Dirent, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { ConfigError } from "../config.ts";
import { DataDirHeldError, holdDataDir } from "../db/data-dir-hold.ts";
import { DATABASE_FILE, databasePath, describePostgres } from "../db/database.ts";
import { SchemaTooNewError } from "../db/migrate.ts";
import { SCHEMA_VERSION } from "../db/migrations.ts";
import { SECRET_KEY_FILE } from "../lib/secret-box.ts";
import { writeRestoreMarker } from "../modules/payments/reconcile.ts";
import { VERSION } from "../version.ts";
import { ARCHIVE_FORMAT, ArchiveError, isArchivePath, readArchive, writeArchive, type ArchiveHead, type ArchiveSource } from "./backup-archive.ts";
import { CommandError, dataDirOf, databaseUrlOf, formatBytes, parseCommandFlags, pgDumpAdvice, requireEventDatabase } from "./commands.ts";

const BACKUP_USAGE = "dreadcast backup FILE [--data-dir DIR] (--passphrase-file FILE | DREADCAST_BACKUP_PASSPHRASE) [--without-key] [--recordings-url s3://…]";
const RESTORE_USAGE = "dreadcast restore ARCHIVE --data-dir DIR (--passphrase-file FILE | DREADCAST_BACKUP_PASSPHRASE)";

/** The passphrase of the archive: --passphrase-file (its first line), else DREADCAST_BACKUP_PASSPHRASE. */
function passphraseOf(flags: Record<string, string>, env: Record<string, string | undefined>, command: string): string {
  let passphrase: string | undefined;
  if (flags["passphrase-file"] !== undefined) {
    try {
      passphrase = readFileSync(flags["passphrase-file"], "utf8").split(/\r?\n/)[0];
    } catch (error) {
      throw new ConfigError(`--passphrase-file cannot be read: ${flags["passphrase-file"]} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
    if (!passphrase) throw new ConfigError(`--passphrase-file ${flags["passphrase-file"]} is empty`);
  } else passphrase = env.DREADCAST_BACKUP_PASSPHRASE || undefined;
  if (!passphrase) {
    throw new ConfigError(
      command === "backup"
        ? "backup needs a passphrase: the archive holds the key that opens the two factors and the stream key, and is encrypted under it; give --passphrase-file FILE or set DREADCAST_BACKUP_PASSPHRASE"
        : "restore needs the passphrase the backup was made with: give --passphrase-file FILE or set DREADCAST_BACKUP_PASSPHRASE",
    );
  }
  return passphrase;
}

/** Takes `--without-key`, the one flag without a value, out of the arguments. */
function takeSwitch(argv: string[], name: string): { on: boolean; argv: string[] } {
  const rest = argv.filter((arg) => arg !== `--${name}`);
  return { on: rest.length !== argv.length, argv: rest };
}

/** Every file under `dir` (absolute paths, sorted); none when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The newest migration in a SQLite file, read without migrating it. */
function sqliteSchema(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.query<{ v: number | null }, []>("SELECT MAX(version) AS v FROM schema_migrations").get();
    return Number(row?.v ?? 0);
  } finally {
    db.close();
  }
}

export async function backupCommand(argv: string[], env: Record<string, string | undefined>): Promise<string> {
  const withoutKey = takeSwitch(argv, "without-key");
  const { flags, rest } = parseCommandFlags(withoutKey.argv, ["database-url", "passphrase-file", "recordings-url"]);
  if (rest.length !== 1) throw new ConfigError(`backup needs exactly one FILE; usage: ${BACKUP_USAGE}`);
  const databaseUrl = databaseUrlOf(flags, env);
  const recordingsUrl = flags["recordings-url"] ?? env.DREADCAST_RECORDINGS_URL ?? null;
  if (recordingsUrl !== null && !/^s3:\/\/[^/]+/.test(recordingsUrl)) throw new ConfigError(`--recordings-url must be an s3://bucket/prefix URL, got '${recordingsUrl}'`);
  const passphrase = passphraseOf(flags, env, "backup");
  const target = resolve(rest[0]!);
  const keyIsTheirs = withoutKey.on ? "--without-key" : env.DREADCAST_SECRET_KEY ? "DREADCAST_SECRET_KEY is set" : null;
  return (await takeBackup({ target, dataDir: dataDirOf(flags, env), databaseUrl, recordingsUrl, passphrase, keyIsTheirs })).lines.join("\n");
}

export interface BackupOptions {
  /** The archive to write (it must not exist). */
  target: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Where the recordings are, when a bucket keeps them (their files are then not copied). */
  recordingsUrl: string | null;
  passphrase: string;
  /** Why the key is left out (the operator keeps it), or null to include it. */
  keyIsTheirs: string | null;
}

/**
 * Everything a restore needs in one archive — a consistent snapshot of the SQLite database (on
 * PostgreSQL, pg_dump's part), the sealing key, the uploaded images and the recordings (their files, or
 * which bucket holds them) — encrypted under a passphrase. Written beside the target and linked to it
 * only when whole. Returns its size and the lines that say what it holds.
 */
export async function takeBackup(options: BackupOptions): Promise<{ size: number; lines: string[] }> {
  const { target, dataDir, databaseUrl, recordingsUrl, passphrase, keyIsTheirs } = options;
  if (existsSync(target)) throw new CommandError(`${target} already exists; choose a new file name`);
  if (databaseUrl) {
    if (!existsSync(dataDir) || !statSync(dataDir).isDirectory())
      throw new CommandError(`no data directory at ${dataDir}; point --data-dir at the event's (it keeps the key and the recordings)`);
  } else requireEventDatabase(dataDir);
  if (!existsSync(dirname(target))) throw new CommandError(`no folder ${dirname(target)} to write the backup into`);

  // Work files beside the archive, not in /tmp: the snapshot is as large as the database.
  const work = mkdtempSync(join(dirname(target), `.${basename(target)}.`));
  const partial = join(work, "archive");
  try {
    const sources: ArchiveSource[] = [];
    let schema = SCHEMA_VERSION;
    if (!databaseUrl) {
      const snapshot = join(work, DATABASE_FILE);
      const live = new Database(databasePath(dataDir), { readwrite: true, create: false });
      try {
        live.run("PRAGMA busy_timeout = 5000");
        live.query("VACUUM INTO ?").run(snapshot);
      } finally {
        live.close();
      }
      schema = sqliteSchema(snapshot);
      sources.push({ path: DATABASE_FILE, from: snapshot });
    }
    const keyFile = join(dataDir, SECRET_KEY_FILE);
    const key: ArchiveHead["key"] = keyIsTheirs ? "operator" : existsSync(keyFile) ? "included" : "none yet";
    if (key === "included") sources.push({ path: SECRET_KEY_FILE, from: keyFile });
    for (const folder of ["uploads", ...(recordingsUrl ? [] : ["recordings"])]) {
      for (const from of filesUnder(join(dataDir, folder))) {
        const path = relative(dataDir, from).split("\\").join("/");
        if (isArchivePath(path)) sources.push({ path, from });
      }
    }
    const head: ArchiveHead = {
      format: "dreadcast-backup",
      formatVersion: ARCHIVE_FORMAT,
      version: VERSION,
      schema,
      engine: databaseUrl ? "postgres" : "sqlite",
      createdAt: new Date().toISOString(),
      key,
      recordings: recordingsUrl ?? "files",
    };
    const manifest = await writeArchive(partial, passphrase, head, sources);
    // Never over a file that appeared meanwhile: a link fails where a rename would replace it.
    linkSync(partial, target);
    const count = (prefix: string) => manifest.files.filter((f) => f.path.startsWith(prefix));
    const sum = (files: { size: number }[]) => formatBytes(files.reduce((n, f) => n + f.size, 0));
    const recordings = count("recordings/");
    const db = manifest.files.find((f) => f.path === DATABASE_FILE);
    const size = statSync(target).size;
    return {
      size,
      lines: [
        `backup written to ${target} (${formatBytes(size)}, encrypted with age under the passphrase; dreadcast ${VERSION}, schema ${schema}):`,
        db ? `  database    ${DATABASE_FILE}, ${formatBytes(db.size)} (a consistent snapshot)` : `  database    not in it: ${pgDumpAdvice(databaseUrl!, "FILE.dump")}`,
        key === "included"
          ? `  key         ${SECRET_KEY_FILE} (opens the team's two factors and the stream key)`
          : key === "operator"
            ? `  key         not in it (${keyIsTheirs}): keep your copy of the key; without it the two factors and the stream key cannot be read`
            : `  key         none made yet (nothing sealed so far)`,
        `  uploads     ${count("uploads/").length} file(s), ${sum(count("uploads/"))} (images from before they were kept in the database)`,
        recordingsUrl ? `  recordings  in ${recordingsUrl}, not copied: the bucket keeps them` : `  recordings  ${recordings.length} file(s), ${sum(recordings)}`,
        `check it with: dreadcast restore ${target} --data-dir /tmp/dreadcast-check (with the same passphrase)`,
      ],
    };
  } catch (error) {
    if (error instanceof CommandError || error instanceof ConfigError) throw error;
    // Nothing half-written is left to pass for a backup (a full disk stops the copy part-way).
    throw new CommandError(`backup failed: ${(error as Error).message.split("\n")[0]}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What a restore puts in place, as the names at the top of the data directory. */
const RESTORED = [DATABASE_FILE, SECRET_KEY_FILE, "uploads", "recordings"];
/** What SQLite left beside an old database: replayed into a restored file, it would corrupt it. */
const BESIDE_DATABASE = [`${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-journal`];

/**
 * `dreadcast restore ARCHIVE --data-dir DIR`: checks the archive whole (passphrase, every checksum, a
 * version this build can run) in a folder inside DIR, then swaps what it holds into place; what DIR held
 * before is set aside in DIR/before-restore-…, a stale WAL among it. A data directory a server holds is
 * refused; on any failure nothing in DIR has changed.
 */
export async function restoreCommand(argv: string[], env: Record<string, string | undefined>): Promise<string> {
  const { flags, rest } = parseCommandFlags(argv, ["passphrase-file", "database-url"]);
  if (rest.length !== 1) throw new ConfigError(`restore needs exactly one ARCHIVE; usage: ${RESTORE_USAGE}`);
  const databaseUrl = databaseUrlOf(flags, env);
  const passphrase = passphraseOf(flags, env, "restore");
  const archive = resolve(rest[0]!);
  if (!existsSync(archive) || !statSync(archive).isFile()) throw new CommandError(`no backup at ${archive}`);
  const dataDir = dataDirOf(flags, env);
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) throw new CommandError(`${dataDir} is not a directory`);
  // A directory made for the restore goes again if the restore is refused: nothing is left behind.
  const made = !existsSync(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let hold;
  try {
    hold = holdDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirHeldError) throw new CommandError(`${error.message}; nothing was restored`);
    throw error;
  }
  const work = mkdtempSync(join(dataDir, ".restoring-"));
  let restored = false;
  try {
    const { manifest } = await readArchive(archive, passphrase, work, (head) => {
      if (head.formatVersion > ARCHIVE_FORMAT || head.schema > SCHEMA_VERSION) {
        throw new SchemaTooNewError(
          `this backup was written by a newer dreadcast (${head.version}, schema ${head.schema}; this build is ${VERSION}, schema ${SCHEMA_VERSION}): restore it with that version; nothing was restored`,
        );
      }
    }).catch((error: unknown) => {
      if (error instanceof ArchiveError) throw new CommandError(error.message);
      throw error;
    });
    if (manifest.engine === "sqlite") {
      const restored = join(work, DATABASE_FILE);
      if (!existsSync(restored)) throw new CommandError(`${archive} has no database; nothing was restored`);
      const db = new Database(restored, { readonly: true });
      try {
        const check = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check;
        if (check !== "ok") throw new CommandError(`the database in ${archive} fails SQLite's integrity check (${check}); nothing was restored`);
      } finally {
        db.close();
      }
    }

    // The swap: what was there goes aside whole, then the archive's files take its place.
    const present = readdirSync(work);
    // What the archive speaks for goes aside even when it holds none of it (no uploads, no recordings).
    const governed = [
      ...(manifest.engine === "sqlite" ? [DATABASE_FILE, ...BESIDE_DATABASE] : []),
      ...(manifest.key === "included" ? [SECRET_KEY_FILE] : []),
      "uploads",
      ...(manifest.recordings === "files" ? ["recordings"] : []),
    ];
    const replaced = governed.filter((name) => existsSync(join(dataDir, name)));
    let aside: string | null = null;
    if (replaced.length) {
      aside = join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
      mkdirSync(aside, { mode: 0o700 });
      for (const name of replaced) renameSync(join(dataDir, name), join(aside, name));
    }
    for (const name of RESTORED.filter((n) => present.includes(n))) renameSync(join(work, name), join(dataDir, name));

    // The server started on it reads back from the payment provider what came after the backup.
    writeRestoreMarker(dataDir, { archive, takenAt: manifest.createdAt });
    const files = manifest.files;
    const recordings = files.filter((f) => f.path.startsWith("recordings/")).length;
    const stale = replaced.filter((name) => BESIDE_DATABASE.includes(name));
    restored = true;
    const start = databaseUrl ?? (manifest.engine === "postgres" ? "postgres://…" : null);
    return [
      `restored ${archive} into ${dataDir} (written by dreadcast ${manifest.version} at ${manifest.createdAt}, schema ${manifest.schema}; every checksum matches):`,
      manifest.engine === "sqlite"
        ? `  database    ${DATABASE_FILE} (integrity check ok)`
        : `  database    not in it: the event's database is PostgreSQL's; restore it with pg_restore (e.g. pg_restore -d DATABASE FILE.dump)${databaseUrl ? ` into ${describePostgres(databaseUrl)}` : ""}`,
      manifest.key === "included"
        ? `  key         ${SECRET_KEY_FILE}`
        : manifest.key === "operator"
          ? `  key         not in it (kept apart when it was made): start with --secret-key, or put your copy at ${join(dataDir, SECRET_KEY_FILE)}; without it the two factors and the stream key cannot be read`
          : `  key         none (none had been made)`,
      `  uploads     ${files.filter((f) => f.path.startsWith("uploads/")).length} file(s)`,
      manifest.recordings === "files" ? `  recordings  ${recordings} file(s)` : `  recordings  in ${manifest.recordings}: start with --recordings-url ${manifest.recordings}`,
      `  payments    at start the server reads back from Stripe what was paid, refunded or disputed after ${manifest.createdAt}`,
      ...(aside
        ? [
            `set aside: what ${dataDir} held is in ${aside}${stale.length ? ` (with ${stale.join(", ")} from a server that did not stop cleanly, which must not meet the restored database)` : ""}; delete it once the restored server runs`,
          ]
        : []),
      `start: dreadcast --data-dir ${dataDir}${start ? ` --database-url ${start}` : ""}${manifest.recordings === "files" ? "" : ` --recordings-url ${manifest.recordings}`}`,
    ].join("\n");
  } finally {
    rmSync(work, { recursive: true, force: true });
    hold.release();
    if (made && !restored) rmSync(dataDir, { recursive: true, force: true });
  }
}
