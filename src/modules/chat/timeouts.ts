import type { Store } from "../../db/store.ts";
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
 * Timeouts in the database (so a restart keeps them) and in memory (so each chat line checks three maps, not
 * the database). A timeout holds by user, by name and by code: reconnecting, a new socket or a new chat
 * name on the same code does not end it.
 */
export class TimeoutList {
  private readonly byUser = new Map<number, number>();
  private readonly byName = new Map<string, number>();
  private readonly byCode = new Map<number, number>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts (or replaces) a timeout; returns when it ends, epoch ms. `byAdmin`: only an admin may lift it. */
  async add(target: TimeoutTarget, seconds: number, by: string, byAdmin = false): Promise<number> {
    const now = this.now();
    const until = now + seconds * 1000;
    await this.store.tx(async () => {
      await this.deleteFor(target);
      await this.store.run(
        "INSERT INTO chat_timeouts (user_id, username, access_code_id, until, timed_out_by, by_admin, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        target.userId,
        target.username,
        target.accessCodeId,
        until,
        by,
        byAdmin ? 1 : 0,
        now,
      );
    });
    await this.reload();
    return until;
  }

  /** Ends a timeout early; false when there was none running. */
  async lift(target: TimeoutTarget): Promise<boolean> {
    const running = this.secondsLeft(target) > 0;
    await this.deleteFor(target);
    await this.reload();
    return running;
  }

  /** Whether a timeout an admin set holds this person (by name, user or code): a moderator may not lift it. */
  async setByAdmin(target: TimeoutTarget): Promise<boolean> {
    const row = await this.store.get(
      "SELECT 1 AS one FROM chat_timeouts WHERE by_admin = 1 AND until > ? AND (username = ? OR user_id = ? OR access_code_id = ?)",
      this.now(),
      target.username,
      target.userId ?? -1,
      target.accessCodeId ?? -1,
    );
    return row !== null;
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
  async list(): Promise<ActiveTimeout[]> {
    return (await this.activeRows()).map((r) => ({ username: r.username, until: new Date(r.until).toISOString(), timedOutBy: r.timed_out_by }));
  }

  private async deleteFor(target: TimeoutTarget): Promise<void> {
    await this.store.run("DELETE FROM chat_timeouts WHERE username = ? OR user_id = ? OR access_code_id = ?", target.username, target.userId ?? -1, target.accessCodeId ?? -1);
  }

  private async activeRows(): Promise<TimeoutRow[]> {
    return await this.store.all<TimeoutRow>("SELECT user_id, username, access_code_id, until, timed_out_by FROM chat_timeouts WHERE until > ? ORDER BY until", this.now());
  }

  /** Reads the running timeouts into memory (after a change, here or on another instance). */
  async reload(): Promise<void> {
    await this.store.run("DELETE FROM chat_timeouts WHERE until <= ?", this.now());
    const rows = await this.activeRows();
    this.byUser.clear();
    this.byName.clear();
    this.byCode.clear();
    for (const row of rows) {
      this.byName.set(row.username.toLowerCase(), row.until);
      if (row.user_id !== null) this.byUser.set(row.user_id, row.until);
      if (row.access_code_id !== null) this.byCode.set(row.access_code_id, row.until);
    }
  }
}
