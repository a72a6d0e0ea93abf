/**
 * What the live player reads from a Low-Latency HLS playlist to tell a live stream from one whose publisher
 * has left: the next part to ask for, and whether an answer holds it.
 */

/** A part of the stream: the media sequence number of its segment and its index within it. */
export interface PartPosition {
  msn: number;
  part: number;
}

const lines = (text: string) => text.split(/\r?\n/).map((line) => line.trim());

/** The first variant's media playlist of a multivariant playlist, resolved against its address (itself relative to `base`, the page); null for a media playlist. */
export function mediaPlaylistUrl(text: string, playlistUrl: string, base: string): string | null {
  const all = lines(text);
  const at = all.findIndex((line) => line.startsWith("#EXT-X-STREAM-INF"));
  if (at < 0) return null;
  const uri = all.slice(at + 1).find((line) => line !== "" && !line.startsWith("#"));
  return uri ? new URL(uri, new URL(playlistUrl, base)).href : null;
}

/** The first variant's codecs as a multivariant playlist names them (`CODECS="hvc1.1.6.L93.90,mp4a.40.2"`), each alone; empty when it names none. */
export function variantCodecs(text: string): string[] {
  const variant = lines(text).find((line) => line.startsWith("#EXT-X-STREAM-INF"));
  const codecs = variant ? /CODECS="([^"]*)"/.exec(variant) : null;
  return codecs
    ? codecs[1]!
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean)
    : [];
}

/** A video codec as a viewer knows it, from its RFC 6381 name; null for audio (or one not known here). */
export function videoCodecName(codec: string): string | null {
  const entry = codec.split(".")[0];
  if (entry === "avc1" || entry === "avc3") return "H.264";
  if (entry === "hvc1" || entry === "hev1") return "HEVC (H.265)";
  if (entry === "av01") return "AV1";
  return null;
}

/**
 * The next part a media playlist will list (the one its preload hint names): in the segment being written
 * (media sequence plus the complete segments), after the parts already listed for it. Null for a playlist
 * that has ended or is no LL-HLS playlist.
 */
export function nextPart(text: string): PartPosition | null {
  const all = lines(text);
  if (all[0] !== "#EXTM3U" || all.includes("#EXT-X-ENDLIST") || !all.some((line) => line.startsWith("#EXT-X-PART-INF"))) return null;
  const sequence = all.find((line) => line.startsWith("#EXT-X-MEDIA-SEQUENCE:"));
  let msn = sequence ? Number(sequence.slice("#EXT-X-MEDIA-SEQUENCE:".length)) : 0;
  if (!Number.isSafeInteger(msn)) return null;
  let part = 0;
  for (const line of all) {
    if (line.startsWith("#EXTINF:")) {
      msn++;
      part = 0;
    } else if (line.startsWith("#EXT-X-PART:")) part++;
  }
  return { msn, part };
}

/** Whether a media playlist lists this part (or has moved past it). */
export function listsPart(text: string, position: PartPosition): boolean {
  const next = nextPart(text);
  if (next === null) return false;
  return next.msn > position.msn || (next.msn === position.msn && next.part > position.part);
}

/** The playlist's address with a blocking reload's query: answered once that part is listed. */
export function blockingReloadUrl(playlistUrl: string, position: PartPosition, base: string): string {
  const url = new URL(playlistUrl, base);
  url.searchParams.set("_HLS_msn", String(position.msn));
  url.searchParams.set("_HLS_part", String(position.part));
  return url.href;
}
