import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";
import { forbidden, unauthorized } from "../../lib/errors.ts";
import { VIEWER_COOKIE } from "../access/sessions.ts";
import { findPerson } from "../access/person.ts";
import { BANNED_MESSAGE, KICKED_MESSAGE } from "../../contracts/notices.ts";

/** Who may watch: a viewer let in with a code (name and code for the watermark, until when), or an admin. */
export type Watcher = { role: "viewer"; username: string; userId: number; accessCodeId: number; code: string; sessionExpiresAt: number } | { role: "admin"; username: string };

/** Why someone may not watch. */
export type Refusal = "not let in" | "banned" | "kicked out";

/**
 * The caller's right to watch, checked afresh on every call: an admin session, or a viewer session that
 * is live (not revoked or ended), not banned and not just kicked out. Otherwise why not (no error is
 * built here: the public settings ask this on every page view).
 */
export async function findWatcher(ctx: AppContext, request: Request): Promise<Watcher | Refusal> {
  // The same rule as the chat's: an admin's session first.
  const person = await findPerson(ctx, request);
  if (!person) return "not let in";
  if (person.role === "admin") return { role: "admin", username: person.admin.username };
  const { viewer } = person;
  if (await ctx.viewerSessions.isBanned(viewer.username, viewer.accessCodeId)) return "banned";
  if (ctx.chat.isKickedOut(viewer)) return "kicked out";
  return { role: "viewer", username: viewer.username, userId: viewer.userId, accessCodeId: viewer.accessCodeId, code: viewer.code, sessionExpiresAt: viewer.expiresAt };
}

/** The caller's right to watch, or 401 (no session) or 403 (banned, kicked out). */
export async function requireWatcher(ctx: AppContext, request: Request): Promise<Watcher> {
  const watcher = await findWatcher(ctx, request);
  if (watcher === "not let in") throw unauthorized("Enter your access code to watch the stream.");
  if (watcher === "banned") throw forbidden(BANNED_MESSAGE);
  if (watcher === "kicked out") throw forbidden(KICKED_MESSAGE);
  return watcher;
}

/** The tables a verdict is read from: sessions, the people and codes they belong to, bans, admins. */
const VERDICT_TABLES = ["viewer_sessions", "users", "access_codes", "banned_users", "admin_sessions", "admins"] as const;

/**
 * How long a verdict may be reused while nothing is written (never past the session's own expiry): bounds
 * how late a change made outside this server, such as an edit of the database by hand, is noticed.
 */
const VERDICT_TTL_MS = 60_000;

/**
 * `requireWatcher` for the relay, where every viewer asks several times a segment: a viewer's verdict is
 * reused while none of the tables it was read from has been written (the store's write stamp of those
 * tables, which in a cluster also moves when another instance writes; a stored chat line or a recorded
 * segment does not move it), so a ban, revocation, refund or ended session still counts
 * from the very next request, and an expired session from the moment it expires. Kicks live in memory
 * and are checked every time.
 */
export class WatcherCheck {
  private stamp = -1;
  private readonly verdicts = new Map<string, { watcher: Watcher; until: number }>();

  constructor(private readonly ctx: AppContext) {}

  /** The kept verdict at once when there is one (throwing for a kicked viewer); otherwise a lookup. */
  require(request: Request): Watcher | Promise<Watcher> {
    const session = readCookie(request, VIEWER_COOKIE) ?? "";
    const stamp = this.ctx.store.writesTo(VERDICT_TABLES);
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.verdicts.clear();
    }
    const now = Date.now();
    const cached = session ? this.verdicts.get(session) : undefined;
    if (cached && now < cached.until) {
      if (cached.watcher.role === "viewer" && this.ctx.chat.isKickedOut(cached.watcher)) throw forbidden(KICKED_MESSAGE);
      return cached.watcher;
    }
    return requireWatcher(this.ctx, request).then((watcher) => {
      // Kept only if nothing was written while it was looked up (it may predate that write).
      if (session && watcher.role === "viewer" && this.ctx.store.writesTo(VERDICT_TABLES) === stamp) {
        this.verdicts.set(session, { watcher, until: Math.min(now + VERDICT_TTL_MS, watcher.sessionExpiresAt) });
      }
      return watcher;
    });
  }
}
