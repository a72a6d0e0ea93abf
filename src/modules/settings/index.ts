import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { findWatcher } from "../stream/watchers.ts";

/** The public settings read by the landing and livestream pages. */
export function publicSettingsRoutes(ctx: AppContext) {
  // The embed link goes to those who may watch, and only while it is the stream source: a signed or
  // relayed source is given out per viewer by GET /api/stream/playback instead.
  const showsEmbed = async (request: Request): Promise<boolean> => ctx.stream.provider().kind === "embed" && typeof (await findWatcher(ctx, request)) === "object";
  return new Elysia({ name: "public-settings-routes", prefix: "/api" }).get("/livestream-settings", async ({ request, set }) => {
    const view = await ctx.settings.publicViewJson(await showsEmbed(request));
    set.headers["content-type"] = "application/json;charset=utf-8";
    // The answer differs per viewer (the stream link), so no shared cache may keep it.
    set.headers["cache-control"] = "private, no-store";
    return view;
  });
}
