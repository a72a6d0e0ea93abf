import { Elysia } from "elysia";
import { streamSourceBody, type StreamPlayback } from "../../contracts/stream.ts";
import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";
import { fieldError } from "../../lib/errors.ts";
import { ADMIN_COOKIE, adminAuth } from "../admin/auth.ts";
import { announceSettings } from "../admin-panel/index.ts";
import { RELAY_PREFIX } from "./providers.ts";
import { HlsRelay } from "./relay.ts";
import { requireWatcher, WatcherCheck, type Watcher } from "./watchers.ts";

const KIND_MESSAGE = "Choose a stream source: embed, mux, cloudflare, bunny or hls";

/** The chat name and the end of the code, so a recording of the player names whose pass it came from. */
function watermarkText(watcher: Watcher): string {
  return watcher.role === "viewer" ? `${watcher.username} · ${watcher.code.slice(-4)}` : `${watcher.username} · admin`;
}

/** GET/PUT /api/admin/stream-source: the source, its secrets write-only. */
export function streamAdminRoutes(ctx: AppContext) {
  return new Elysia({ name: "stream-admin-routes", prefix: "/api/admin" })
    .use(adminAuth(ctx))
    // 401 before the input is looked at, as for every admin call.
    .onTransform(async ({ request }) => {
      await ctx.admins.requireSession(readCookie(request, ADMIN_COOKIE));
    })
    .guard({ isAdmin: true }, (app) =>
      app.get("/stream-source", () => ctx.stream.view()).put("/stream-source", async ({ body }) => {
        const parsed = streamSourceBody.safeParse(body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const field = String(issue.path[0] ?? "kind");
          throw fieldError(field, field === "kind" ? KIND_MESSAGE : issue.message);
        }
        const saved = await ctx.stream.save(parsed.data);
        // Open pages fetch their playback again when the settings change.
        await announceSettings(ctx);
        return saved;
      }),
    );
}

/** What viewers (and admins) watch: their playback address, and the relayed HLS stream. */
export function streamRoutes(ctx: AppContext) {
  const relay = new HlsRelay(() => ctx.stream.relayOrigin(), ctx.log);
  const relayWatchers = new WatcherCheck(ctx);
  ctx.disposers.push(() => relay.clear());
  const publicHost = (request: Request) => new URL(ctx.config.publicUrl ?? request.url).hostname;

  return new Elysia({ name: "stream-routes" })
    .get("/api/stream/playback", async ({ request, set }) => {
      const watcher = await requireWatcher(ctx, request);
      const provider = ctx.stream.provider();
      const { url, expiresAt } = await provider.playback(Date.now(), publicHost(request));
      set.headers["cache-control"] = "private, no-store";
      const playback: StreamPlayback = {
        kind: provider.kind,
        url,
        expiresAt: new Date(expiresAt).toISOString(),
        watermark: (await ctx.stream.watermark()) ? watermarkText(watcher) : null,
      };
      return playback;
    })
    .get(`${RELAY_PREFIX}*`, async ({ request, set }) => {
      await relayWatchers.require(request);
      const { body, headers } = await relay.serve(request.url);
      Object.assign(set.headers, headers);
      return body;
    });
}
