import { RELAY_PREFIX } from "./providers.ts";

/** Tags that describe the URI line after them: dropped with it when that URI is refused. */
const BELONGS_TO_NEXT_URI = /^#(EXTINF|EXT-X-STREAM-INF|EXT-X-BYTERANGE)\b/;
const URI_ATTRIBUTE = /URI="([^"]*)"/;

/**
 * Our address for a URI of the origin, or null for anything the relay must not fetch: another scheme,
 * host or port, or a path outside the directory of the configured playlist.
 */
export function relayAddress(uri: string, from: URL, base: URL): string | null {
  let target: URL;
  try {
    target = new URL(uri, from);
  } catch {
    return null;
  }
  if (target.origin !== base.origin || !target.pathname.startsWith(base.pathname) || target.username || target.password) return null;
  return RELAY_PREFIX + target.pathname.slice(base.pathname.length) + target.search;
}

/**
 * A playlist with every URI (segment lines and `URI="…"` attributes) pointing at our relay, and those URIs
 * as paths below the playlist's directory (what the relay may fetch). A URI that leads anywhere but the
 * origin is dropped, with the tags describing it, so the relay is never a proxy to another host.
 */
export function rewritePlaylist(text: string, from: URL, base: URL): { text: string; relayed: string[] } {
  const out: string[] = [];
  const relayed: string[] = [];
  const relay = (uri: string) => {
    const address = relayAddress(uri, from, base);
    if (address !== null) relayed.push(address.slice(RELAY_PREFIX.length));
    return address;
  };
  let pending: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith("#")) {
      const attribute = URI_ATTRIBUTE.exec(line);
      if (!attribute) pending.push(line);
      else {
        const address = relay(attribute[1]!);
        if (address !== null) pending.push(line.replace(URI_ATTRIBUTE, `URI="${address}"`));
      }
      continue;
    }
    const address = relay(line);
    if (address === null) out.push(...pending.filter((tag) => !BELONGS_TO_NEXT_URI.test(tag)));
    else out.push(...pending, address);
    pending = [];
  }
  out.push(...pending);
  return { text: out.join("\n") + "\n", relayed };
}

/** The delivery directives a player adds to a playlist's address for a blocking reload (LL-HLS), with the values they may take. */
const DIRECTIVES: Record<string, RegExp> = { _HLS_msn: /^\d{1,10}$/, _HLS_part: /^\d{1,6}$/, _HLS_skip: /^(YES|v2)$/ };

/**
 * The paths (below the playlist's directory, with their query) that rewritten playlists named: the only ones
 * the relay fetches besides the configured playlist. Each stays fetchable `ttlMs` after a playlist last named
 * it; past `max`, the longest unnamed go first.
 */
export class NamedPaths {
  /** When each stops being fetchable, oldest first. */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  add(paths: string[]): void {
    const now = Date.now();
    for (const path of paths) {
      this.until.delete(path);
      this.until.set(path, now + this.ttlMs);
    }
    for (const [path, until] of this.until) {
      if (until > now && this.until.size <= this.max) break;
      this.until.delete(path);
    }
  }

  private named(path: string, entry: string): boolean {
    return path === entry || (this.until.get(path) ?? 0) > Date.now();
  }

  /**
   * The key under which a requested path is fetched and kept: the path itself when a playlist named it
   * exactly (or it is the configured playlist `entry`); for a playlist, also its named address with the
   * blocking-reload directives added, in one order. Null for anything else, such as a named segment with
   * a query string of its own added.
   */
  keyFor(relative: string, entry: string, playlist: boolean): string | null {
    if (this.named(relative, entry)) return relative;
    const queryAt = relative.indexOf("?");
    if (!playlist || queryAt === -1) return null;
    const own: string[] = [];
    const directives: Record<string, string> = {};
    for (const pair of relative.slice(queryAt + 1).split("&")) {
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (!name.startsWith("_HLS_")) own.push(pair);
      else if (eq !== -1 && !(name in directives) && DIRECTIVES[name]?.test(pair.slice(eq + 1))) directives[name] = pair.slice(eq + 1);
      else return null;
    }
    const address = relative.slice(0, queryAt) + (own.length ? `?${own.join("&")}` : "");
    if (!this.named(address, entry)) return null;
    const added = Object.keys(DIRECTIVES)
      .filter((name) => name in directives)
      .map((name) => `${name}=${directives[name]}`);
    return added.length ? `${address}${own.length ? "&" : "?"}${added.join("&")}` : address;
  }

  clear(): void {
    this.until.clear();
  }
}
