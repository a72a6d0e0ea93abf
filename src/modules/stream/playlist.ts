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
 * A playlist with every URI (segment lines and `URI="…"` attributes) pointing at our relay. A URI that
 * leads anywhere but the origin is dropped, with the tags describing it, so the relay is never a proxy
 * to another host.
 */
export function rewritePlaylist(text: string, from: URL, base: URL): string {
  const out: string[] = [];
  let pending: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith("#")) {
      const attribute = URI_ATTRIBUTE.exec(line);
      if (!attribute) pending.push(line);
      else {
        const address = relayAddress(attribute[1]!, from, base);
        if (address !== null) pending.push(line.replace(URI_ATTRIBUTE, `URI="${address}"`));
      }
      continue;
    }
    const address = relayAddress(line, from, base);
    if (address === null) out.push(...pending.filter((tag) => !BELONGS_TO_NEXT_URI.test(tag)));
    else out.push(...pending, address);
    pending = [];
  }
  out.push(...pending);
  return out.join("\n") + "\n";
}
