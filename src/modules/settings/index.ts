import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { VIEWER_COOKIE } from "../access/sessions.ts";
import { ADMIN_COOKIE } from "../admin/auth.ts";

/** The public settings read by the landing and livestream pages. */
export function publicSettingsRoutes(ctx: AppContext) {
  return new Elysia({ name: "public-settings-routes", prefix: "/api" }).get("/livestream-settings", ({ cookie, set }) => {
    const viewer = ctx.viewerSessions.findSession(cookie[VIEWER_COOKIE]?.value as string | undefined);
    const canWatch =
      (viewer !== null && !ctx.viewerSessions.isBanned(viewer.username, viewer.accessCodeId)) ||
      ctx.admins.findSession(cookie[ADMIN_COOKIE]?.value as string | undefined) !== null;
    // The answer differs per viewer (the stream link), so no shared cache may keep it.
    set.headers["cache-control"] = "private, no-store";
    return ctx.settings.publicView(canWatch);
  });
}
