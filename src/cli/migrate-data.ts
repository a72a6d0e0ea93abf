import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, parseDatabaseUrl, redactPassword } from "../config.ts";
import { CopyError, copyToPostgres, openSnapshot, snapshotSqlite, type CopyReport } from "../db/copy-to-postgres.ts";
import { DataDirHeldError, holdDataDir } from "../db/data-dir-hold.ts";
import { DATABASE_FILE, DatabaseUnavailableError, databasePath, describePostgres, openStore } from "../db/database.ts";
import type { SqliteStore } from "../db/sqlite-store.ts";
import { sniffImage } from "../modules/uploads/service.ts";
import { CommandError, dataDirOf, parseCommandFlags, requireEventDatabase, requireFlags } from "./commands.ts";

const USAGE = "dreadcast migrate-data --to postgres://… [--data-dir DIR]";

const firstLine = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error));

/** True when a server holds the data directory (it may write after the snapshot is taken). */
function snapshotBesideServer(dataDir: string, take: () => void): boolean {
  let hold: ReturnType<typeof holdDataDir> | null = null;
  let running = false;
  try {
    hold = holdDataDir(dataDir);
  } catch (error) {
    // Held by a server: the snapshot is still consistent. Anything else (a read-only folder) only means we cannot tell.
    running = error instanceof DataDirHeldError;
  }
  try {
    take();
  } finally {
    hold?.release();
  }
  return running;
}

/**
 * Images uploaded before they were kept in the database are files in DATA_DIR/uploads: they go into the
 * snapshot's `uploads` table, and so into PostgreSQL with the rest. Returns how many.
 */
async function carryUploadedFiles(source: SqliteStore, dataDir: string): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(join(dataDir, "uploads"));
  } catch {
    return 0;
  }
  let carried = 0;
  for (const name of names) {
    const match = /^[0-9a-f]{32}\.(jpg|png|gif|webp)$/.exec(name);
    if (!match) continue;
    const bytes = new Uint8Array(await Bun.file(join(dataDir, "uploads", name)).arrayBuffer());
    const kind = sniffImage(bytes);
    if (!kind) continue;
    const { changes } = await source.run(
      "INSERT INTO uploads (name, content_type, bytes, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING",
      name,
      kind.type,
      bytes,
      Date.now(),
    );
    carried += changes;
  }
  return carried;
}

/**
 * `dreadcast migrate-data --to postgres://…`: copies the SQLite event in the data directory into an empty
 * PostgreSQL database (migrated first), every table in one transaction with its ids, and checks the counts.
 */
export async function migrateDataCommand(argv: string[], env: Record<string, string | undefined>): Promise<string> {
  const { flags, rest } = parseCommandFlags(argv, ["to"]);
  if (rest.length) throw new ConfigError(`unexpected argument '${rest[0]}'; usage: ${USAGE}`);
  requireFlags(flags, ["to"], USAGE);
  const to = parseDatabaseUrl("to", flags.to!);
  const dataDir = dataDirOf(flags, env);
  requireEventDatabase(dataDir);
  const file = databasePath(dataDir);
  const where = describePostgres(to);

  const temp = mkdtempSync(join(tmpdir(), "dreadcast-migrate-"));
  let report: CopyReport;
  let serverRunning: boolean;
  let uploads: number;
  try {
    const snapshot = join(temp, DATABASE_FILE);
    try {
      serverRunning = snapshotBesideServer(dataDir, () => snapshotSqlite(file, snapshot));
    } catch (error) {
      throw error instanceof CopyError ? new CommandError(error.message) : error;
    }
    const source = await openSnapshot(snapshot, file).catch((error: unknown) => {
      throw error instanceof CopyError ? new CommandError(error.message) : new CommandError(`cannot read ${file}: ${firstLine(error)}`);
    });
    try {
      uploads = await carryUploadedFiles(source, dataDir);
      const pg = await openStore({ dataDir, databaseUrl: to });
      try {
        report = await copyToPostgres(source, pg, where);
      } catch (error) {
        if (error instanceof CopyError) throw new CommandError(error.message);
        if (pg.isUnavailable(error)) throw new DatabaseUnavailableError(`lost PostgreSQL at ${where} while copying (${firstLine(error)}); nothing was written`);
        throw new CommandError(`copying into PostgreSQL at ${where} failed: ${firstLine(error)}; nothing was written`);
      } finally {
        await pg.close();
      }
    } finally {
      await source.close();
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }

  const width = Math.max(...report.tables.map((t) => t.table.length)) + 2;
  const total = report.tables.reduce((sum, t) => sum + t.rows, 0);
  return [
    `copied ${file} into PostgreSQL at ${where} (schema version ${report.schemaVersion}):`,
    ...report.tables.map((t) => `  ${t.table.padEnd(width)}${String(t.rows).padStart(8)}`),
    ...(serverRunning ? [`note: a server is running on ${dataDir}; what it writes from now on is not in the copy — stop it, and start the servers on PostgreSQL`] : []),
    `uploads: images are in the database${uploads > 0 ? `, ${uploads} uploaded file${uploads === 1 ? "" : "s"} from ${join(dataDir, "uploads")} among them` : ""}`,
    `done: ${report.tables.length} tables, ${total} rows, every count matches; start dreadcast with --database-url ${redactPassword(to)} --data-dir ${dataDir} (it keeps the key that opens the two factors and the stream key, and the recordings; ${file} is left as it was)`,
  ].join("\n");
}
