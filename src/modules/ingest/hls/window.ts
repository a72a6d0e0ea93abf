/**
 * What the packager holds in memory: the init segments, the last few complete segments, the parts of the
 * last few of them and of the segment being written, within a bound on their total bytes.
 */
import type { MediaPlaylist, PlaylistSegment } from "../../../media/hls/playlist.ts";
import type { PackagedSegment } from "../../../media/hls/segment.ts";

export interface Part {
  index: number;
  name: string;
  /** Seconds. */
  duration: number;
  independent: boolean;
  bytes: Uint8Array;
}

/** Figures kept per segment for the publisher's stats. */
export interface SegmentFigures {
  videoFrames: number;
  /** Decode times (90 kHz) of the segment's first and last video frames, for the frame rate. */
  firstVideoTime: number;
  lastVideoTime: number;
  keyframes: number;
  videoBytes: number;
  audioBytes: number;
}

export interface Segment extends PackagedSegment {
  msn: number;
  initName: string;
  discontinuity: boolean;
  /** How many discontinuities precede this segment in the stream (its EXT-X-DISCONTINUITY-SEQUENCE). */
  discontinuitySequence: number;
  programDateTime: number;
  parts: Part[];
  /** Set when complete: the parts' fragments one after another. */
  bytes: Uint8Array | null;
  /** Seconds, the parts' sum. */
  duration: number;
  figures: SegmentFigures;
  /** Parts are dropped from older segments; the complete segment stays. */
  partsDropped: boolean;
}

export interface WindowLimits {
  /** Complete segments kept… */
  segments: number;
  /** …but never fewer than this many seconds of them (three target durations: LL-HLS's rule). */
  minSeconds: number;
  /** Complete segments that keep their parts, at most… */
  partSegments: number;
  /** …and only those ending within this many seconds of the playlist's end (three target durations). */
  partSeconds: number;
  maxBytes: number;
}

export const initName = (n: number) => `init-${n}.mp4`;
export const segmentName = (msn: number) => `seg-${msn}.m4s`;
export const partName = (msn: number, index: number) => `part-${msn}-${index}.m4s`;

const PART_NAME = /^part-(\d{1,15})-(\d{1,6})\.m4s$/;
const SEGMENT_NAME = /^seg-(\d{1,15})\.m4s$/;

export function parsePartName(name: string): { msn: number; index: number } | null {
  const match = PART_NAME.exec(name);
  return match ? { msn: Number(match[1]), index: Number(match[2]) } : null;
}

export class SegmentWindow {
  readonly complete: Segment[] = [];
  current: Segment | null = null;
  /** The msn the next segment gets. */
  nextMsn = 0;
  private inits = new Map<string, Uint8Array>();
  private bytesHeld = 0;
  /** The publish session's init is kept even before its first segment. */
  private latestInit = "";
  /** Grows with every change of what a playlist lists: a playlist rendered at one count is good until it moves. */
  changes = 0;

  /** Told of each segment as it completes, with its init segment's bytes (the recording keeps them). */
  onComplete: ((segment: Segment, init: Uint8Array) => void) | null = null;
  /**
   * The open segment's last part went out ahead of the frame after it, and that frame may start the next
   * segment: the next part written is then either this segment's next or the next segment's first, so the
   * hint names the one sure to come (the next segment's first) rather than one that may never be written.
   */
  hintNextSegment = false;

  constructor(private readonly limits: WindowLimits) {}

  get bytes(): number {
    return this.bytesHeld;
  }

  addInit(name: string, bytes: Uint8Array): void {
    this.changes++;
    this.latestInit = name;
    this.inits.set(name, bytes);
    this.bytesHeld += bytes.length;
  }

  getInit(name: string): Uint8Array | null {
    return this.inits.get(name) ?? null;
  }

  openSegment(init: string, discontinuity: boolean, programDateTime: number): Segment {
    this.changes++;
    this.hintNextSegment = false;
    const previous = this.current ?? this.complete[this.complete.length - 1];
    const sequence = (previous?.discontinuitySequence ?? 0) + (discontinuity ? 1 : 0);
    this.current = {
      msn: this.nextMsn++,
      initName: init,
      discontinuity,
      discontinuitySequence: sequence,
      programDateTime,
      parts: [],
      bytes: null,
      duration: 0,
      figures: { videoFrames: 0, firstVideoTime: -1, lastVideoTime: -1, keyframes: 0, videoBytes: 0, audioBytes: 0 },
      partsDropped: false,
    };
    return this.current;
  }

  addPart(part: Omit<Part, "index" | "name">): Part {
    this.changes++;
    const segment = this.current;
    if (!segment) throw new Error("no open segment");
    const index = segment.parts.length;
    const full = { ...part, index, name: partName(segment.msn, index) };
    segment.parts.push(full);
    this.hintNextSegment = false;
    segment.duration += part.duration;
    this.bytesHeld += part.bytes.length;
    this.slide();
    return full;
  }

  /** The open segment may end with the next frame (see `hintNextSegment`). */
  expectSegmentEnd(): void {
    if (!this.current || this.hintNextSegment) return;
    this.changes++;
    this.hintNextSegment = true;
  }

  /** Completes the open segment (an empty one is dropped and its msn reused) and slides the window. */
  closeSegment(): void {
    this.changes++;
    const segment = this.current;
    this.current = null;
    if (!segment) return;
    if (segment.parts.length === 0) {
      this.nextMsn = segment.msn;
      return;
    }
    const bytes = new Uint8Array(segment.parts.reduce((n, p) => n + p.bytes.length, 0));
    let at = 0;
    for (const part of segment.parts) {
      bytes.set(part.bytes, at);
      at += part.bytes.length;
    }
    segment.bytes = bytes;
    this.bytesHeld += bytes.length;
    this.complete.push(segment);
    const init = this.inits.get(segment.initName);
    if (this.onComplete && init) this.onComplete(segment, init);
    this.slide();
  }

  /**
   * Drops the oldest segments past the count (while what is left still spans three target durations) or
   * past the bytes bound (the last complete one stays), parts past theirs, unused inits.
   */
  private slide(): void {
    const { segments, partSegments, maxBytes, minSeconds, partSeconds } = this.limits;
    let seconds = this.complete.reduce((sum, segment) => sum + segment.duration, 0);
    for (;;) {
      const oldest = this.complete[0];
      if (!oldest) break;
      const overCount = this.complete.length > segments && seconds - oldest.duration >= minSeconds;
      const overBytes = this.bytesHeld > maxBytes && this.complete.length > 1;
      if (!overCount && !overBytes) break;
      this.complete.shift();
      seconds -= oldest.duration;
      this.bytesHeld -= oldest.bytes!.length;
      if (!oldest.partsDropped) this.dropParts(oldest);
    }
    // Parts stay on the last few segments, those ending within `partSeconds` of the playlist's end.
    let fromEnd = this.current?.duration ?? 0;
    for (let i = this.complete.length - 1; i >= 0; i--) {
      const segment = this.complete[i]!;
      if (this.complete.length - i > partSegments || fromEnd > partSeconds) this.dropParts(segment);
      fromEnd += segment.duration;
    }
    const inUse = new Set(this.complete.map((s) => s.initName));
    if (this.current) inUse.add(this.current.initName);
    inUse.add(this.latestInit);
    for (const [name, bytes] of this.inits) {
      if (inUse.has(name)) continue;
      this.inits.delete(name);
      this.bytesHeld -= bytes.length;
    }
  }

  private dropParts(segment: Segment): void {
    if (segment.partsDropped) return;
    for (const part of segment.parts) this.bytesHeld -= part.bytes.length;
    segment.parts = [];
    segment.partsDropped = true;
  }

  getSegment(name: string): Uint8Array | null {
    const match = SEGMENT_NAME.exec(name);
    if (!match) return null;
    const msn = Number(match[1]);
    return this.complete.find((s) => s.msn === msn)?.bytes ?? null;
  }

  findPart(msn: number, index: number): Part | null {
    const segment = this.current?.msn === msn ? this.current : this.complete.find((s) => s.msn === msn);
    return segment?.parts[index] ?? null;
  }

  /** Everything gone (the stream was closed). */
  clear(): void {
    this.changes++;
    this.complete.length = 0;
    this.current = null;
    this.inits.clear();
    this.bytesHeld = 0;
  }

  snapshot(targetDuration: number, partTarget: number): MediaPlaylist {
    const listed: PlaylistSegment[] = this.complete.map((s) => ({
      msn: s.msn,
      name: segmentName(s.msn),
      duration: s.duration,
      initName: s.initName,
      discontinuity: s.discontinuity,
      programDateTime: s.programDateTime,
      parts: s.partsDropped ? null : s.parts,
    }));
    const current = this.current;
    if (current && current.parts.length > 0) {
      listed.push({
        msn: current.msn,
        name: null,
        duration: current.duration,
        initName: current.initName,
        discontinuity: current.discontinuity,
        programDateTime: current.programDateTime,
        parts: current.parts,
      });
    }
    const first = this.complete[0] ?? current;
    return {
      targetDuration,
      partTarget,
      mediaSequence: first?.msn ?? this.nextMsn,
      discontinuitySequence: first?.discontinuitySequence ?? 0,
      segments: listed,
      preloadHint: this.preloadHint(),
    };
  }

  /** The part to be written next: the open segment's next index, else (or when that may not come) the next segment's first. */
  preloadHint(): string {
    if (this.current && this.hintNextSegment) return partName(this.current.msn + 1, 0);
    return this.current ? partName(this.current.msn, this.current.parts.length) : partName(this.nextMsn, 0);
  }
}
