import { Database } from "bun:sqlite";
import { migrate } from "./migrate.ts";
import { migrations } from "./migrations.ts";
import { SqliteStore } from "./sqlite-store.ts";
import type { Param, Store } from "./store.ts";

/**
 * Copying an event from its SQLite file into PostgreSQL (`dreadcast migrate-data`): every table, ids
 * kept, in one transaction, into a database that holds no event yet.
 *
 * The tables, their columns, foreign keys and identity columns are read from the two schemas rather than
 * listed here, so a table a later migration adds is copied too.
 */

/** The copy cannot go ahead (or did not match); said in one line, and PostgreSQL is left as it was. */
export class CopyError extends Error {}

export interface TableCount {
  table: string;
  rows: number;
}

export interface CopyReport {
  /** In the order they were written (parents before the rows that refer to them). */
  tables: TableCount[];
  schemaVersion: number;
}

/** Tables a server fills on its own, with no one using it: they do not make an event. */
const WRITTEN_BY_ITSELF = new Set(["stats_samples", "event_counters"]);

const LATEST_VERSION = Math.max(...migrations.map((m) => m.version));

/** Rows per INSERT, and at most this many parameters in one (PostgreSQL allows 65,535). */
const BATCH_ROWS = 500;
const BATCH_PARAMS = 20_000;

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new CopyError(`unexpected table or column name '${name}'`);
  return `"${name}"`;
}

const message = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error));

/**
 * A consistent copy of the live SQLite file at `into` (VACUUM INTO: one read transaction, so a server
 * writing beside it is neither blocked for long nor seen half-way).
 */
export function snapshotSqlite(file: string, into: string): void {
  let source: Database;
  try {
    source = new Database(file, { readonly: true });
  } catch (error) {
    throw new CopyError(`cannot open ${file}: ${message(error)}`);
  }
  try {
    source.run("PRAGMA busy_timeout = 5000");
    source.query("VACUUM INTO ?").run(into);
  } catch (error) {
    throw new CopyError(`cannot read ${file}: ${message(error)}`);
  } finally {
    source.close();
  }
}

/**
 * Opens the snapshot and brings it to this version's schema (as a server starting on it would), so its
 * tables and columns are those of the PostgreSQL database. The live file is not touched.
 */
export async function openSnapshot(file: string, shownAs: string): Promise<SqliteStore> {
  const db = new Database(file, { strict: true });
  const store = new SqliteStore(db);
  try {
    const known = db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!known) throw new CopyError(`${shownAs} is not a dreadcast database (it has no schema_migrations table)`);
    const version = (db.query("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number | null }).v ?? 0;
    if (version > LATEST_VERSION) {
      throw new CopyError(`${shownAs} was written by a newer dreadcast (schema version ${version}, this one knows ${LATEST_VERSION}); use that version's migrate-data`);
    }
    await migrate(store, migrations);
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

interface Column {
  name: string;
  type: string;
  notNull: boolean;
}

interface ForeignKey {
  child: string;
  column: string;
  parent: string;
  notNull: boolean;
}

interface TargetSchema {
  columns: Map<string, Column[]>;
  foreignKeys: ForeignKey[];
  identities: { table: string; column: string }[];
}

async function targetSchema(pg: Store): Promise<TargetSchema> {
  const here = "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())";
  const columns = new Map<string, Column[]>();
  const rows = await pg.all<{ table_name: string; column_name: string; type: string; not_null: number }>(
    `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace = ${here} AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
  );
  for (const r of rows) {
    const list = columns.get(r.table_name) ?? [];
    list.push({ name: r.column_name, type: r.type, notNull: r.not_null === 1 });
    columns.set(r.table_name, list);
  }
  const foreignKeys = (
    await pg.all<{ child: string; column_name: string; parent: string; not_null: number }>(
      `SELECT child.relname AS child, a.attname AS column_name, parent.relname AS parent, a.attnotnull AS not_null
       FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid
       JOIN pg_class parent ON parent.oid = k.confrelid
       JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
       WHERE k.contype = 'f' AND child.relnamespace = ${here}`,
    )
  ).map((r) => ({ child: r.child, column: r.column_name, parent: r.parent, notNull: r.not_null === 1 }));
  const identities = (
    await pg.all<{ table_name: string; column_name: string }>(
      `SELECT c.relname AS table_name, a.attname AS column_name
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relnamespace = ${here} AND c.relkind IN ('r', 'p') AND a.attidentity <> '' AND NOT a.attisdropped`,
    )
  ).map((r) => ({ table: r.table_name, column: r.column_name }));
  return { columns, foreignKeys, identities };
}

/**
 * The order to write the tables in: each after those its rows refer to. Where the references go round
 * (access codes → payments → users → access codes), a table whose references back are optional goes
 * first with those columns empty, and they are filled in once every row is there.
 */
export function insertionOrder(tables: string[], foreignKeys: ForeignKey[]): { order: string[]; deferred: Map<string, string[]> } {
  const placed = new Set<string>();
  const order: string[] = [];
  const deferred = new Map<string, string[]>();
  const remaining = [...tables];
  const refs = (t: string) => foreignKeys.filter((k) => k.child === t && tables.includes(k.parent));
  while (remaining.length) {
    let next = remaining.find((t) => refs(t).every((k) => k.parent === t || placed.has(k.parent)));
    if (next === undefined) {
      next = remaining.find((t) => refs(t).every((k) => k.parent === t || placed.has(k.parent) || !k.notNull));
      if (next === undefined) throw new CopyError(`the foreign keys of ${remaining.join(", ")} go round through required columns`);
    }
    const table = next;
    // References to tables not written yet, and a table's references to itself, are filled in afterwards.
    const later = refs(table)
      .filter((k) => !k.notNull && (k.parent === table || !placed.has(k.parent)))
      .map((k) => k.column);
    if (later.length) deferred.set(table, later);
    placed.add(table);
    order.push(table);
    remaining.splice(remaining.indexOf(table), 1);
  }
  return { order, deferred };
}

/** The tables a new database already has rows in (the one-row settings its migrations seed). */
async function seededTables(): Promise<Set<string>> {
  const store = new SqliteStore(new Database(":memory:", { strict: true }));
  try {
    await migrate(store, migrations);
    const tables = store.db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'").all() as { name: string }[];
    const seeded = new Set<string>();
    for (const { name } of tables) if ((store.db.query(`SELECT COUNT(*) AS n FROM ${ident(name)}`).get() as { n: number }).n > 0) seeded.add(name);
    return seeded;
  } finally {
    await store.close();
  }
}

/**
 * What of an event the PostgreSQL database already holds, or [] when it holds none: rows in any table
 * but those a new database or an idle server fills by itself, and settings saved since it was set up.
 */
async function eventIn(pg: Store, tables: string[], columns: Map<string, Column[]>): Promise<string[]> {
  const seeded = await seededTables();
  const setUp = (await pg.get<{ at: number }>("SELECT MAX(applied_at) AS at FROM schema_migrations"))?.at ?? 0;
  const found: string[] = [];
  for (const table of tables) {
    if (WRITTEN_BY_ITSELF.has(table)) continue;
    if (seeded.has(table)) {
      if (!columns.get(table)?.some((c) => c.name === "updated_at")) continue;
      const edited = await pg.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${ident(table)} WHERE updated_at > ?`, setUp);
      if (edited!.n > 0) found.push(`${table} changed`);
      continue;
    }
    const { n } = (await pg.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${ident(table)}`))!;
    if (n > 0) found.push(`${n} row${n === 1 ? "" : "s"} in ${table}`);
  }
  return found;
}

function sqliteTables(db: Database): string[] {
  // In the order they were made: the order the migrations list them, parents mostly first.
  return (
    db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY rowid").all() as { name: string }[]
  ).map((r) => r.name);
}

function sqliteColumns(db: Database, table: string): { name: string; pk: number }[] {
  return db.query(`SELECT name, pk FROM pragma_table_info(?) ORDER BY cid`).all(table) as { name: string; pk: number }[];
}

/** Checks that both sides have the same tables and columns (they should: both are at this version). */
function matchSchemas(db: Database, tables: string[], target: TargetSchema): void {
  const problems: string[] = [];
  for (const table of tables) {
    const pgColumns = target.columns.get(table);
    if (!pgColumns) {
      problems.push(`no table ${table}`);
      continue;
    }
    const mine = sqliteColumns(db, table)
      .map((c) => c.name)
      .sort();
    const theirs = pgColumns.map((c) => c.name).sort();
    if (mine.join() !== theirs.join()) problems.push(`${table} has columns (${theirs.join(", ")}) instead of (${mine.join(", ")})`);
  }
  if (problems.length) throw new CopyError(`the PostgreSQL schema does not match this version's: ${problems.join("; ")}`);
}

async function copyTable(db: Database, pg: Store, table: string, columns: string[], empty: Set<string>): Promise<number> {
  const list = columns.map(ident).join(", ");
  const perRow = `(${columns.map(() => "?").join(", ")})`;
  const rowsPerBatch = Math.max(1, Math.min(BATCH_ROWS, Math.floor(BATCH_PARAMS / columns.length)));
  let batch: Param[] = [];
  let inBatch = 0;
  let copied = 0;
  const flush = async () => {
    if (inBatch === 0) return;
    await pg.run(`INSERT INTO ${ident(table)} (${list}) VALUES ${Array(inBatch).fill(perRow).join(", ")}`, ...batch);
    copied += inBatch;
    batch = [];
    inBatch = 0;
  };
  for (const row of db.query(`SELECT ${list} FROM ${ident(table)} ORDER BY rowid`).iterate() as IterableIterator<Record<string, Param>>) {
    for (const column of columns) batch.push(empty.has(column) ? null : (row[column] ?? null));
    if (++inBatch === rowsPerBatch) await flush();
  }
  await flush();
  return copied;
}

/** Fills in the columns written empty to break a circle of references, many rows to a statement. */
async function fillDeferred(db: Database, pg: Store, table: string, columns: string[], target: TargetSchema): Promise<void> {
  const key = sqliteColumns(db, table)
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  if (key.length === 0) throw new CopyError(`${table} has no primary key to fill in ${columns.join(", ")} by`);
  const typeOf = new Map(target.columns.get(table)!.map((c) => [c.name, c.type]));
  for (const column of columns) {
    const fields = [...key, column];
    const cast = (f: string) => `CAST(? AS ${typeOf.get(f)})`;
    const perRow = `(${fields.map(cast).join(", ")})`;
    const alias = fields.map((_, i) => `c${i}`);
    const rows = db.query(`SELECT ${fields.map(ident).join(", ")} FROM ${ident(table)} WHERE ${ident(column)} IS NOT NULL ORDER BY rowid`).values() as Param[][];
    for (let i = 0; i < rows.length; i += BATCH_ROWS) {
      const chunk = rows.slice(i, i + BATCH_ROWS);
      await pg.run(
        `UPDATE ${ident(table)} AS t SET ${ident(column)} = v.c${key.length}
         FROM (VALUES ${chunk.map(() => perRow).join(", ")}) AS v (${alias.join(", ")})
         WHERE ${key.map((k, j) => `t.${ident(k)} = v.c${j}`).join(" AND ")}`,
        ...chunk.flat(),
      );
    }
  }
}

/**
 * Copies every table of the (migrated) SQLite snapshot into PostgreSQL in one transaction: refuses when
 * PostgreSQL already holds an event, keeps every id, moves each identity past the highest id copied, and
 * compares every table's count before committing. On any failure nothing is written.
 */
export async function copyToPostgres(source: SqliteStore, pg: Store, where: string): Promise<CopyReport> {
  if (pg.engine !== "postgres") throw new Error("the target must be PostgreSQL");
  const db = source.db;
  const pgVersion = (await pg.get<{ v: number | null }>("SELECT MAX(version) AS v FROM schema_migrations"))?.v ?? 0;
  if (pgVersion > LATEST_VERSION) {
    throw new CopyError(`PostgreSQL at ${where} was set up by a newer dreadcast (schema version ${pgVersion}, this one knows ${LATEST_VERSION})`);
  }
  const tables = sqliteTables(db);
  const target = await targetSchema(pg);
  matchSchemas(db, tables, target);
  const { order, deferred } = insertionOrder(tables, target.foreignKeys);
  const expected = new Map(tables.map((t) => [t, (db.query(`SELECT COUNT(*) AS n FROM ${ident(t)}`).get() as { n: number }).n]));

  await pg.tx(async () => {
    // Nothing else writes these tables until the copy is committed or rolled back (reads go on).
    await pg.exec(`LOCK TABLE ${order.map(ident).join(", ")} IN EXCLUSIVE MODE`);
    const held = await eventIn(pg, order, target.columns);
    if (held.length) {
      throw new CopyError(
        `PostgreSQL at ${where} already holds an event (${held.join(", ")}); migrate-data copies only into an empty database — create a new one (e.g. createdb) and point --to at it`,
      );
    }
    // What a new database or an idle server put there (the default settings, samples) gives way to the event's.
    for (const table of [...order].reverse()) await pg.run(`DELETE FROM ${ident(table)}`);
    for (const table of order) {
      const columns = sqliteColumns(db, table).map((c) => c.name);
      await copyTable(db, pg, table, columns, new Set(deferred.get(table) ?? []));
    }
    for (const [table, columns] of deferred) await fillDeferred(db, pg, table, columns, target);
    for (const { table, column } of target.identities) {
      if (!order.includes(table)) continue;
      await pg.get(`SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX(${ident(column)}), 1), MAX(${ident(column)}) IS NOT NULL) FROM ${ident(table)}`, ident(table), column);
    }
    const wrong: string[] = [];
    for (const table of order) {
      const { n } = (await pg.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${ident(table)}`))!;
      if (n !== expected.get(table)) wrong.push(`${table}: ${n} of ${expected.get(table)}`);
    }
    if (wrong.length) throw new CopyError(`the copy does not match (${wrong.join(", ")}); nothing was written`);
  });
  return { tables: order.map((table) => ({ table, rows: expected.get(table)! })), schemaVersion: LATEST_VERSION };
}
