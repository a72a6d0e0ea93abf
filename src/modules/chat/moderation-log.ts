import type { Store } from "../../db/store.ts";
import type { ModerationAction, ModerationLogEntry } from "../../contracts/moderation.ts";

export interface NewLogEntry {
  action: ModerationAction;
  moderator: string | null;
  target?: string | null;
  messageText?: string | null;
  detail?: string | null;
}

interface LogRow {
  id: number;
  action: ModerationAction;
  moderator: string | null;
  target: string | null;
  message_text: string | null;
  detail: string | null;
  created_at: number;
}

const DEFAULT_LIMIT = 1000;

/** Who did what to whom, and when: every moderator action and every message the filter refused. */
export class ModerationLog {
  constructor(private readonly store: Store) {}

  async record(entry: NewLogEntry): Promise<void> {
    await this.store.run(
      "INSERT INTO moderation_log (action, moderator, target, message_text, detail, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      entry.action,
      entry.moderator,
      entry.target ?? null,
      entry.messageText ?? null,
      entry.detail ?? null,
      Date.now(),
    );
  }

  /** Newest first; optionally one action and a case-insensitive search on names, text and detail. */
  async list(filter: { action?: ModerationAction; q?: string; limit?: number } = {}): Promise<ModerationLogEntry[]> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (filter.action) {
      where.push("action = ?");
      args.push(filter.action);
    }
    const q = filter.q?.trim();
    if (q) {
      where.push("lower(coalesce(moderator, '') || ' ' || coalesce(target, '') || ' ' || coalesce(message_text, '') || ' ' || coalesce(detail, '')) LIKE ? ESCAPE '!'");
      args.push(`%${q.toLowerCase().replace(/[!%_]/g, "!$&")}%`);
    }
    args.push(filter.limit ?? DEFAULT_LIMIT);
    return (
      await this.store.all<LogRow>(
        `SELECT id, action, moderator, target, message_text, detail, created_at FROM moderation_log
         ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`,
        ...args,
      )
    ).map((r) => ({
      id: r.id,
      action: r.action,
      moderator: r.moderator,
      target: r.target,
      messageText: r.message_text,
      detail: r.detail,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }
}
