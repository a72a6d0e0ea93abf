/**
 * The playlists' text (RFC 8216bis with its Low-Latency extensions), from a snapshot of the window. Names are
 * relative, so the caller serves them behind its own path; `query` (a viewer's token) is appended to each.
 */

export interface PlaylistPart {
  name: string;
  /** Seconds. */
  duration: number;
  independent: boolean;
}

export interface PlaylistSegment {
  msn: number;
  /** The complete segment's name; null while it is being written (only its parts are listed). */
  name: string | null;
  /** Seconds (of a complete segment). */
  duration: number;
  initName: string;
  /** The first segment of a publish session that followed another. */
  discontinuity: boolean;
  /** Wall clock (ms since the epoch) at which the segment's first frame was ingested. */
  programDateTime: number;
  /** Listed only for the last few segments, as LL-HLS asks. */
  parts: PlaylistPart[] | null;
}

export interface MediaPlaylist {
  /** Whole seconds, fixed for the stream's life. */
  targetDuration: number;
  /** Seconds, fixed for the life of the stream. */
  partTarget: number;
  mediaSequence: number;
  discontinuitySequence: number;
  /** The window, oldest first; the last one may be the segment being written (`name` null). */
  segments: PlaylistSegment[];
  /** The next part's name, announced before it exists. */
  preloadHint: string | null;
}

const seconds = (s: number) => String(Number(s.toFixed(5)));

/** The Skip Boundary of delta updates, in target durations (LL-HLS asks for at least six). */
export const SKIP_TARGET_DURATIONS = 6;

/**
 * How many of the oldest segments a delta update (`_HLS_skip=YES`) leaves out: the complete ones that end
 * at least the Skip Boundary before the playlist's end.
 */
export function skippableSegments(playlist: MediaPlaylist): number {
  const boundary = SKIP_TARGET_DURATIONS * playlist.targetDuration;
  let fromEnd = playlist.segments.reduce((sum, segment) => sum + segment.duration, 0);
  let skipped = 0;
  for (const segment of playlist.segments) {
    fromEnd -= segment.duration;
    if (segment.name === null || fromEnd < boundary) break;
    skipped++;
  }
  return skipped;
}

/**
 * The media playlist; with `skip`, its delta update: the oldest segments the client already has replaced
 * by EXT-X-SKIP (a low-latency player reloads about three times a second, and on a phone's link the
 * whole list each time adds up).
 */
export function renderMediaPlaylist(playlist: MediaPlaylist, query?: string, skip = false): string {
  const uri = (name: string) => (query ? `${name}?${query}` : name);
  const skipUntil = SKIP_TARGET_DURATIONS * playlist.targetDuration;
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:9",
    `#EXT-X-TARGETDURATION:${playlist.targetDuration}`,
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=${seconds(skipUntil)},PART-HOLD-BACK=${seconds(playlist.partTarget * 3)}`,
    `#EXT-X-PART-INF:PART-TARGET=${seconds(playlist.partTarget)}`,
    `#EXT-X-MEDIA-SEQUENCE:${playlist.mediaSequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${playlist.discontinuitySequence}`,
  ];
  const skipped = skip ? skippableSegments(playlist) : 0;
  if (skipped > 0) lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${skipped}`);
  let map: string | null = null;
  playlist.segments.forEach((segment, i) => {
    if (i < skipped) return;
    if (segment.discontinuity && i > 0) lines.push("#EXT-X-DISCONTINUITY");
    // The first segment listed (after a skip too) names its init segment: a client merging a delta update may not have seen it.
    if (segment.initName !== map) {
      map = segment.initName;
      lines.push(`#EXT-X-MAP:URI="${uri(segment.initName)}"`);
    }
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.programDateTime).toISOString()}`);
    for (const part of segment.parts ?? []) {
      const independent = part.independent ? ",INDEPENDENT=YES" : "";
      lines.push(`#EXT-X-PART:DURATION=${seconds(part.duration)},URI="${uri(part.name)}"${independent}`);
    }
    if (segment.name !== null) lines.push(`#EXTINF:${seconds(segment.duration)},`, uri(segment.name));
  });
  if (playlist.preloadHint) lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${uri(playlist.preloadHint)}"`);
  return lines.join("\n") + "\n";
}

export interface Variant {
  /** Peak bits per second. */
  bandwidth: number;
  averageBandwidth?: number;
  codecs: string[];
  width?: number;
  height?: number;
  frameRate?: number;
  /** The media playlist's URI, as the caller serves it. */
  uri: string;
}

export function renderMultivariantPlaylist(variant: Variant): string {
  const attributes = [`BANDWIDTH=${Math.max(1, Math.round(variant.bandwidth))}`];
  if (variant.averageBandwidth) attributes.push(`AVERAGE-BANDWIDTH=${Math.round(variant.averageBandwidth)}`);
  attributes.push(`CODECS="${variant.codecs.join(",")}"`);
  if (variant.width && variant.height) attributes.push(`RESOLUTION=${variant.width}x${variant.height}`);
  if (variant.frameRate) attributes.push(`FRAME-RATE=${variant.frameRate.toFixed(3)}`);
  // No EXT-X-INDEPENDENT-SEGMENTS: a segment cut at segmentMaxMs does not start on a keyframe.
  return ["#EXTM3U", "#EXT-X-VERSION:9", `#EXT-X-STREAM-INF:${attributes.join(",")}`, variant.uri].join("\n") + "\n";
}
