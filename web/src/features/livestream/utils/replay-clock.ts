/**
 * The replay's clock: which moment of the night (wall-clock time, ms since the epoch) the video shows at a
 * position of its timeline. The VOD playlist gives each segment its program date-time (when it was filmed),
 * so a position maps to the segment holding it, plus how far into that segment it is. Sessions of the night
 * follow one another without gaps on the timeline, however long the pause between them was.
 */

/** A stretch of the timeline (seconds) and when its first frame was filmed (ms since the epoch), where known. */
export interface TimedSegment {
  readonly start: number;
  readonly duration: number;
  readonly programDateTime: number | null;
}

/** The segments of a media playlist: each one's start (the durations before it added up) and its program date-time. */
export function playlistSegments(text: string): TimedSegment[] {
  const segments: TimedSegment[] = [];
  let start = 0;
  let duration: number | null = null;
  let dated: number | null = null;
  let discontinuity = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) {
      const at = Date.parse(line.slice("#EXT-X-PROGRAM-DATE-TIME:".length));
      dated = Number.isNaN(at) ? null : at;
    } else if (line.startsWith("#EXTINF:")) {
      const seconds = Number.parseFloat(line.slice("#EXTINF:".length));
      duration = Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
    } else if (line === "#EXT-X-DISCONTINUITY") {
      discontinuity = true;
    } else if (line && !line.startsWith("#") && duration !== null) {
      const previous = segments.at(-1);
      // A segment without its own date follows on from the one before, unless the stream broke off between them.
      const programDateTime = dated ?? (previous && previous.programDateTime !== null && !discontinuity ? previous.programDateTime + previous.duration * 1000 : null);
      segments.push({ start, duration, programDateTime });
      start += duration;
      duration = null;
      dated = null;
      discontinuity = false;
    }
  }
  return segments;
}

/** The index of the segment holding `position`: the last one starting at or before it (0 before the first). */
function segmentAt(segments: readonly TimedSegment[], position: number): number {
  let low = 0;
  let high = segments.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (segments[mid]!.start <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** When the frame at `position` (seconds) was filmed, or null when the playlist does not say. */
export function wallClockAt(segments: readonly TimedSegment[], position: number): number | null {
  if (segments.length === 0 || !Number.isFinite(position)) return null;
  const segment = segments[segmentAt(segments, position)]!;
  if (segment.programDateTime === null) return null;
  const into = Math.min(Math.max(0, position - segment.start), segment.duration);
  return segment.programDateTime + into * 1000;
}
