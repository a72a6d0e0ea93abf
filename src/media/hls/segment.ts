/**
 * A complete segment of a packaged stream, as a reader of the stream that keeps it sees it (the recording
 * of the replay), and that reader's shape: the packager hands segments to it, knowing nothing of where
 * they go.
 */
export interface PackagedSegment {
  msn: number;
  /** The init segment's name (one per publish session). */
  initName: string;
  /** Wall clock (ms since the epoch) at which the segment's first frame was ingested. */
  programDateTime: number;
  /** Seconds. */
  duration: number;
  /** The segment's fMP4 fragments one after another (null until it is complete). */
  bytes: Uint8Array | null;
}

/** One publish session's segments as they complete, each with its init segment's bytes. */
export interface SegmentSink {
  add(segment: PackagedSegment, init: Uint8Array): void;
  /** The publish ended: whatever is queued is written, then the sink is closed. */
  close(): Promise<void>;
}

/** Something that keeps a packaged stream: a sink for each publish session, told the picture's size as it becomes known. */
export interface SegmentKeeper {
  open(size: () => { width: number; height: number }): SegmentSink;
}
