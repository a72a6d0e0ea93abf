import { LONGEST_WAIT_MS } from "../../http/timeouts.ts";
import type { Logger } from "../../lib/logger.ts";
import { badRequest, notFound, serviceUnavailable } from "../../lib/errors.ts";
import { ALLOW_PRIVATE_FLAG, BodyTooLarge, fetchFromOrigin, NoRoom, OriginRefused, readBounded } from "./origin.ts";
import { RELAY_PREFIX } from "./providers.ts";
import { NamedPaths, rewritePlaylist } from "./playlist.ts";

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
/** What the relay holds at once: the files kept and those being read from the origin. */
const MAX_HELD_BYTES = 256 * 1024 * 1024;
/** A segment or part of a few seconds is a few MB even in 4K; a bigger file is not relayed (nor read past this). */
const MAX_SEGMENT_BYTES = 64 * 1024 * 1024;
/** Hours of segments fit in well under this. */
const MAX_PLAYLIST_BYTES = 4 * 1024 * 1024;
/** At most this many named paths are remembered (a playlist of hours names a few thousand). */
const MAX_NAMED = 100_000;
const PLAYLIST_TIMEOUT_MS = 5000;
const SEGMENT_TIMEOUT_MS = LONGEST_WAIT_MS;
const RETRY_AFTER_S = 2;

interface Fetched {
  status: 200 | 404 | 503;
  /** A segment as a Blob (sent without being copied into each response); a playlist as text. */
  body: Blob | string;
  /** Built once per file, with the app's own headers, rather than once per request (a Headers is copied faster than an object is read). */
  headers: Headers;
  size: number;
  /** How long a failure is remembered when not the usual second. */
  keepMs?: number;
}

interface Entry {
  expires: number;
  result: Promise<Fetched>;
  /** Set once it has arrived, so later requests are answered without waiting a turn. */
  value?: Fetched;
}

/** What a viewer is sent: the body and all its headers (a Blob's with the whole file as its range). */
export interface RelayAnswer {
  body: Blob | string;
  headers: Headers;
}

/** Names that need no decoding: letters, digits, `-`, `_`, `~` and dots that are not a segment of their own. */
const PLAIN_PATH = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

const FAILED = (status: 404 | 503, keepMs?: number): Fetched => ({ status, body: "", headers: new Headers(), size: 0, keepMs });

const UNAVAILABLE = "This part of the stream is not available";

function answer(fetched: Fetched): RelayAnswer {
  if (fetched.status === 404) throw notFound(UNAVAILABLE);
  if (fetched.status === 503) throw serviceUnavailable("The stream cannot be reached right now. Trying again shortly.", RETRY_AFTER_S);
  return fetched;
}

/**
 * The session-gated relay of an HLS origin. Each playlist and segment is fetched from the origin once and
 * shared by every viewer asking for it at the same time or later, while it is fresh. Only the configured
 * playlist and the URIs its rewritten playlists named are fetched (exactly as named, a playlist's blocking
 * reload directives aside), each read up to a bounded size, within a bounded total held in memory.
 */
export class HlsRelay {
  private readonly cache = new Map<string, Entry>();
  /** What the rewritten playlists named, fetchable while a player a little behind may still ask for it. */
  private readonly named = new NamedPaths(SEGMENT_TTL_MS, MAX_NAMED);
  private base: { origin: string; url: URL; entry: string } | null = null;
  private cachedBytes = 0;
  /** Bytes of files still being read from the origin. */
  private readingBytes = 0;
  /** By extension: the app's headers with the file's type and caching. */
  private readonly headers: Record<string, Record<string, string>>;

  constructor(
    private readonly originUrl: () => string | null,
    appHeaders: Record<string, string>,
    private readonly log: Logger,
    /** --allow-private-origins: no check of the origin's addresses. */
    private readonly allowPrivate: boolean,
  ) {
    this.headers = Object.fromEntries(
      Object.entries(TYPES).map(([extension, type]) => [
        extension,
        { ...appHeaders, "content-type": type, "cache-control": extension === "m3u8" ? "private, no-store" : "private, max-age=60" },
      ]),
    );
  }

  /**
   * The answer to GET {RELAY_PREFIX}{path}?{query}, for a caller already allowed to watch; at once when the
   * file is in memory. 400, 404 or 503 (with Retry-After) are thrown as errors.
   */
  serve(requestUrl: string): RelayAnswer | Promise<RelayAnswer> {
    const origin = this.originUrl();
    if (origin === null) throw notFound("The stream is not relayed by this server");
    if (this.base?.origin !== origin) {
      // Another origin: what the last one sent is of no use any more.
      this.clear();
      const url = new URL(".", origin);
      this.base = { origin, url, entry: new URL(origin).pathname.slice(url.pathname.length) };
    }
    const relative = requestUrl.slice(requestUrl.indexOf(RELAY_PREFIX, requestUrl.indexOf("//") + 2) + RELAY_PREFIX.length);
    // A path in the cache passed the checks when it was first asked for.
    const entry = this.cache.get(relative);
    if (entry && entry.expires > Date.now()) return entry.value ? answer(entry.value) : entry.result.then(answer);
    const extension = this.checkPath(relative);
    const playlist = extension === "m3u8";
    const key = this.named.keyFor(relative, this.base.entry, playlist);
    if (key !== null) return this.file(key, extension);
    // Not named by a playlist yet: the configured playlist, fetched at most once a second, may name it now.
    return Promise.resolve(this.file(this.base.entry, "m3u8")).then(() => {
      const named = this.base && this.named.keyFor(relative, this.base.entry, playlist);
      if (!named) throw notFound(UNAVAILABLE);
      return this.file(named, extension);
    });
  }

  /** A file by its key, from memory while fresh, else fetched (once, however many ask meanwhile). */
  private file(key: string, extension: string): RelayAnswer | Promise<RelayAnswer> {
    let entry = this.cache.get(key);
    if (!entry || entry.expires <= Date.now()) entry = this.fetchEntry(key, this.base!.url, extension, entry);
    return entry.value ? answer(entry.value) : entry.result.then(answer);
  }

  /**
   * The extension of a relay path (below the playlist's directory, with its query) that may be fetched;
   * 400 for `..`, odd characters or a query too long, 404 for a kind of file we do not relay.
   */
  private checkPath(relative: string): string {
    const queryAt = relative.indexOf("?");
    const path = queryAt === -1 ? relative : relative.slice(0, queryAt);
    if (relative.length - path.length > 1024) throw badRequest("Invalid stream path");
    // Plain names pass at once; anything escaped is decoded and looked at segment by segment.
    if (!PLAIN_PATH.test(path)) {
      for (const segment of path.split("/")) {
        let decoded: string;
        try {
          decoded = decodeURIComponent(segment);
        } catch {
          throw badRequest("Invalid stream path");
        }
        if (!decoded || decoded === "." || decoded === ".." || /[/\\\u0000-\u001f]/.test(decoded)) throw badRequest("Invalid stream path");
      }
    }
    const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? "";
    if (!TYPES[extension]) throw notFound("Not a stream file");
    return extension;
  }

  /** A new cache entry for a file (by its path below the playlist's directory), fetched from the origin, in place of an expired one. */
  private fetchEntry(key: string, base: URL, extension: string, expired: Entry | undefined): Entry {
    if (expired) this.forget(key, expired);
    const playlist = extension === "m3u8";
    // Shared while in flight; fresh for its time to live from when it arrived.
    const entry: Entry = { expires: Infinity, result: this.fetchOrigin(key, base, extension) };
    void entry.result.then((fetched) => {
      entry.expires = Date.now() + (fetched.status !== 200 ? (fetched.keepMs ?? FAILURE_TTL_MS) : playlist ? PLAYLIST_TTL_MS : SEGMENT_TTL_MS);
      entry.value = fetched;
      if (this.cache.get(key) === entry) {
        this.cachedBytes += fetched.size;
        this.prune();
      }
    });
    this.cache.set(key, entry);
    return entry;
  }

  private async fetchOrigin(relative: string, base: URL, extension: string): Promise<Fetched> {
    const playlist = extension === "m3u8";
    const headers = this.headers[extension]!;
    const target = new URL(relative, base);
    // Checked again on the parsed address, whatever the path held.
    if (target.origin !== base.origin || !target.pathname.startsWith(base.pathname)) return FAILED(404);
    const limit = playlist ? MAX_PLAYLIST_BYTES : MAX_SEGMENT_BYTES;
    let reading = 0;
    const take = (bytes: number) => {
      if (!this.reserve(bytes)) return false;
      reading += bytes;
      return true;
    };
    try {
      // Redirects are not followed: they could lead off the origin, or into this machine.
      const response = await fetchFromOrigin(target, this.allowPrivate, AbortSignal.timeout(playlist ? PLAYLIST_TIMEOUT_MS : SEGMENT_TIMEOUT_MS));
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return FAILED(404);
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        this.log.warn(`stream origin answered ${response.status} for ${target.pathname}${response.status >= 300 && response.status < 400 ? " (redirects are not followed)" : ""}`);
        return FAILED(503);
      }
      const body = await readBounded(response, limit, take);
      if (!playlist) {
        // The whole file as its range, as for any file the app sends; a request for part of it gets a 206.
        const range: Record<string, string> = { "accept-ranges": "bytes" };
        if (body.size) range["content-range"] = `bytes 0-${body.size - 1}/${body.size}`;
        return { status: 200, body, headers: new Headers({ ...headers, ...range }), size: body.size };
      }
      const { text, relayed } = rewritePlaylist(await body.text(), target, base);
      if (this.base?.url === base) this.named.add(relayed);
      return { status: 200, body: text, headers: new Headers(headers), size: text.length };
    } catch (error) {
      if (error instanceof OriginRefused) {
        this.log.warn(`stream origin not fetched for ${target.pathname}: ${error.message} (start dreadcast with ${ALLOW_PRIVATE_FLAG} if it runs on your own network)`);
      } else if (error instanceof BodyTooLarge) {
        this.log.warn(`stream origin sent more than ${limit / 1024 / 1024} MiB for ${target.pathname}: not relayed`);
        // A segment's name is its content: it stays too large.
        return FAILED(503, playlist ? FAILURE_TTL_MS : SEGMENT_TTL_MS);
      } else if (error instanceof NoRoom) {
        this.log.warn(`stream relay holds ${MAX_HELD_BYTES / 1024 / 1024} MiB already: ${target.pathname} not fetched now`);
      } else {
        this.log.warn(`stream origin unreachable for ${target.pathname}: ${(error as Error).message}`);
      }
      return FAILED(503);
    } finally {
      this.readingBytes -= reading;
    }
  }

  /** Room for `bytes` more of a file being read, making it by dropping the oldest files kept; false when there is none. */
  private reserve(bytes: number): boolean {
    this.readingBytes += bytes;
    if (this.cachedBytes + this.readingBytes > MAX_HELD_BYTES) this.prune();
    if (this.cachedBytes + this.readingBytes <= MAX_HELD_BYTES) return true;
    this.readingBytes -= bytes;
    return false;
  }

  private forget(key: string, entry: Entry): void {
    this.cache.delete(key);
    this.cachedBytes -= entry.value?.size ?? 0;
  }

  /** Drops what has expired, then the oldest files kept while what is held is over its bound (files being read stay). */
  private prune(): void {
    const now = Date.now();
    for (const [key, entry] of this.cache) if (entry.expires <= now) this.forget(key, entry);
    for (const [key, entry] of this.cache) {
      if (this.cachedBytes + this.readingBytes <= MAX_HELD_BYTES) break;
      if (entry.value) this.forget(key, entry);
    }
  }

  clear(): void {
    this.cache.clear();
    this.named.clear();
    this.cachedBytes = 0;
  }
}
