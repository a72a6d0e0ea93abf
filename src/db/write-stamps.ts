/**
 * Write stamps: counters a cache compares with the one it was built at, to know whether what it holds may
 * have changed. Counted per table, so a cache of sessions is not thrown away by every stored chat line or
 * recorded segment, only by a write to a table it reads.
 */

/** Tables written often whose rows no cache holds (or whose changes travel as cluster messages). */
const UNCACHED_TABLES = new Set(["chat_messages", "chat_line_events", "event_counters", "email_queue", "moderation_log", "stats_samples", "webhook_events"]);

interface Statement {
  /** INSERT, UPDATE, DELETE, REPLACE (and anything else but a plain read). */
  write: boolean;
  /** The table it writes, when one can be read off it; null when it cannot (a cache of anything is then stale). */
  table: string | null;
}

const statements = new Map<string, Statement>();
/** At most this many statements are remembered: the app's own are a few hundred; anything past is read each time. */
const MAX_STATEMENTS = 2000;

function statementOf(sql: string): Statement {
  let known = statements.get(sql);
  if (known === undefined) {
    const write = !/^\s*(SELECT|WITH\s+(?![\s\S]*\b(INSERT|UPDATE|DELETE)\b))/i.test(sql);
    const table = write ? (/\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+"?(\w+)/i.exec(sql)?.[1]?.toLowerCase() ?? null) : null;
    known = { write, table };
    if (statements.size < MAX_STATEMENTS) statements.set(sql, known);
  }
  return known;
}

/** True for a statement that may change rows (anything but a plain read). */
export function isWrite(sql: string): boolean {
  return statementOf(sql).write;
}

/** True for a write to a table that some instance may hold in a cache (or to one that cannot be told). */
export function writesCachedTable(sql: string): boolean {
  const { write, table } = statementOf(sql);
  return write && (table === null || !UNCACHED_TABLES.has(table));
}

/** One store's write stamps. */
export class WriteStamps {
  /** Every write to a cached table, and every change heard of from elsewhere. */
  total = 0;
  /** Changes whose tables are not known: another instance's, a schema change, a statement that names none. */
  private anywhere = 0;
  private readonly byTable = new Map<string, number>();

  /**
   * Counts a statement that was run; true when it wrote a table a cache may hold. Inside a transaction,
   * `written` collects what it wrote, to be counted again once it ends (`ended`): a cache built outside it
   * meanwhile read the rows from before, at a stamp that already counted its writes.
   */
  note(sql: string, written?: Set<string | null>): boolean {
    if (!writesCachedTable(sql)) return false;
    const { table } = statementOf(sql);
    this.count(table);
    written?.add(table);
    return true;
  }

  /** A transaction that wrote `written` was committed or rolled back. */
  ended(written: Set<string | null>): void {
    for (const table of written) this.count(table);
  }

  private count(table: string | null): void {
    if (table === null) this.anywhere++;
    else this.byTable.set(table, (this.byTable.get(table) ?? 0) + 1);
    this.total++;
  }

  /** Something changed that cannot be told apart (another instance wrote, a transaction ended, a schema change). */
  changedAnywhere(): void {
    this.anywhere++;
    this.total++;
  }

  /** A stamp of the writes that may have changed what `tables` hold. */
  of(tables: readonly string[]): number {
    let stamp = this.anywhere;
    for (const table of tables) stamp += this.byTable.get(table) ?? 0;
    return stamp;
  }
}
