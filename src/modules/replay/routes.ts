import { Elysia, t } from "elysia";
import { recordingPatchBody } from "../../contracts/replay.ts";
import type { AppContext } from "../../context.ts";
import type { ErrorAnswerer } from "../../http/error-answer.ts";
import { apiHeaders } from "../../http/security.ts";
import { notFound } from "../../lib/errors.ts";
import { adminRoutes } from "../admin/auth.ts";
import { watcherGate, type StreamRoute } from "../stream/gate.ts";
import { requireWatcher } from "../stream/watchers.ts";
import { recordingDownload } from "./download.ts";
import { REPLAY_PREFIX } from "./service.ts";

const idParam = t.Object({ id: t.Numeric({ minimum: 1, maximum: 2 ** 31 - 1 }) });

/**
 * GET {REPLAY_PREFIX}index.m3u8 and r<id>/<file>: the replay, for pass holders, checked on every request
 * like the live stream (refunded, revoked or banned passes refused), within the replay's window.
 */
export function replayStreamRoute(ctx: AppContext, errorAnswer: ErrorAnswerer): StreamRoute {
  const base = apiHeaders(ctx.config);
  return watcherGate(
    ctx,
    errorAnswer,
    async (request) => {
      const url = new URL(request.url);
      const name = url.pathname.slice(REPLAY_PREFIX.length);
      if (name === "index.m3u8") {
        return new Response(await ctx.replay.playlist(), { headers: { ...base, "content-type": "application/vnd.apple.mpegurl", "cache-control": "private, no-store" } });
      }
      const match = /^r(\d{1,10})\/((?:seg-\d{1,9}\.(?:m4s|ts))|(?:init-\d{1,9}\.mp4))$/.exec(name);
      if (!match) throw notFound();
      const key = await ctx.replay.file(Number(match[1]), match[2]!);
      // Kept files never change: a player may keep them for the session (but only privately).
      const served = await ctx.recordings.files.response(key, {
        ...base,
        "content-type": match[2]!.endsWith(".mp4") ? "video/mp4" : match[2]!.endsWith(".ts") ? "video/mp2t" : "video/iso.segment",
        "cache-control": "private, max-age=3600",
      });
      if (!served) throw notFound();
      return served;
    },
    { whileOffAir: true },
  );
}

/** GET /api/stream/replay-chat: the chat of the replayed nights, as it happened, for pass holders. */
export function replayChatRoutes(ctx: AppContext) {
  return new Elysia().get("/api/stream/replay-chat", async ({ request, set }) => {
    await requireWatcher(ctx, request);
    set.headers["cache-control"] = "private, no-store";
    return ctx.replay.chat();
  });
}

/** The Recordings screen: list, rename, trim, hide, delete, download. */
export function recordingAdminRoutes(ctx: AppContext) {
  return adminRoutes(ctx, "stream")
    .get("/recordings", async () => ({ ...(await ctx.recordings.list()), freeBytes: ctx.recordings.freeBytes() }))
    .patch(
      "/recordings/:id",
      async ({ params, body, admin, clientIp }) => {
        const before = await ctx.recordings.view(params.id);
        const after = await ctx.recordings.patch(params.id, body);
        await ctx.audit.record(
          admin,
          "recording.update",
          `#${params.id}`,
          { title: before.title, trimStartS: before.trimStartS, trimEndS: before.trimEndS, hidden: before.hidden },
          body,
          clientIp,
        );
        return after;
      },
      { params: idParam, body: recordingPatchBody },
    )
    .delete(
      "/recordings/:id",
      async ({ params, admin, clientIp }) => {
        const before = await ctx.recordings.view(params.id);
        await ctx.recordings.remove(params.id);
        await ctx.audit.record(admin, "recording.delete", `#${params.id}`, { title: before.title, bytes: before.bytes }, null, clientIp);
        return { ok: true };
      },
      { params: idParam },
    )
    .get(
      "/recordings/:file",
      ({ params, request }) => {
        const match = /^(\d{1,10})\.mp4$/.exec(params.file);
        if (!match) throw notFound();
        return recordingDownload(ctx.recordings, Number(match[1]), request.headers.get("range"), new Headers(apiHeaders(ctx.config)));
      },
      { params: t.Object({ file: t.String({ maxLength: 20 }) }) },
    );
}
