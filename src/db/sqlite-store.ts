import { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { checkText, type Param, type RunResult, type Store } from "./store.ts";
import { isWrite, WriteStamps } from "./write-stamps.ts";

/** SQLite's "not now": another writer past busy_timeout, the disk full, an I/O error. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR)/;

/**
 * Embedded SQLite through bun:sqlite: one connection, each query run at once (the store's promises are
 * already settled). While a transaction is open, queries from outside it wait for it to end, so nothing
 * that is not part of it is committed or rolled back with it.
 */
export class SqliteStore implements Store {
  readonly engine = "sqlite" as const;
  private open: symbol | null = null;
  private ended: Promise<void> = Promise.resolve();
  private readonly scope = new AsyncLocalStorage<symbol>();

  private readonly stamps = new WriteStamps();
  /** What the open transaction wrote, counted again when it ends. */
  private written = new Set<string | null>();

  constructor(readonly db: Database) {}

  get writes(): number {
    return this.stamps.total;
  }

  writesTo(tables: readonly string[]): number {
    return this.stamps.of(tables);
  }

  /** One SQLite file has one server, so this is only ever a test's doing. */
  changedElsewhere(): void {
    this.stamps.changedAnywhere();
  }

  /** Counts a statement that was run (every write goes through all, get, run or exec). */
  private wrote(sql: string): void {
    if (isWrite(sql)) this.stamps.note(sql, this.inTransaction() ? this.written : undefined);
  }

  watchWrites(): void {}

  private blocked(): boolean {
    return this.open !== null && this.scope.getStore() !== this.open;
  }

  private async afterTransaction(): Promise<void> {
    while (this.blocked()) await this.ended;
  }

  all<T>(sql: string, ...params: Param[]): Promise<T[]> {
    if (this.blocked()) return this.afterTransaction().then(() => this.all<T>(sql, ...params));
    try {
      checkText(params);
      const rows = this.db.query(sql).all(...(params as never[])) as T[];
      this.wrote(sql);
      return Promise.resolve(rows);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get<T>(sql: string, ...params: Param[]): Promise<T | null> {
    if (this.blocked()) return this.afterTransaction().then(() => this.get<T>(sql, ...params));
    try {
      checkText(params);
      const row = (this.db.query(sql).get(...(params as never[])) as T | undefined) ?? null;
      this.wrote(sql);
      return Promise.resolve(row);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  run(sql: string, ...params: Param[]): Promise<RunResult> {
    if (this.blocked()) return this.afterTransaction().then(() => this.run(sql, ...params));
    try {
      checkText(params);
      const { changes } = this.db.query(sql).run(...(params as never[]));
      this.wrote(sql);
      return Promise.resolve({ changes });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.afterTransaction();
    try {
      this.db.run(sql);
    } finally {
      this.stamps.changedAnywhere();
    }
  }

  inTransaction(): boolean {
    return this.open !== null && this.scope.getStore() === this.open;
  }

  outside<T>(fn: () => T): T {
    return this.scope.exit(fn);
  }

  async lock(_key: string): Promise<void> {}

  async tx<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTransaction()) return fn();
    await this.afterTransaction();
    const token = Symbol("transaction");
    let release!: () => void;
    this.open = token;
    this.ended = new Promise((resolve) => (release = resolve));
    try {
      this.db.run("BEGIN IMMEDIATE");
    } catch (error) {
      this.open = null;
      release();
      throw error;
    }
    try {
      const result = await this.scope.run(token, fn);
      this.db.run("COMMIT");
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.run("ROLLBACK");
      throw error;
    } finally {
      this.open = null;
      this.stamps.ended(this.written);
      this.written = new Set();
      release();
    }
  }

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
  }

  /**
   * Held by another writer past busy_timeout, or the disk full or failing (SQLITE_FULL, SQLITE_IOERR_…):
   * SQLite rolled the write back whole, and it can work again once there is room.
   */
  isUnavailable(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === "string" && SQLITE_UNAVAILABLE.test(code);
  }

  async close(): Promise<void> {
    await this.afterTransaction();
    try {
      this.db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch (error) {
      // The disk full: the WAL stays beside the file, and is applied when it is next opened.
      if (!this.isUnavailable(error)) throw error;
    } finally {
      this.db.close();
    }
  }
}
