import { Elysia } from "elysia";
import { streamSourceBody, type StreamPlayback } from "../../contracts/stream.ts";
import type { AppContext } from "../../context.ts";
import { blobResponse } from "../../http/byte-range.ts";
import type { ErrorAnswerer } from "../../http/error-answer.ts";
import { requestOrigin } from "../../http/security.ts";
import { fieldError } from "../../lib/errors.ts";
import { adminRoutes, requireRecentProof } from "../admin/auth.ts";
import { announceSettings } from "../settings/announce.ts";
import { REPLAY_PREFIX } from "../replay/service.ts";
import { INGEST_PREFIX, PLAYBACK_TTL_MS, RELAY_PREFIX } from "./providers.ts";
import type { RelayAnswer } from "./relay.ts";
import { watcherGate, type StreamRoute } from "./gate.ts";
import { requireWatcher, type Watcher } from "./watchers.ts";

const KIND_MESSAGE = "Choose a stream source: embed, mux, cloudflare, bunny, hls or ingest";

/** The chat name and the end of the code, so a recording of the player names whose pass it came from. */
function watermarkText(watcher: Watcher): string {
  return watcher.role === "viewer" ? `${watcher.username} · ${watcher.code.slice(-4)}` : `${watcher.username} · admin`;
}

/** GET/PUT /api/admin/stream-source: the source, its secrets write-only. */
export function streamAdminRoutes(ctx: AppContext) {
  return adminRoutes(ctx, "stream")
    .get("/stream-source", () => ctx.stream.view())
    .put("/stream-source", async ({ body, admin, session, clientIp }) => {
      requireRecentProof(session);
      const parsed = streamSourceBody.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? "kind");
        throw fieldError(field, field === "kind" ? KIND_MESSAGE : issue.message);
      }
      const before = await ctx.stream.view();
      const saved = await ctx.stream.save(parsed.data);
      // The view never holds a secret (they are write-only), so it can go into the audit log as it is.
      await ctx.audit.record(admin, "stream-source.update", saved.kind, before, saved, clientIp);
      // Open pages fetch their playback again when the settings change.
      await announceSettings(ctx);
      return saved;
    });
}

/**
 * GET {RELAY_PREFIX}<path>: the relayed HLS stream, for a viewer (or admin) allowed to watch, checked on
 * every request (watcherGate). It answers with whole Responses, headers and errors included.
 */
export function relayRoute(ctx: AppContext, errorAnswer: ErrorAnswerer): StreamRoute {
  const { relay } = ctx;
  const send = ({ body, headers }: RelayAnswer, request: Request) =>
    typeof body === "string" ? new Response(body, { headers }) : blobResponse(body, headers, request.headers.get("range"));
  return watcherGate(ctx, errorAnswer, (request) => {
    const answer = relay.serve(request.url);
    return answer instanceof Promise ? answer.then((a) => send(a, request)) : send(answer, request);
  });
}

/**
 * What viewers (and admins) watch: their playback address, and the relay and the built-in ingest's LL-HLS
 * for the requests the server's route table does not match (paths that only lead there once their dot
 * segments are resolved).
 */
export function streamRoutes(ctx: AppContext, relay: StreamRoute, ingest: StreamRoute) {
  const publicHost = (request: Request) => new URL(ctx.config.publicUrl ?? requestOrigin(request)).hostname;

  return new Elysia({ name: "stream-routes" })
    .get("/api/stream/playback", async ({ request, set, query }) => {
      const watcher = await requireWatcher(ctx, request);
      set.headers["cache-control"] = "private, no-store";
      const watermark = (await ctx.stream.watermark()) ? watermarkText(watcher) : null;
      // The panel's preview (?preview=1, admins only): what is published now, whatever the phase, a rehearsal included.
      if (query.preview === "1" && watcher.role === "admin") {
        const provider = ctx.stream.provider();
        const { url, expiresAt } = await provider.playback(Date.now(), publicHost(request));
        const preview: StreamPlayback = { kind: provider.kind, url, expiresAt: new Date(expiresAt).toISOString(), watermark };
        return preview;
      }
      // After the night: the replay, word that it is being prepared (or that there is none), or that its window has closed.
      const replay = await ctx.replay.state();
      if (replay.state === "replay") {
        const answer: StreamPlayback = {
          kind: "replay",
          url: `${REPLAY_PREFIX}index.m3u8`,
          expiresAt: new Date(Date.now() + PLAYBACK_TTL_MS).toISOString(),
          watermark,
          startedAt: new Date(replay.startedAt).toISOString(),
          duration: replay.durationS,
        };
        return answer;
      }
      if (replay.state === "ended") {
        const answer: StreamPlayback = { kind: "replay", url: "", expiresAt: new Date().toISOString(), watermark, replayEndedAt: new Date(replay.endedAt).toISOString() };
        return answer;
      }
      if (replay.state === "over") {
        const answer: StreamPlayback = {
          kind: "replay",
          url: "",
          expiresAt: new Date(Date.now() + PLAYBACK_TTL_MS).toISOString(),
          watermark,
          nightEndedAt: new Date(replay.endedAt).toISOString(),
          replayComing: replay.replay === "coming",
          ...(replay.cancelled ? { cancelled: true } : {}),
        };
        return answer;
      }
      const provider = ctx.stream.provider();
      // While the admin has the livestream switched off there is nothing to play.
      const live = (await ctx.settings.get()).isActive;
      const { url, expiresAt } = live ? await provider.playback(Date.now(), publicHost(request)) : { url: "", expiresAt: Date.now() + PLAYBACK_TTL_MS };
      const playback: StreamPlayback = { kind: provider.kind, url, expiresAt: new Date(expiresAt).toISOString(), watermark };
      return playback;
    })
    .get(`${RELAY_PREFIX}*`, ({ request }) => relay(request))
    .get(`${INGEST_PREFIX}*`, ({ request }) => ingest(request));
}
