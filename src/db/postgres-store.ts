import { SQL } from "bun";
import { AsyncLocalStorage } from "node:async_hooks";
import { checkText, type Param, type RunResult, type Store } from "./store.ts";
import { isWrite, WriteStamps } from "./write-stamps.ts";

const placeholders = new Map<string, string>();
/**
 * A query in PostgreSQL's words: `?` → `$1`, `$2`, … outside quoted strings and identifiers, and SQLite's
 * `COLLATE NOCASE` dropped (the columns compared that way are `citext` there).
 */
export function toPostgres(sql: string): string {
  let out = placeholders.get(sql);
  if (out !== undefined) return out;
  const text = sql.replace(/\s+COLLATE\s+NOCASE\b/gi, "");
  let n = 0;
  let quote: string | null = null;
  out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === "?") {
      // `?3` names the third parameter (SQLite's numbered form), `?` the next one.
      out += /[0-9]/.test(text[i + 1] ?? "") ? "$" : `$${++n}`;
    } else out += ch;
  }
  if (placeholders.size < 2000) placeholders.set(sql, out);
  return out;
}

type Row = Record<string, unknown>;

/**
 * Rows as SQLite gives them: int8 arrives as a BigInt (every number this app stores fits a double), and a
 * boolean expression (`EXISTS …`, a comparison) as 1 or 0, as the app stores its flags.
 */
function plainNumbers<T>(rows: Row[]): T[] {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (typeof value === "bigint") row[key] = Number(value);
      else if (typeof value === "boolean") row[key] = value ? 1 : 0;
    }
  }
  return rows as T[];
}

/**
 * The server gone or out of reach, as Bun.SQL says it: ERR_POSTGRES_CONNECTION_CLOSED (a connection dropped,
 * in use or idle), _REFUSED (nothing listening), _FAILED (dropped before it was ready), _TIMEOUT (no answer
 * to the startup message); or as this store says it: no answer within its deadline. The pool makes new
 * connections by itself once the server answers again.
 */
const PG_UNAVAILABLE = /^(ERR_POSTGRES_(CONNECTION_|IDLE_TIMEOUT|LIFETIME_TIMEOUT|TLS)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ConnectionRefused|ConnectionClosed)/;
/**
 * Server-side codes that mean "not now" rather than "wrong": shutting down, out of resources (53000, the
 * disk full 53100, memory 53200, connections 53300), connection failures, a statement cancelled at the
 * statement timeout (57014: stuck behind a lock, say) and a session ended for sitting in a transaction too
 * long (25P03).
 */
const PG_TRANSIENT_STATES = new Set(["57P01", "57P02", "57P03", "53000", "53100", "53200", "53300", "08000", "08003", "08006", "08001", "08004", "57014", "25P03"]);

/** The code of the error a query gets when PostgreSQL did not answer within the store's deadline. */
const DATABASE_TIMEOUT_CODE = "DREADCAST_DATABASE_TIMEOUT";

/** PostgreSQL did not answer in time: the query is given up (the caller answers 503). */
export class DatabaseTimeoutError extends Error {
  readonly code = DATABASE_TIMEOUT_CODE;
  constructor(ms: number) {
    super(`PostgreSQL did not answer within ${ms / 1000} s`);
  }
}

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** Seconds to wait for a new connection's server to answer (default 5). */
  connectionTimeout?: number;
  /**
   * The longest a statement may run, in ms (default 10,000; 0 = no limit). The server cancels one that runs
   * longer (stuck behind a lock, say), and a statement with no answer at all a little after that — the
   * server or the network between stopped answering — is given up here, and the pool's connections are
   * dropped and opened anew, so that a connection the network lost cannot hold the store up.
   */
  statementTimeoutMs?: number;
  /** What the server shows this connection as (pg_stat_activity's application_name). */
  applicationName?: string;
}

/** A deadline armed around a statement, or around the parts of a transaction the store does not send itself. */
interface Watchdog {
  arm(): void;
  disarm(): void;
  /** Rejects with a DatabaseTimeoutError when the deadline passes while armed. */
  late: Promise<never>;
}

/** The default of `statementTimeoutMs`. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/**
 * PostgreSQL through Bun.SQL: a pool of connections; a transaction holds one of them until it ends.
 *
 * Every statement has a deadline: the server's `statement_timeout`, and here that plus a margin, for a server
 * (or a network) that stopped answering altogether — a query waits on such a connection for ever otherwise,
 * since a TCP connection whose other end went silent is only found dead after many minutes. When a deadline
 * passes, the query is refused as unavailable and the whole pool is replaced: its stuck queries and
 * transactions fail at once (the server rolls back what was not committed), and new connections are made
 * as soon as the server answers again.
 */
export class PostgresStore implements Store {
  readonly engine = "postgres" as const;
  private readonly stamps = new WriteStamps();
  /**
   * The transaction a call runs in. Work started inside one (a timer, a promise chain) keeps this
   * context after the transaction ended, so it is marked closed and such work then uses the pool.
   */
  private readonly scope = new AsyncLocalStorage<{ sql: SQL; open: boolean; written: Set<string | null> }>();
  private listener: (() => void) | null = null;
  private pool: SQL;
  /** When the pool was last replaced for want of an answer (ms, performance.now()); at most once a deadline. */
  private replacedAt = -Infinity;
  /** How often the pool was replaced since start (for /metrics). */
  poolRenewals = 0;
  private readonly deadlineMs: number;
  /** Inside `unbounded`: no deadline here (the statement timeout is the caller's to lift). */
  private unboundedDepth = 0;

  /**
   * `makePool` opens a pool (called again whenever the pool is replaced); `statementTimeoutMs` is the
   * statement timeout the pool's connections were opened with (0: none, and no deadline here either).
   */
  constructor(
    private readonly makePool: () => SQL,
    statementTimeoutMs = 0,
  ) {
    this.pool = makePool();
    // The server's own timeout answers first; this one is for a server that cannot answer at all.
    this.deadlineMs = statementTimeoutMs > 0 ? statementTimeoutMs + Math.min(5000, Math.max(1000, statementTimeoutMs / 2)) : 0;
  }

  get writes(): number {
    return this.stamps.total;
  }

  writesTo(tables: readonly string[]): number {
    return this.stamps.of(tables);
  }

  changedElsewhere(): void {
    this.stamps.changedAnywhere();
  }

  watchWrites(listener: () => void): void {
    this.listener = listener;
  }

  /** A write was made: counted, and told to the listener once it is committed. */
  private wrote(sql: string): void {
    const tx = this.scope.getStore();
    const inside = tx?.open ? tx : undefined;
    if (!this.stamps.note(sql, inside?.written) || inside) return;
    this.listener?.();
  }

  static connect(url: string, options: PostgresOptions = {}): PostgresStore {
    const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    // Run-time parameters sent with each connection's startup: the statement timeout, and a session left
    // in a transaction with nothing to do (its client gone) ended so that it lets go of its locks. No JIT
    // compilation: every query here is short, and compiling one the planner overestimates (the Payments
    // list's per-row lookups) took 20–30 ms, longer than running it.
    const connection: Record<string, string> = { application_name: options.applicationName ?? "dreadcast", jit: "off" };
    if (statementTimeoutMs > 0) {
      connection.statement_timeout = String(statementTimeoutMs);
      connection.idle_in_transaction_session_timeout = String(Math.max(30_000, 3 * statementTimeoutMs));
    }
    const makePool = () =>
      new SQL({ url, bigint: true, max: options.max ?? 10, connectionTimeout: options.connectionTimeout ?? 5, idleTimeout: 30, connection } as ConstructorParameters<
        typeof SQL
      >[0]);
    return new PostgresStore(makePool, statementTimeoutMs);
  }

  /**
   * `query`'s answer, or a DatabaseTimeoutError once the deadline passed — and then the pool is replaced
   * (once a deadline at most), which ends every other query stuck on it.
   */
  private answered<T>(query: PromiseLike<T>): Promise<T> {
    if (this.deadlineMs === 0 || this.unboundedDepth > 0) return Promise.resolve(query);
    const watch = this.watchdog();
    watch.arm();
    return Promise.race([query, watch.late]).finally(() => watch.disarm());
  }

  /** Runs `fn` with no deadline on the store's side: for the migrations at start, which may take long. */
  async unbounded<T>(fn: () => Promise<T>): Promise<T> {
    this.unboundedDepth++;
    try {
      return await fn();
    } finally {
      this.unboundedDepth--;
    }
  }

  /** Drops every connection (failing what waits on them) and opens new ones on demand. */
  private replacePool(): void {
    const now = performance.now();
    if (now - this.replacedAt < this.deadlineMs) return;
    this.replacedAt = now;
    this.poolRenewals++;
    const old = this.pool;
    this.pool = this.makePool();
    old.close({ timeout: 0 }).catch(() => {});
  }

  private client(): SQL {
    const tx = this.scope.getStore();
    return tx?.open ? tx.sql : this.pool;
  }

  async all<T>(sql: string, ...params: Param[]): Promise<T[]> {
    checkText(params);
    const rows = (await this.answered(this.client().unsafe(toPostgres(sql), params as unknown[]))) as Row[];
    if (isWrite(sql)) this.wrote(sql);
    return plainNumbers<T>([...rows]);
  }

  async get<T>(sql: string, ...params: Param[]): Promise<T | null> {
    checkText(params);
    const rows = (await this.answered(this.client().unsafe(toPostgres(sql), params as unknown[]))) as Row[];
    if (isWrite(sql)) this.wrote(sql);
    return rows.length === 0 ? null : plainNumbers<T>([rows[0]!])[0]!;
  }

  async run(sql: string, ...params: Param[]): Promise<RunResult> {
    checkText(params);
    const result = (await this.answered(this.client().unsafe(toPostgres(sql), params as unknown[]))) as unknown as { count: number | null; affectedRows?: number | null };
    this.wrote(sql);
    return { changes: Number(result.affectedRows ?? result.count ?? 0) };
  }

  async exec(sql: string): Promise<void> {
    await this.answered(this.client().unsafe(sql).simple());
    this.wrote(sql);
  }

  inTransaction(): boolean {
    return this.scope.getStore()?.open === true;
  }

  outside<T>(fn: () => T): T {
    return this.scope.exit(fn);
  }

  async lock(key: string): Promise<void> {
    if (!this.inTransaction()) throw new Error("lock() is for use inside a transaction");
    await this.answered(this.client().unsafe("SELECT pg_advisory_xact_lock(hashtext($1))", [key]));
  }

  async tx<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTransaction()) return fn();
    const pool = this.pool;
    const context = { sql: pool, open: true, written: new Set<string | null>() };
    // The statements in `fn` have their deadlines; BEGIN (with the wait for a connection) and COMMIT or
    // ROLLBACK are Bun.SQL's own, so they get one here: armed before `fn` starts and after it ends.
    const watch = this.watchdog();
    try {
      watch.arm();
      const begun = pool.begin((tx) => {
        watch.disarm();
        context.sql = tx as unknown as SQL;
        return this.scope.run(context, fn).finally(() => watch.arm());
      });
      const result = await Promise.race([begun, watch.late]);
      if (context.written.size > 0) this.listener?.();
      return result as T;
    } finally {
      watch.disarm();
      context.open = false;
      this.stamps.ended(context.written);
    }
  }

  /** A deadline to arm and disarm: `late` rejects (and the pool is replaced) when it passes while armed. */
  private watchdog(): Watchdog {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reject!: (error: Error) => void;
    const late = new Promise<never>((_, r) => (reject = r));
    const disarm = () => {
      clearTimeout(timer);
      timer = undefined;
    };
    const arm = () => {
      disarm();
      if (this.deadlineMs === 0 || this.unboundedDepth > 0) return;
      timer = setTimeout(() => {
        this.replacePool();
        reject(new DatabaseTimeoutError(this.deadlineMs));
      }, this.deadlineMs);
    };
    const watch: Watchdog = { arm, disarm, late };
    return watch;
  }

  isUniqueViolation(error: unknown): boolean {
    return (error as { errno?: unknown } | null)?.errno === "23505";
  }

  isUnavailable(error: unknown): boolean {
    const e = error as { code?: unknown; errno?: unknown } | null;
    return e?.code === DATABASE_TIMEOUT_CODE || (typeof e?.code === "string" && PG_UNAVAILABLE.test(e.code)) || (typeof e?.errno === "string" && PG_TRANSIENT_STATES.has(e.errno));
  }

  async close(): Promise<void> {
    await this.pool.close({ timeout: 5 });
  }
}
