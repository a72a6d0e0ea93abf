/**
 * The built-in ingest's routes: the LL-HLS viewers play (GET {INGEST_PREFIX}<name>, behind the same
 * session gate as the relay) and the admin's GET /api/admin/ingest and POST /api/admin/ingest/rotate-key.
 */
import type { AppContext } from "../../context.ts";
import type { RotatedStreamKey } from "../../contracts/stream.ts";
import { errorResponse, type ErrorAnswerer } from "../../http/error-answer.ts";
import { apiHeaders } from "../../http/security.ts";
import { badRequest, forbidden, notFound, serviceUnavailable } from "../../lib/errors.ts";
import { adminRoutes, requireRecentProof } from "../admin/auth.ts";
import { announceSettings } from "../settings/announce.ts";
import { watcherGate, type StreamRoute } from "../stream/gate.ts";
import { INGEST_PREFIX } from "../stream/providers.ts";
import type { Packager, PlaylistResult } from "./hls/packager.ts";
import { INTERNAL_HEADER, INTERNAL_PREFIX, IngestMirror, PUBLISHER_FIGURES } from "./mirror.ts";
import { ingestView, publisherNow } from "./status.ts";

/** The names the packager gives (and the two playlists): anything else is not asked of it. */
const MEDIA_NAME = /^(?:init-\d{1,9}\.mp4|seg-\d{1,15}\.m4s|part-\d{1,15}-\d{1,5}\.m4s)$/;
const MEDIA_PLAYLIST = "stream.m3u8";
const MULTIVARIANT_PLAYLIST = "index.m3u8";
const RETRY_AFTER_S = 1;
const NOT_YET = "The stream has not started yet, or its next part is late. Trying again shortly.";

/** `_HLS_msn` or `_HLS_part` as a whole number; undefined when absent, 400 when malformed. */
function directive(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest(`Invalid ${name}`);
  return Number(raw);
}

/** The name asked for below `prefix`, and the query (at most 1 KiB of it). */
function nameAndQuery(url: string, prefix: string): { name: string; query: string } {
  const start = url.indexOf(prefix, url.indexOf("//") + 2) + prefix.length;
  const queryAt = url.indexOf("?", start);
  return queryAt === -1 ? { name: url.slice(start), query: "" } : { name: url.slice(start, queryAt), query: url.slice(queryAt + 1, queryAt + 1 + 1024) };
}

/**
 * Answers one name from a packager (this instance's publishes) or a mirror (another instance's, in a
 * cluster): the playlists, init segments, segments and parts, from memory.
 */
function ingestAnswerer(ctx: AppContext) {
  const base = apiHeaders(ctx.config);
  // Names start again from 0 when the server restarts: nothing is cached for long.
  const headersFor = (type: string) => new Headers({ ...base, "content-type": type, "cache-control": "no-cache" });
  const playlistHeaders = headersFor("application/vnd.apple.mpegurl");
  const initHeaders = headersFor("video/mp4");
  const mediaHeaders = headersFor("video/iso.segment");
  const media = (bytes: Uint8Array | null, headers: Headers) => {
    if (!bytes) throw notFound("This part of the stream is not available");
    return new Response(bytes as Uint8Array<ArrayBuffer>, { headers });
  };

  const mediaPlaylist = async (source: Packager | IngestMirror, query: string, from: Request) => {
    const params = new URLSearchParams(query);
    // The request's signal is made on first use, and only a request that has to wait needs it.
    const request = {
      msn: directive(params, "_HLS_msn"),
      part: directive(params, "_HLS_part"),
      get signal() {
        return from.signal;
      },
    };
    const result: PlaylistResult = await source.playlist(request);
    switch (result.status) {
      case "ok":
        return new Response(result.body, { headers: playlistHeaders });
      case "bad-request":
        throw badRequest(`Invalid playlist request: ${result.reason}`);
      case "not-yet":
        throw serviceUnavailable(NOT_YET, RETRY_AFTER_S);
      case "gone":
        throw notFound("The stream has ended");
    }
  };

  const mirrored = async (mirror: IngestMirror, name: string) => {
    if (name === MULTIVARIANT_PLAYLIST) {
      const text = await mirror.multivariantPlaylist();
      if (text === null) throw serviceUnavailable(NOT_YET, RETRY_AFTER_S);
      return new Response(text, { headers: playlistHeaders });
    }
    if (!MEDIA_NAME.test(name)) throw notFound("Not a stream file");
    return media(await mirror.file(name), name.startsWith("init-") ? initHeaders : mediaHeaders);
  };

  return (source: Packager | IngestMirror, name: string, query: string, request: Request): Response | Promise<Response> => {
    if (name === MEDIA_PLAYLIST) return mediaPlaylist(source, query, request);
    if (source instanceof IngestMirror) return mirrored(source, name);
    const packager = source;
    if (name === MULTIVARIANT_PLAYLIST) {
      const text = packager.multivariantPlaylist(MEDIA_PLAYLIST);
      if (text === null) throw serviceUnavailable(NOT_YET, RETRY_AFTER_S);
      return new Response(text, { headers: playlistHeaders });
    }
    if (!MEDIA_NAME.test(name)) throw notFound("Not a stream file");
    if (name.startsWith("init-")) return media(packager.getInit(name), initHeaders);
    if (name.startsWith("seg-")) return media(packager.getSegment(name), mediaHeaders);
    // The part the playlist hints at is answered as soon as it is complete.
    const part = packager.getPart(name);
    return part ? media(part, mediaHeaders) : packager.awaitPart(name, { signal: request.signal }).then((bytes) => media(bytes, mediaHeaders));
  };
}

/** GET {INGEST_PREFIX}<name>: the LL-HLS viewers play, behind the session gate; from another instance's stream while it has the publisher. */
export function ingestStreamRoute(ctx: AppContext, errorAnswer: ErrorAnswerer): StreamRoute {
  const answer = ingestAnswerer(ctx);
  return watcherGate(ctx, errorAnswer, (request) => {
    const { name, query } = nameAndQuery(request.url, INGEST_PREFIX);
    const source = ctx.ingest.source;
    if (!source) throw notFound("The stream does not come in to this server");
    return answer(source, name, query, request);
  });
}

/**
 * GET {INTERNAL_PREFIX}<name>: this instance's own packager, for the other instances of a cluster, which
 * serve it to their viewers. Refused (403) without this instance's secret — which only the publisher's
 * lease in Redis tells — so no viewer, and no instance outside a cluster, is ever answered.
 */
export function internalIngestRoute(ctx: AppContext, errorAnswer: ErrorAnswerer): StreamRoute {
  const answer = ingestAnswerer(ctx);
  const headers = apiHeaders(ctx.config);
  const refuse = (error: unknown) => errorResponse(errorAnswer(error), headers);
  return (request) => {
    try {
      if (!ctx.ingest.internalSecretMatches(request.headers.get(INTERNAL_HEADER))) throw forbidden("Forbidden");
      const { name, query } = nameAndQuery(request.url, INTERNAL_PREFIX);
      if (name === PUBLISHER_FIGURES) return Response.json(publisherNow(ctx.ingest), { headers });
      const packager = ctx.ingest.packager;
      if (!packager) throw notFound("The stream does not come in to this server");
      const answered = answer(packager, name, query, request);
      return answered instanceof Promise ? answered.catch(refuse) : answered;
    } catch (error) {
      return refuse(error);
    }
  };
}

/** GET /api/admin/ingest and POST /api/admin/ingest/rotate-key. */
export function ingestAdminRoutes(ctx: AppContext) {
  // Open pages fetch their playback again when a stream starts or ends.
  ctx.ingest.onWatchableChange = () => void announceSettings(ctx).catch((error: unknown) => ctx.log.error("could not tell pages that the stream started or ended", error));
  return adminRoutes(ctx, "stream")
    .get("/ingest", () => ingestView(ctx.ingest, ctx.config, ctx.site.url(), ctx.stream.provider().kind))
    .post("/ingest/rotate-key", async ({ admin, session, clientIp }) => {
      requireRecentProof(session);
      const rotated: RotatedStreamKey = { streamKey: await ctx.ingest.rotateKey() };
      await ctx.audit.record(admin, "ingest.rotate-key", null, null, null, clientIp);
      return rotated;
    });
}
