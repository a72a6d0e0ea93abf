import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";
import { forbidden, HttpError, unauthorized } from "../../lib/errors.ts";
import { VIEWER_COOKIE } from "../access/sessions.ts";
import { ADMIN_COOKIE } from "../admin/auth.ts";
import { BANNED_MESSAGE, KICKED_MESSAGE } from "../chat/hub.ts";

/** Who may watch: a viewer let in with a code (name and code for the watermark), or an admin. */
export type Watcher = { role: "viewer"; username: string; code: string } | { role: "admin"; username: string };

export const NOT_LET_IN = "Enter your access code to watch the stream.";

/**
 * The caller's right to watch, checked afresh on every call: a viewer session that is live (not revoked
 * or ended), not banned and not just kicked out — or an admin session. Otherwise the 401 or 403 to answer.
 */
export function findWatcher(ctx: AppContext, request: Request): Watcher | HttpError {
  const viewer = ctx.viewerSessions.findSession(readCookie(request, VIEWER_COOKIE));
  if (viewer) {
    if (ctx.viewerSessions.isBanned(viewer.username, viewer.accessCodeId)) return forbidden(BANNED_MESSAGE);
    if (ctx.chat.isKickedOut(viewer.username)) return forbidden(KICKED_MESSAGE);
    return { role: "viewer", username: viewer.username, code: viewer.code };
  }
  const admin = ctx.admins.findSession(readCookie(request, ADMIN_COOKIE));
  return admin ? { role: "admin", username: admin.username } : unauthorized(NOT_LET_IN);
}

export function requireWatcher(ctx: AppContext, request: Request): Watcher {
  const watcher = findWatcher(ctx, request);
  if (watcher instanceof HttpError) throw watcher;
  return watcher;
}
