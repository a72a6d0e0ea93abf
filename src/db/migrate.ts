import type { Queries, Store } from "./store.ts";

export interface Migration {
  version: number;
  name: string;
  /** The schema change in each engine's words (the same tables, columns and constraints; empty: none on that engine). */
  sqlite: string;
  postgres: string;
  /** Rows the change needs, written the same way on both engines. */
  seed?: (q: Queries) => Promise<void>;
}

/** Two instances starting together take this (a PostgreSQL advisory lock) so that one of them migrates. */
const MIGRATION_LOCK = 7_310_144_311;

/** The database was migrated by a newer dreadcast: this build would misread it (and write to it). */
export class SchemaTooNewError extends Error {}

/** The newest migration applied to the database (0 for a new one), read without writing anything. */
export async function appliedSchema(store: Store): Promise<number> {
  const table =
    store.engine === "postgres"
      ? await store.get<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t")
      : await store.get<{ t: string }>("SELECT name AS t FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'");
  if (!table?.t) return 0;
  const row = await store.get<{ v: number | null }>("SELECT MAX(version) AS v FROM schema_migrations");
  return Number(row?.v ?? 0);
}

/** Refuses, before anything is written, a database whose schema is newer than `list` knows. */
export async function refuseNewerSchema(store: Store, list: Migration[]): Promise<number> {
  const applied = await appliedSchema(store);
  const known = Math.max(0, ...list.map((m) => m.version));
  if (applied > known) {
    throw new SchemaTooNewError(
      `this database was written by a newer dreadcast: run that version, or restore a backup (its schema is ${applied}, this build knows up to ${known})`,
    );
  }
  return applied;
}

/** Runs the migrations not yet applied, each in its own transaction, in order; returns their versions. */
export async function migrate(store: Store, list: Migration[]): Promise<number[]> {
  await refuseNewerSchema(store, list);
  // A migration may take a while on a large event, and another instance waits for it: no statement timeout.
  const lock = async () => {
    if (store.engine !== "postgres") return;
    await store.exec("SET LOCAL statement_timeout = 0");
    await store.get(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
  };
  await store.tx(async () => {
    await lock();
    await store.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
  });
  const ran: number[] = [];
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    await store.tx(async () => {
      await lock();
      if (await store.get("SELECT version FROM schema_migrations WHERE version = ?", migration.version)) return;
      const sql = store.engine === "sqlite" ? migration.sqlite : migration.postgres;
      if (sql.trim()) await store.exec(sql); // a change for the other engine only
      await migration.seed?.(store);
      await store.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", migration.version, migration.name, Date.now());
      ran.push(migration.version);
    });
  }
  return ran;
}
