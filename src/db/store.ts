/** The storage layer's interface: what every service may ask of the database, whichever engine holds it (sqlite-store.ts, postgres-store.ts). */

/** The two engines the storage layer speaks: embedded SQLite (the default) and PostgreSQL (a cluster). */
export type Engine = "sqlite" | "postgres";

export type Param = string | number | boolean | null | Uint8Array;

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/**
 * The queries every service makes, the same on both engines: `?` placeholders, integers for booleans and
 * epoch-millisecond times, `RETURNING`, `ON CONFLICT … DO …`. Case-insensitive columns (chat names, admin
 * names) compare without case on both (SQLite `COLLATE NOCASE`, PostgreSQL `citext`), so a query need not say so.
 */
export interface Queries {
  all<T>(sql: string, ...params: Param[]): Promise<T[]>;
  get<T>(sql: string, ...params: Param[]): Promise<T | null>;
  run(sql: string, ...params: Param[]): Promise<RunResult>;
}

export interface Store extends Queries {
  readonly engine: Engine;
  /**
   * Runs `fn` in one transaction: every query made inside it through this store — at any depth, by any
   * service — is part of it; it commits when `fn` resolves and rolls back when it throws. A transaction
   * inside another joins it. On SQLite the write lock is taken at the start (no upgrade deadlocks).
   */
  tx<T>(fn: () => Promise<T>): Promise<T>;
  /** True inside `tx` (what is read there may still roll back, so it is not cached). */
  inTransaction(): boolean;
  /** Runs `fn` outside any transaction: for work that is merely started there (a timer, a worker's nudge). */
  outside<T>(fn: () => T): T;
  /**
   * Inside `tx`: waits until no other transaction holds `key`, and holds it until this one ends (a
   * PostgreSQL advisory lock; on SQLite every write transaction already runs alone).
   */
  lock(key: string): Promise<void>;
  /** Runs statements with no parameters (schema changes); several may be separated by semicolons. */
  exec(sql: string): Promise<void>;
  /**
   * Grows whenever this process writes a table a cache may hold — not the chat log, counters, mail queue or
   * logs — or hears another instance did: a cache stamped with it is stale once it differs.
   */
  readonly writes: number;
  /** Like `writes`, for a cache of `tables` alone: grows when one of them is written (or when what was written cannot be told). */
  writesTo(tables: readonly string[]): number;
  /** Another instance of a cluster wrote something cached: every cache stamped with `writes` is stale. */
  changedElsewhere(): void;
  /**
   * Calls `listener` after each committed write to a table whose rows other instances may have cached
   * (not the chat log, counters, mail queue or logs, which travel as cluster messages or are not cached).
   */
  watchWrites(listener: () => void): void;
  /** True when the error is a broken unique (or primary key) constraint. */
  isUniqueViolation(error: unknown): boolean;
  /** True when the database could not be reached or answered too slowly (a 503, not a 500). */
  isUnavailable(error: unknown): boolean;
  close(): Promise<void>;
}

/** Text PostgreSQL cannot hold (a NUL character): bad input, refused before it is sent. */
export class InvalidTextError extends Error {
  constructor() {
    super("text with a NUL character");
  }
}

/**
 * PostgreSQL's text has no NUL character (SQLite's does): such a value is refused before it is sent, on
 * either engine, so an event behaves the same whichever database it runs on.
 */
export function checkText(params: Param[]): void {
  for (const param of params) if (typeof param === "string" && param.includes("\0")) throw new InvalidTextError();
}
