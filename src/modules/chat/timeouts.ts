import type { Database } from "bun:sqlite";
import type { ActiveTimeout } from "../../contracts/moderation.ts";

/** Who a timeout is for: the name, and when known the user and the access code behind it. */
export interface TimeoutTarget {
  userId: number | null;
  username: string;
  accessCodeId: number | null;
}


interface TimeoutRow {
  user_id: number | null;
  username: string;
  access_code_id: number | null;
  until: number;
  timed_out_by: string;
}

/**
 * Timeouts in SQLite (so a restart keeps them) and in memory (so each chat line checks three maps, not
 * the database). A timeout holds by user, by name and by code: reconnecting, a new socket or a new chat
 * name on the same code does not end it.
 */
export class TimeoutList {
  private readonly byUser = new Map<number, number>();
  private readonly byName = new Map<string, number>();
  private readonly byCode = new Map<number, number>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.reload();
  }

  /** Starts (or replaces) a timeout; returns when it ends, epoch ms. */
  add(target: TimeoutTarget, seconds: number, by: string): number {
    const now = this.now();
    const until = now + seconds * 1000;
    this.db.transaction(() => {
      this.deleteFor(target);
      this.db
        .query("INSERT INTO chat_timeouts (user_id, username, access_code_id, until, timed_out_by, created_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(target.userId, target.username, target.accessCodeId, until, by, now);
    }).immediate();
    this.reload();
    return until;
  }

  /** Ends a timeout early; false when there was none running. */
  lift(target: TimeoutTarget): boolean {
    const running = this.secondsLeft(target) > 0;
    this.deleteFor(target);
    this.reload();
    return running;
  }

  /** Whole seconds until this person may chat again; 0 when not timed out. */
  secondsLeft(who: TimeoutTarget): number {
    if (this.byName.size === 0) return 0;
    const until = Math.max(
      this.byName.get(who.username.toLowerCase()) ?? 0,
      who.userId === null ? 0 : (this.byUser.get(who.userId) ?? 0),
      who.accessCodeId === null ? 0 : (this.byCode.get(who.accessCodeId) ?? 0),
    );
    const left = until - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /** The timeouts still running, the soonest to end first. */
  list(): ActiveTimeout[] {
    return this.activeRows().map((r) => ({ username: r.username, until: new Date(r.until).toISOString(), timedOutBy: r.timed_out_by }));
  }

  private deleteFor(target: TimeoutTarget): void {
    this.db
      .query("DELETE FROM chat_timeouts WHERE username = ? OR user_id = ? OR access_code_id = ?")
      .run(target.username, target.userId ?? -1, target.accessCodeId ?? -1);
  }

  private activeRows(): TimeoutRow[] {
    return this.db
      .query<TimeoutRow, [number]>("SELECT user_id, username, access_code_id, until, timed_out_by FROM chat_timeouts WHERE until > ? ORDER BY until")
      .all(this.now());
  }

  private reload(): void {
    this.db.query("DELETE FROM chat_timeouts WHERE until <= ?").run(this.now());
    this.byUser.clear();
    this.byName.clear();
    this.byCode.clear();
    for (const row of this.activeRows()) {
      this.byName.set(row.username.toLowerCase(), row.until);
      if (row.user_id !== null) this.byUser.set(row.user_id, row.until);
      if (row.access_code_id !== null) this.byCode.set(row.access_code_id, row.until);
    }
  }
}
