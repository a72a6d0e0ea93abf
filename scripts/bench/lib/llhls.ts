/** Low-Latency HLS from a client's side, for the ingest benchmark: the preload hint, blocking reloads, parts. */

export interface Hint {
  msn: number;
  part: number;
  uri: string;
}

/** The playlist's EXT-X-PRELOAD-HINT as (msn, part) from its name `part-<msn>-<part>.m4s`; null without one. */
export function preloadHint(text: string): Hint | null {
  const m = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="(part-(\d+)-(\d+)\.m4s[^"]*)"/.exec(text);
  return m ? { uri: m[1]!, msn: Number(m[2]), part: Number(m[3]) } : null;
}

/** The URL that blocks until part (msn, part) is listed. */
export function blockingUrl(playlistUrl: string, hint: { msn: number; part: number }): string {
  const url = new URL(playlistUrl);
  url.searchParams.set("_HLS_msn", String(hint.msn));
  url.searchParams.set("_HLS_part", String(hint.part));
  return url.toString();
}

/** A multivariant playlist's first variant, or the URL itself when it is a media playlist. */
export async function mediaPlaylistUrl(url: string, headers: Record<string, string>): Promise<string> {
  const text = await (await fetch(url, { headers })).text();
  if (!text.includes("#EXT-X-STREAM-INF")) return url;
  const variant = text.split("\n").find((l) => l && !l.startsWith("#"))!;
  return new URL(variant.trim(), url).toString();
}

/**
 * The wall-clock time at which part (msn, part)'s media ends: its segment's EXT-X-PROGRAM-DATE-TIME (the
 * wall clock at ingest) plus the durations of the segment's parts up to and including it. Null when the
 * playlist does not list it.
 */
export function partEndWallClock(text: string, msn: number, part: number): number | null {
  let seq = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
  let pdt: number | null = null;
  let index = 0;
  let offset = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) {
      pdt = Date.parse(line.slice(25));
    } else if (line.startsWith("#EXT-X-PART:")) {
      offset += Number(/DURATION=([\d.]+)/.exec(line)?.[1] ?? 0) * 1000;
      if (seq === msn && index === part) return pdt === null ? null : pdt + offset;
      index++;
    } else if (line && !line.startsWith("#")) {
      seq++;
      index = 0;
      offset = 0;
      pdt = null;
    }
  }
  return null;
}
