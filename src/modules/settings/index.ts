import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { findWatcher } from "../stream/watchers.ts";

/** The public settings read by the landing and livestream pages. */
export function publicSettingsRoutes(ctx: AppContext) {
  // The embed link goes to those who may watch, and only while it is the stream source: a signed or
  // relayed source is given out per viewer by GET /api/stream/playback instead.
  const showsEmbed = (request: Request): boolean => ctx.stream.provider().kind === "embed" && typeof findWatcher(ctx, request) === "object";
  return new Elysia({ name: "public-settings-routes", prefix: "/api" }).get("/livestream-settings", ({ request, set }) => {
    const view = ctx.settings.publicViewJson(showsEmbed(request));
    set.headers["content-type"] = "application/json;charset=utf-8";
    // The answer differs per viewer (the stream link), so no shared cache may keep it.
    set.headers["cache-control"] = "private, no-store";
    // Not `return f(…)`: the framework reads that shape as possibly asynchronous and compiles an await.
    return view;
  });
}
