import type { Logger } from "../../lib/logger.ts";
import { badRequest, notFound, serviceUnavailable } from "../../lib/errors.ts";
import { RELAY_PREFIX } from "./providers.ts";
import { rewritePlaylist } from "./playlist.ts";

/** What the relay serves, by extension: playlists, media segments, init segments, subtitles, keys. */
const TYPES: Record<string, string> = {
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
  m4s: "video/iso.segment",
  mp4: "video/mp4",
  m4v: "video/mp4",
  m4a: "audio/mp4",
  aac: "audio/aac",
  vtt: "text/vtt",
  key: "application/octet-stream",
};

/** A live playlist changes every segment: kept a second, so a crowd's polling costs the origin one fetch a second. */
const PLAYLIST_TTL_MS = 1000;
/** A segment stays while it can be in the live window (a minute or two) and a little longer. */
const SEGMENT_TTL_MS = 3 * 60 * 1000;
/** A failure is remembered briefly, so viewers retrying an origin that is down do not become a storm. */
const FAILURE_TTL_MS = 1000;
const MAX_CACHED_BYTES = 256 * 1024 * 1024;
const PLAYLIST_TIMEOUT_MS = 5000;
const SEGMENT_TIMEOUT_MS = 15000;
const RETRY_AFTER_S = 2;

interface Fetched {
  status: 200 | 404 | 503;
  body: Uint8Array;
}

interface Entry {
  expires: number;
  size: number;
  result: Promise<Fetched>;
}

const EMPTY = new Uint8Array(0);

/**
 * The session-gated relay of an HLS origin. Each playlist and segment is fetched from the origin once and
 * shared by every viewer asking for it at the same time or later, while it is fresh; only the configured
 * origin's scheme, host, port and playlist directory are ever fetched.
 */
export class HlsRelay {
  private readonly cache = new Map<string, Entry>();
  private cachedBytes = 0;

  constructor(
    private readonly originUrl: () => string | null,
    private readonly log: Logger,
  ) {}

  /** The answer to GET {RELAY_PREFIX}{path}?{query}, for a caller already allowed to watch. */
  async serve(requestUrl: string): Promise<Response> {
    const origin = this.originUrl();
    if (origin === null) throw notFound("The stream is not relayed by this server");
    const base = new URL(".", origin);
    const { target, extension } = this.target(requestUrl, base);
    const playlist = extension === "m3u8";
    const fetched = await this.fetchShared(target, base, playlist);
    if (fetched.status === 404) throw notFound("This part of the stream is not available");
    if (fetched.status === 503) throw serviceUnavailable("The stream cannot be reached right now. Trying again shortly.", RETRY_AFTER_S);
    return new Response(fetched.body as BodyInit, {
      headers: {
        "content-type": TYPES[extension]!,
        "cache-control": playlist ? "private, no-store" : "private, max-age=60",
      },
    });
  }

  /** The origin address a relay path stands for; 400 for `..`, odd characters or a kind of file we do not relay. */
  private target(requestUrl: string, base: URL): { target: URL; extension: string } {
    const start = requestUrl.indexOf(RELAY_PREFIX, requestUrl.indexOf("//") + 2);
    const rest = requestUrl.slice(start + RELAY_PREFIX.length);
    const queryAt = rest.indexOf("?");
    const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
    const query = queryAt === -1 ? "" : rest.slice(queryAt);
    const segments = path.split("/");
    for (const segment of segments) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        throw badRequest("Invalid stream path");
      }
      if (!decoded || decoded === "." || decoded === ".." || /[/\\\u0000-\u001f]/.test(decoded)) throw badRequest("Invalid stream path");
    }
    const extension = /\.([a-z0-9]+)$/i.exec(segments.at(-1)!)?.[1]?.toLowerCase() ?? "";
    if (!TYPES[extension]) throw notFound("Not a stream file");
    if (query.length > 1024) throw badRequest("Invalid stream path");
    const target = new URL(path + query, base);
    if (target.origin !== base.origin || !target.pathname.startsWith(base.pathname)) throw badRequest("Invalid stream path");
    return { target, extension };
  }

  private fetchShared(target: URL, base: URL, playlist: boolean): Promise<Fetched> {
    const now = Date.now();
    const key = target.href;
    const cached = this.cache.get(key);
    if (cached && cached.expires > now) return cached.result;
    if (cached) this.forget(key, cached);
    // Shared while in flight; fresh for its time to live from when it arrived.
    const entry: Entry = { expires: Infinity, size: 0, result: Promise.resolve({ status: 503, body: EMPTY }) };
    entry.result = this.fetchOrigin(target, base, playlist).then((fetched) => {
      entry.expires = Date.now() + (fetched.status !== 200 ? FAILURE_TTL_MS : playlist ? PLAYLIST_TTL_MS : SEGMENT_TTL_MS);
      entry.size = fetched.body.byteLength;
      if (this.cache.get(key) === entry) {
        this.cachedBytes += entry.size;
        this.prune();
      }
      return fetched;
    });
    this.cache.set(key, entry);
    return entry.result;
  }

  private async fetchOrigin(target: URL, base: URL, playlist: boolean): Promise<Fetched> {
    try {
      // Redirects are not followed: they could lead off the origin.
      const response = await fetch(target, { redirect: "manual", signal: AbortSignal.timeout(playlist ? PLAYLIST_TIMEOUT_MS : SEGMENT_TIMEOUT_MS) });
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return { status: 404, body: EMPTY };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        this.log.warn(`stream origin answered ${response.status} for ${target.pathname}`);
        return { status: 503, body: EMPTY };
      }
      if (!playlist) return { status: 200, body: new Uint8Array(await response.arrayBuffer()) };
      return { status: 200, body: new TextEncoder().encode(rewritePlaylist(await response.text(), target, base)) };
    } catch (error) {
      this.log.warn(`stream origin unreachable for ${target.pathname}: ${(error as Error).message}`);
      return { status: 503, body: EMPTY };
    }
  }

  private forget(key: string, entry: Entry): void {
    this.cache.delete(key);
    this.cachedBytes -= entry.size;
  }

  /** Drops what has expired, then the oldest entries while the cache is over its size. */
  private prune(): void {
    const now = Date.now();
    for (const [key, entry] of this.cache) if (entry.expires <= now) this.forget(key, entry);
    for (const [key, entry] of this.cache) {
      if (this.cachedBytes <= MAX_CACHED_BYTES) break;
      this.forget(key, entry);
    }
  }

  clear(): void {
    this.cache.clear();
    this.cachedBytes = 0;
  }
}
