import { Elysia } from "elysia";
import { streamSourceBody, type StreamPlayback } from "../../contracts/stream.ts";
import type { AppContext } from "../../context.ts";
import { blobResponse } from "../../http/byte-range.ts";
import { readCookie } from "../../http/cookies.ts";
import type { ErrorAnswerer } from "../../http/error-answer.ts";
import { apiHeaders, requestOrigin } from "../../http/security.ts";
import { fieldError, tooManyRequests } from "../../lib/errors.ts";
import { RateLimiter } from "../../lib/rate-limit.ts";
import { VIEWER_COOKIE } from "../access/sessions.ts";
import { ADMIN_COOKIE, adminAuth } from "../admin/auth.ts";
import { announceSettings } from "../admin-panel/index.ts";
import { PLAYBACK_TTL_MS, RELAY_PREFIX } from "./providers.ts";
import { HlsRelay, type RelayAnswer } from "./relay.ts";
import { requireWatcher, WatcherCheck, type Watcher } from "./watchers.ts";

const KIND_MESSAGE = "Choose a stream source: embed, mux, cloudflare, bunny or hls";

/**
 * Relay requests one session may make per window: a low-latency player asks about ten a second (a playlist
 * and a part every 200 ms), a classic one a few every segment, so this is ten LL-HLS players or dozens of
 * classic ones behind one session (tabs, screens at a watch party).
 */
const RELAY_REQUESTS_PER_SESSION = 1200;
const RELAY_WINDOW_MS = 10_000;

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

/** Answers one request of the relay. */
export type RelayRoute = (request: Request) => Response | Promise<Response>;

/**
 * GET {RELAY_PREFIX}<path>: the relayed HLS stream, for a viewer (or admin) allowed to watch, checked on
 * every request. It answers with whole Responses, headers and errors included, because the server serves
 * it from its own route table (app.ts), past the framework's per-request pipeline: every viewer asks for
 * the playlist and each segment, several requests a second per hundred viewers.
 */
export function relayRoute(ctx: AppContext, errorAnswer: ErrorAnswerer): RelayRoute {
  const headers = apiHeaders(ctx.config);
  const relay = new HlsRelay(() => ctx.stream.relayOrigin(), headers, ctx.log, ctx.config.allowPrivateOrigins);
  const watchers = new WatcherCheck(ctx);
  // Counted by this instance alone, as its relay fetches and keeps for itself.
  const perSession = new RateLimiter(RELAY_REQUESTS_PER_SESSION, RELAY_WINDOW_MS);
  ctx.disposers.push(() => relay.clear());
  const refuse = (error: unknown) => {
    const answer = errorAnswer(error);
    return Response.json(answer.body, { status: answer.status, headers: { ...headers, ...answer.headers } });
  };
  const send = ({ body, headers }: RelayAnswer, request: Request) =>
    typeof body === "string" ? new Response(body, { headers }) : blobResponse(body, headers, request.headers.get("range"));
  const serve = (request: Request) => {
    try {
      const wait = perSession.hit(`${readCookie(request, VIEWER_COOKIE) ?? ""} ${readCookie(request, ADMIN_COOKIE) ?? ""}`);
      if (wait > 0) throw tooManyRequests("Too many requests for the stream from this session. Please wait a moment.", wait);
      const answer = relay.serve(request.url);
      return answer instanceof Promise ? answer.then((a) => send(a, request), refuse) : send(answer, request);
    } catch (error) {
      return refuse(error);
    }
  };
  return (request) => {
    try {
      // A verdict kept from an earlier request is at hand; a new one is looked up.
      const watcher = watchers.require(request);
      return watcher instanceof Promise ? watcher.then(() => serve(request), refuse) : serve(request);
    } catch (error) {
      return refuse(error);
    }
  };
}

/**
 * What viewers (and admins) watch: their playback address, and the relay for the requests the server's
 * route table does not match (paths that only lead into the relay once their dot segments are resolved).
 */
export function streamRoutes(ctx: AppContext, relay: RelayRoute) {
  const publicHost = (request: Request) => new URL(ctx.config.publicUrl ?? requestOrigin(request)).hostname;

  return new Elysia({ name: "stream-routes" })
    .get("/api/stream/playback", async ({ request, set }) => {
      const watcher = await requireWatcher(ctx, request);
      const provider = ctx.stream.provider();
      // While the admin has the livestream switched off there is nothing to play.
      const live = (await ctx.settings.get()).isActive;
      const { url, expiresAt } = live ? await provider.playback(Date.now(), publicHost(request)) : { url: "", expiresAt: Date.now() + PLAYBACK_TTL_MS };
      set.headers["cache-control"] = "private, no-store";
      const playback: StreamPlayback = {
        kind: provider.kind,
        url,
        expiresAt: new Date(expiresAt).toISOString(),
        watermark: (await ctx.stream.watermark()) ? watermarkText(watcher) : null,
      };
      return playback;
    })
    .get(`${RELAY_PREFIX}*`, ({ request }) => relay(request));
}
