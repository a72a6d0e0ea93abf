import type { Logger } from "../../lib/logger.ts";
import type { SegmentKeeper, SegmentSink } from "../../media/hls/segment.ts";
import type { KeptPosition, KeptSegment, RecordingStore } from "./recordings.ts";

/** What the ingest tells the recording of one publish session. */
export type RecordingSink = SegmentSink;

/** The recording of one continuous run of segments, from any source. */
export interface KeptSink {
  add(segment: KeptSegment): void;
  /** Resolves once every segment added so far is written (or the recording has failed). */
  written(): Promise<void>;
  /** Whatever is queued is written, then the recording is closed. */
  close(): Promise<void>;
}

/**
 * Keeps what the built-in ingest packages, as it is packaged, and what the HLS relay fetches, as it came:
 * one recording per publish session (or continuous run), its segments written in order off the live path
 * (the writes queue behind each other and never hold up a viewer). A write that fails — a full disk — stops
 * the recording with a warning in the log and the panel; the live stream goes on, and what was written plays.
 */
export class Recorder implements SegmentKeeper {
  constructor(
    private readonly recordings: RecordingStore,
    private readonly log: Logger,
  ) {}

  /** The newest segment kept so far, by whichever instance kept it; null when none is. */
  keptPosition(): Promise<KeptPosition | null> {
    return this.recordings.keptPosition();
  }

  open(size: () => { width: number; height: number }): RecordingSink {
    const sink = this.keep(size);
    return {
      // Copies are not needed: the window keeps these bytes alive until they slide out, and a write reads them at once.
      add: (segment, init) =>
        sink.add({ bytes: segment.bytes!, duration: segment.duration, programDateTime: segment.programDateTime, init: { name: segment.initName, bytes: init } }),
      close: () => sink.close(),
    };
  }

  /** A recording of one continuous run; `origin` names the relayed origin it follows (null: the ingest's own stream). */
  keep(size: () => { width: number; height: number }, origin: string | null = null): KeptSink {
    let recording: { id: number; dir: string } | null = null;
    let failed = false;
    let seq = 0;
    let startMs = 0;
    const initsWritten = new Set<string>();
    let queue: Promise<void> = Promise.resolve();
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      const reason = `recording stopped: ${(error as NodeJS.ErrnoException).code === "ENOSPC" ? "the disk is full" : ((error as Error).message ?? String(error))}`;
      this.log.warn(`replay: ${reason}; the live stream goes on`);
      if (recording) void this.recordings.finish(recording.id, "failed", reason).catch(() => {});
    };
    return {
      add: (segment) => {
        if (failed) return;
        queue = queue
          .then(async () => {
            if (failed) return;
            if (!recording) {
              const { width, height } = size();
              recording = await this.recordings.begin(segment.programDateTime, width, height, origin);
            }
            startMs += await this.recordings.addSegment(recording, seq++, segment, startMs, initsWritten);
          })
          .catch(fail);
      },
      written: () => queue,
      close: async () => {
        await queue;
        if (recording && !failed) await this.recordings.finish(recording.id, "complete", null).catch(fail);
      },
    };
  }
}
