import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { migrations, type Migration } from "./migrations.ts";

export const DATABASE_FILE = "dreadcast.db";

export function databasePath(dataDir: string): string {
  return join(dataDir, DATABASE_FILE);
}

/** Opens (creating if needed) the database in dataDir with the pragmas every connection needs, then migrates. */
export function openDatabase(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(databasePath(dataDir), { create: true, strict: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA foreign_keys = ON");
  migrate(db, migrations);
  return db;
}

export function migrate(db: Database, list: Migration[]): number[] {
  db.run("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)");
  const applied = new Set(db.query<{ version: number }, []>("SELECT version FROM schema_migrations").all().map((r) => r.version));
  const ran: number[] = [];
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      migration.up(db);
      db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(migration.version, migration.name, Date.now());
    }).immediate();
    ran.push(migration.version);
  }
  return ran;
}

/** Flushes the WAL into the main file and closes; used on shutdown. */
export function closeDatabase(db: Database): void {
  try {
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** A consistent online copy of the live database (safe while the server writes). */
export function backupDatabase(db: Database, targetFile: string): void {
  db.query("VACUUM INTO ?").run(targetFile);
}
