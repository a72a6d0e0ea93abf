import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";
import { VIEWER_COOKIE } from "../access/sessions.ts";
import { ADMIN_COOKIE } from "../admin/auth.ts";

/** The public settings read by the landing and livestream pages. */
export function publicSettingsRoutes(ctx: AppContext) {
  const canWatch = (request: Request): boolean => {
    const viewer = ctx.viewerSessions.findSession(readCookie(request, VIEWER_COOKIE));
    if (viewer !== null && !ctx.viewerSessions.isBanned(viewer.username, viewer.accessCodeId)) return true;
    return ctx.admins.findSession(readCookie(request, ADMIN_COOKIE)) !== null;
  };
  return new Elysia({ name: "public-settings-routes", prefix: "/api" }).get("/livestream-settings", ({ request, set }) => {
    const view = ctx.settings.publicViewJson(canWatch(request));
    set.headers["content-type"] = "application/json;charset=utf-8";
    // The answer differs per viewer (the stream link), so no shared cache may keep it.
    set.headers["cache-control"] = "private, no-store";
    // Not `return f(…)`: the framework reads that shape as possibly asynchronous and compiles an await.
    return view;
  });
}
