/**
 * The built-in ingest's routes: the LL-HLS viewers play (GET {INGEST_PREFIX}<name>, behind the same
 * session gate as the relay) and the admin's GET /api/admin/ingest, POST /api/admin/ingest/reveal-key and /rotate-key.
 */
import type { AppContext } from "../../context.ts";
import type { StreamKeyAnswer } from "../../contracts/stream.ts";
import { errorResponse, type ErrorAnswerer } from "../../http/error-answer.ts";
import { apiHeaders } from "../../http/security.ts";
import { badRequest, conflict, forbidden, notFound, serviceUnavailable } from "../../lib/errors.ts";
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
const KEY_UNREADABLE = "The stream key cannot be read on this server: rotate the key and put the new one in OBS.";

/**
 * `_HLS_msn` and `_HLS_part` of a query, as whole numbers (undefined when absent, the first of each counting,
 * as with URLSearchParams), and `_HLS_skip` (YES or v2: a delta update); a malformed one is a 400. Read by
 * hand: every viewer sends one several times a second, and only these names matter.
 */
function directives(query: string): { msn: number | undefined; part: number | undefined; skip: boolean } {
  let msn: number | undefined;
  let part: number | undefined;
  let skip: boolean | undefined;
  for (let start = 0; start < query.length;) {
    let end = query.indexOf("&", start);
    if (end === -1) end = query.length;
    const eq = query.indexOf("=", start);
    const keyEnd = eq === -1 || eq > end ? end : eq;
    const key = query.slice(start, keyEnd);
    if (key === "_HLS_skip" && skip === undefined) {
      const raw = keyEnd === end ? "" : query.slice(keyEnd + 1, end);
      if (raw !== "YES" && raw !== "v2") throw badRequest("Invalid _HLS_skip");
      skip = true;
    }
    const isMsn = key === "_HLS_msn";
    if ((isMsn && msn === undefined) || (key === "_HLS_part" && part === undefined)) {
      const raw = keyEnd === end ? "" : query.slice(keyEnd + 1, end);
      if (!/^\d{1,15}$/.test(raw)) throw badRequest(`Invalid ${key}`);
      if (isMsn) msn = Number(raw);
      else part = Number(raw);
    }
    start = end + 1;
  }
  return { msn, part, skip: skip ?? false };
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
  // A response made from bytes copies them; one made from a Blob does not. Each part, segment and init is
  // asked for by every viewer, so each is made a Blob once (with its first request), and the Blob lives as
  // long as the window or the mirror holds the bytes.
  const blobs = new WeakMap<Uint8Array, Blob>();
  const media = (bytes: Uint8Array | null, headers: Headers) => {
    if (!bytes) throw notFound("This part of the stream is not available");
    let blob = blobs.get(bytes);
    if (!blob) blobs.set(bytes, (blob = new Blob([bytes as Uint8Array<ArrayBuffer>])));
    return new Response(blob, { headers });
  };

  const mediaPlaylist = async (source: Packager | IngestMirror, query: string) => {
    const result: PlaylistResult = await source.playlist(directives(query));
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

  return (source: Packager | IngestMirror, name: string, query: string): Response | Promise<Response> => {
    if (name === MEDIA_PLAYLIST) return mediaPlaylist(source, query);
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
    return part ? media(part, mediaHeaders) : packager.awaitPart(name).then((bytes) => media(bytes, mediaHeaders));
  };
}

/** GET {INGEST_PREFIX}<name>: the LL-HLS viewers play, behind the session gate; from another instance's stream while it has the publisher. */
export function ingestStreamRoute(ctx: AppContext, errorAnswer: ErrorAnswerer): StreamRoute {
  const answer = ingestAnswerer(ctx);
  return watcherGate(ctx, errorAnswer, (request) => {
    const { name, query } = nameAndQuery(request.url, INGEST_PREFIX);
    const source = ctx.ingest.source;
    if (!source) throw notFound("The stream does not come in to this server");
    return answer(source, name, query);
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
      const answered = answer(packager, name, query);
      return answered instanceof Promise ? answered.catch(refuse) : answered;
    } catch (error) {
      return refuse(error);
    }
  };
}

/**
 * GET /api/admin/ingest (the server address and the live figures, asked every few seconds: no proof), and
 * the key: POST /api/admin/ingest/reveal-key and /rotate-key, each behind a fresh proof and logged.
 */
export function ingestAdminRoutes(ctx: AppContext) {
  // Open pages fetch their playback again when a stream starts or ends.
  ctx.ingest.onWatchableChange = () => void announceSettings(ctx).catch((error: unknown) => ctx.log.error("could not tell pages that the stream started or ended", error));
  return adminRoutes(ctx, "stream")
    .get("/ingest", () => ingestView(ctx.ingest, ctx.config, ctx.site.url(), ctx.stream.provider().kind))
    .post("/ingest/reveal-key", async ({ admin, session, clientIp }) => {
      requireRecentProof(session);
      const streamKey = await ctx.ingest.keys.current();
      if (streamKey === null) throw conflict(KEY_UNREADABLE);
      await ctx.audit.record(admin, "ingest.reveal-key", null, null, null, clientIp);
      const revealed: StreamKeyAnswer = { streamKey };
      return revealed;
    })
    .post("/ingest/rotate-key", async ({ admin, session, clientIp }) => {
      requireRecentProof(session);
      const rotated: StreamKeyAnswer = { streamKey: await ctx.ingest.rotateKey() };
      await ctx.audit.record(admin, "ingest.rotate-key", null, null, null, clientIp);
      return rotated;
    });
}
