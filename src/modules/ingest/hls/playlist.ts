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
  /** Whole seconds, never lowered during the stream. */
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

export function renderMediaPlaylist(playlist: MediaPlaylist, query?: string): string {
  const uri = (name: string) => (query ? `${name}?${query}` : name);
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:9",
    `#EXT-X-TARGETDURATION:${playlist.targetDuration}`,
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${seconds(playlist.partTarget * 3)}`,
    `#EXT-X-PART-INF:PART-TARGET=${seconds(playlist.partTarget)}`,
    `#EXT-X-MEDIA-SEQUENCE:${playlist.mediaSequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${playlist.discontinuitySequence}`,
  ];
  let map: string | null = null;
  playlist.segments.forEach((segment, i) => {
    if (segment.discontinuity && i > 0) lines.push("#EXT-X-DISCONTINUITY");
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
