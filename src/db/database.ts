import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { appliedSchema, migrate, SchemaTooNewError } from "./migrate.ts";
import { migrations, SCHEMA_VERSION } from "./migrations.ts";
import { PostgresStore } from "./postgres-store.ts";
import { SqliteStore } from "./sqlite-store.ts";
import type { Store } from "./store.ts";

export const DATABASE_FILE = "dreadcast.db";

export function databasePath(dataDir: string): string {
  return join(dataDir, DATABASE_FILE);
}

export interface StoreOptions {
  /** The SQLite file's folder (the default engine). */
  dataDir: string;
  /** A `postgres://` URL selects PostgreSQL instead. */
  databaseUrl?: string | null;
  /** PostgreSQL's statement timeout in ms (default DEFAULT_STATEMENT_TIMEOUT_MS; 0: none). */
  databaseTimeoutMs?: number;
  /** What the server shows the connections as (pg_stat_activity). */
  applicationName?: string;
  /** Told the schema found and the one left after migrating (the same when nothing ran). */
  onSchema?: (from: number, to: number) => void;
}

/** `schema 21`, or `schema 20 → 21` when this start migrated it. */
export function describeSchema(from: number, to: number): string {
  return from === to ? `schema ${to}` : `schema ${from} → ${to}`;
}

/** Opens the SQLite file in dataDir with the pragmas every connection needs. */
export function openSqlite(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(databasePath(dataDir), { create: true, strict: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA foreign_keys = ON");
  return db;
}

/** The database named at start could not be used: said in one line, without the password. */
export class DatabaseUnavailableError extends Error {}

/** Where a PostgreSQL URL points, for messages: host, port and database, never the password. */
export function describePostgres(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || u.searchParams.get("host") || "localhost"}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "the database";
  }
}

/** Opens (creating if needed) the event's database — the SQLite file, or PostgreSQL given a URL — and migrates it. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const store = options.databaseUrl
    ? PostgresStore.connect(options.databaseUrl, { statementTimeoutMs: options.databaseTimeoutMs, applicationName: options.applicationName })
    : new SqliteStore(openSqlite(options.dataDir));
  try {
    const from = await appliedSchema(store);
    // Migrations may take long on a large event (and a second instance waits for the first's): no deadline.
    await (store instanceof PostgresStore ? store.unbounded(() => migrate(store, migrations)) : migrate(store, migrations));
    options.onSchema?.(from, Math.max(from, SCHEMA_VERSION));
  } catch (error) {
    await store.close().catch(() => {});
    if (options.databaseUrl && !(error instanceof SchemaTooNewError)) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new DatabaseUnavailableError(`cannot use PostgreSQL at ${describePostgres(options.databaseUrl)}: ${reason}`);
    }
    throw error;
  }
  return store;
}

/** The bun:sqlite handle under a SQLite store (for what only SQLite has: its file, its online backup). */
export function sqliteHandle(store: Store): Database {
  if (!(store instanceof SqliteStore)) throw new Error("this needs the embedded SQLite database");
  return store.db;
}

/** Flushes SQLite's WAL into the main file and closes, or closes the PostgreSQL pool; used on shutdown. */
export async function closeStore(store: Store): Promise<void> {
  await store.close();
}

/** A consistent online copy of the live SQLite database (safe while the server writes). */
export function backupDatabase(db: Database, targetFile: string): void {
  db.query("VACUUM INTO ?").run(targetFile);
}
