import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";
import { forbidden, unauthorized } from "../../lib/errors.ts";
import { VIEWER_COOKIE } from "../access/sessions.ts";
import { ADMIN_COOKIE } from "../admin/auth.ts";
import { BANNED_MESSAGE, KICKED_MESSAGE } from "../chat/hub.ts";

/** Who may watch: a viewer let in with a code (name and code for the watermark), or an admin. */
export type Watcher = { role: "viewer"; username: string; code: string } | { role: "admin"; username: string };

/** Why someone may not watch. */
export type Refusal = "not let in" | "banned" | "kicked out";

/**
 * The caller's right to watch, checked afresh on every call: a viewer session that is live (not revoked
 * or ended), not banned and not just kicked out — or an admin session. Otherwise why not (no error is
 * built here: the public settings ask this on every page view).
 */
export function findWatcher(ctx: AppContext, request: Request): Watcher | Refusal {
  const viewer = ctx.viewerSessions.findSession(readCookie(request, VIEWER_COOKIE));
  if (viewer) {
    if (ctx.viewerSessions.isBanned(viewer.username, viewer.accessCodeId)) return "banned";
    if (ctx.chat.isKickedOut(viewer.username)) return "kicked out";
    return { role: "viewer", username: viewer.username, code: viewer.code };
  }
  const admin = ctx.admins.findSession(readCookie(request, ADMIN_COOKIE));
  return admin ? { role: "admin", username: admin.username } : "not let in";
}

/** The caller's right to watch, or 401 (no session) or 403 (banned, kicked out). */
export function requireWatcher(ctx: AppContext, request: Request): Watcher {
  const watcher = findWatcher(ctx, request);
  if (watcher === "not let in") throw unauthorized("Enter your access code to watch the stream.");
  if (watcher === "banned") throw forbidden(BANNED_MESSAGE);
  if (watcher === "kicked out") throw forbidden(KICKED_MESSAGE);
  return watcher;
}
