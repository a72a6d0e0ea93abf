/**
 * An HLS origin's playlists as the relay recorder reads them (after the relay rewrote their URIs): which
 * variant of a multivariant playlist to keep, and a media playlist's whole segments with their numbers,
 * durations, program date-times, discontinuities and init segments. Parts (LL-HLS) are left to the players.
 */

export interface OriginSegment {
  uri: string;
  /** Its media sequence number. */
  msn: number;
  /** Seconds (its EXTINF). */
  duration: number;
  /** From EXT-X-PROGRAM-DATE-TIME (its own, or the last one's plus the durations since); null when the origin gives none. */
  programDateTime: number | null;
  /** An EXT-X-DISCONTINUITY comes before it. */
  discontinuity: boolean;
  /** The URI of the EXT-X-MAP (fMP4 init) it is decoded with; null for MPEG-TS. */
  map: string | null;
}

export type OriginPlaylist =
  | { kind: "multivariant"; variant: string | null }
  | {
      kind: "media";
      targetDuration: number;
      segments: OriginSegment[];
      /** EXT-X-ENDLIST: the origin says nothing more comes. */
      ended: boolean;
      /** EXT-X-PLAYLIST-TYPE:VOD: a recording already, not a live stream. */
      vod: boolean;
      /** Why its segments cannot be kept as they are (encrypted, byte ranges), else null. */
      unsupported: string | null;
    };

const attribute = (line: string, name: string) => new RegExp(`[:,]${name}=("[^"]*"|[^,]*)`).exec(line)?.[1]?.replace(/^"|"$/g, "");

/**
 * Reads a playlist. For a multivariant playlist, the variant kept is the one of the highest BANDWIDTH (the
 * first listed of those): the best picture the origin offers, whatever each viewer's player picked.
 */
export function parseOriginPlaylist(text: string): OriginPlaylist {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.some((l) => l.startsWith("#EXT-X-STREAM-INF"))) {
    let best: { uri: string; bandwidth: number } | null = null;
    let bandwidth: number | null = null;
    for (const line of lines) {
      if (line.startsWith("#EXT-X-STREAM-INF")) bandwidth = Number(attribute(line, "BANDWIDTH") ?? 0) || 0;
      else if (!line.startsWith("#") && bandwidth !== null) {
        if (!best || bandwidth > best.bandwidth) best = { uri: line, bandwidth };
        bandwidth = null;
      }
    }
    return { kind: "multivariant", variant: best?.uri ?? null };
  }
  let targetDuration = 2;
  let msn = 0;
  let ended = false;
  let vod = false;
  let unsupported: string | null = null;
  let map: string | null = null;
  let duration: number | null = null;
  let dateTime: number | null = null;
  let discontinuity = false;
  const segments: OriginSegment[] = [];
  for (const line of lines) {
    if (line.startsWith("#EXT-X-TARGETDURATION:")) targetDuration = Number(line.slice(22)) || targetDuration;
    else if (line.startsWith("#EXT-X-MEDIA-SEQUENCE:")) msn = Number(line.slice(22)) || 0;
    else if (line.startsWith("#EXTINF:")) duration = Number.parseFloat(line.slice(8));
    else if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) {
      // Some encoders (FFmpeg) write the offset without its colon: +0000.
      const at = Date.parse(line.slice(25).replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
      dateTime = Number.isFinite(at) ? at : null;
    } else if (line === "#EXT-X-DISCONTINUITY") {
      discontinuity = true;
      // The times before a discontinuity say nothing of those after it.
      dateTime = null;
    } else if (line.startsWith("#EXT-X-MAP:")) map = attribute(line, "URI") ?? null;
    else if (line === "#EXT-X-ENDLIST") ended = true;
    else if (line === "#EXT-X-PLAYLIST-TYPE:VOD") vod = true;
    else if (line.startsWith("#EXT-X-KEY:") && attribute(line, "METHOD") !== "NONE") unsupported = "its segments are encrypted";
    else if (line.startsWith("#EXT-X-BYTERANGE")) unsupported = "its segments are byte ranges of larger files";
    else if (!line.startsWith("#")) {
      const seconds = duration !== null && Number.isFinite(duration) && duration > 0 ? duration : targetDuration;
      segments.push({ uri: line, msn, duration: seconds, programDateTime: dateTime, discontinuity, map });
      msn++;
      if (dateTime !== null) dateTime += seconds * 1000;
      duration = null;
      discontinuity = false;
    }
  }
  return { kind: "media", targetDuration, segments, ended, vod, unsupported };
}
