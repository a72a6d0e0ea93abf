import { AUDIT_PAGE_SIZE, type AuditEntry, type AuditQuery } from "../../contracts/team.ts";
import type { Param, Store } from "../../db/store.ts";
import { toCsv } from "../../http/csv.ts";
import type { Logger } from "../../lib/logger.ts";

/** Who did it: a member (by id and name), or a name alone (a sign-in attempt for a name that may not exist). */
export type AuditActor = { id: number; username: string } | { id: null; username: string };

/** Keys whose values never go into the log, wherever they appear in a before or after. */
const SECRET_KEYS =
  /^(password|current|next|code|codes|recoverycode|recoverycodes|secret|totpsecret|token|streamkey|key|apikey|signingkey|webhooksecret|.*secret.*|.*token.*|.*password.*)$/i;

/** A value with every secret-looking field replaced by "[hidden]", so a careless caller cannot log one. */
export function scrub(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (depth > 6) return "[…]";
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => scrub(v, depth + 1));
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_KEYS.test(k) ? "[hidden]" : scrub(v, depth + 1);
    return out;
  }
  if (typeof value === "string") return value.length > 2000 ? `${value.slice(0, 2000)}…` : value;
  return value;
}

interface AuditRow {
  id: number;
  at: number;
  actor: string;
  action: string;
  target: string | null;
  before_value: string | null;
  after_value: string | null;
  address: string | null;
}

/**
 * The record of every admin change and every sign-in: who, what, on what, before and after, from where,
 * when. Append-only (the database refuses updates and deletes of its rows). Secrets never go in: values are
 * scrubbed of secret-looking fields, and callers pass codes by their last characters only.
 */
export class AuditLog {
  constructor(
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  async record(actor: AuditActor, action: string, target: string | null, before: unknown, after: unknown, address: string | null): Promise<void> {
    try {
      await this.store.run(
        "INSERT INTO audit_log (at, actor_id, actor, action, target, before_value, after_value, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        Date.now(),
        actor.id,
        actor.username,
        action,
        target,
        before === null || before === undefined ? null : JSON.stringify(scrub(before)),
        after === null || after === undefined ? null : JSON.stringify(scrub(after)),
        address,
      );
    } catch (error) {
      // The change itself is done; the log says what could not be recorded rather than failing the request.
      this.log.error(`audit log: could not record ${action} by ${actor.username}`, error);
    }
  }

  private where(query: AuditQuery): { sql: string; args: Param[] } {
    const clauses: string[] = [];
    const args: Param[] = [];
    if (query.actor) {
      clauses.push("actor = ?");
      args.push(query.actor);
    }
    if (query.action) {
      clauses.push("(action = ? OR action LIKE ?)");
      args.push(query.action, `${query.action.replace(/[%_\\]/g, "")}.%`);
    }
    if (query.from) {
      clauses.push("at >= ?");
      args.push(Date.parse(query.from));
    }
    if (query.to) {
      clauses.push("at <= ?");
      args.push(Date.parse(query.to));
    }
    return { sql: clauses.length ? `WHERE ${clauses.join(" AND ")}` : "", args };
  }

  /** One page (50 entries, newest first) of what matches, and how many match in all. */
  async list(query: AuditQuery): Promise<{ entries: AuditEntry[]; total: number; page: number; pageSize: number }> {
    const { sql, args } = this.where(query);
    const page = query.page ?? 1;
    const rows = await this.store.all<AuditRow>(
      `SELECT id, at, actor, action, target, before_value, after_value, address FROM audit_log ${sql} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
      ...args,
      AUDIT_PAGE_SIZE,
      (page - 1) * AUDIT_PAGE_SIZE,
    );
    const total = Number((await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_log ${sql}`, ...args))!.n);
    return { entries: rows.map(toEntry), total, page, pageSize: AUDIT_PAGE_SIZE };
  }

  /** Everything that matches, as CSV (oldest first), for a spreadsheet or an archive. */
  async csv(query: AuditQuery): Promise<string> {
    const { sql, args } = this.where(query);
    const rows = await this.store.all<AuditRow>(`SELECT id, at, actor, action, target, before_value, after_value, address FROM audit_log ${sql} ORDER BY at, id`, ...args);
    return toCsv(
      ["time", "member", "action", "target", "before", "after", "address"],
      rows.map((r) => [new Date(Number(r.at)).toISOString(), r.actor, r.action, r.target, r.before_value, r.after_value, r.address]),
    );
  }

  /** The distinct actions recorded so far (for the screen's filter). */
  async actions(): Promise<string[]> {
    return (await this.store.all<{ action: string }>("SELECT DISTINCT action FROM audit_log ORDER BY action")).map((r) => r.action);
  }
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: Number(row.id),
    at: new Date(Number(row.at)).toISOString(),
    actor: row.actor,
    action: row.action,
    target: row.target,
    before: row.before_value === null ? null : JSON.parse(row.before_value),
    after: row.after_value === null ? null : JSON.parse(row.after_value),
    address: row.address,
  };
}
