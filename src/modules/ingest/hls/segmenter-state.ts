/**
 * The segmenter's state and its small rules: what it holds per track and per publish session, its limits,
 * and the helpers that need nothing else (a held frame's predicted duration, a fragment's track).
 */
import type { AudioConfig, VideoConfig } from "../../../media/stream.ts";
import { VIDEO_TIMESCALE, type FragmentSample, type FragmentTrack, type InitTrack } from "../../../media/formats/fmp4.ts";

export interface SegmenterOptions {
  partTargetMs: number;
  segmentMinMs: number;
  /** The target duration, ms (rounded up to whole seconds). */
  segmentMaxMs: number;
  /** The wall clock (ms since the epoch), for program date-time. */
  now: () => number;
  /** Called when a part or segment was written, or the publisher left. */
  onChange: () => void;
}

export interface Held {
  /** Decode time in the track's timescale. */
  time: number;
  compositionOffset: number;
  sync: boolean;
  data: Uint8Array;
  /** Already written, as its part's last sample, with this (predicted) duration. */
  committed?: number;
}

export type Completed = Held & { duration: number };

export interface TrackState {
  init: InitTrack;
  timescale: number;
  held: Held | null;
  lastDuration: number;
  /** The last few durations as the publisher timed them, newest last (video). */
  recent: number[];
}

export interface Session {
  init: string;
  video: (TrackState & { init: { kind: "video"; config: VideoConfig } }) | null;
  audio: (TrackState & { init: { kind: "audio"; config: AudioConfig } }) | null;
  /** Added to the publisher's ms timestamps so the timeline continues across sessions. */
  offsetMs: number;
  firstDtsMs: number;
  wallAnchor: number;
  /** Timeline ms of the first frame, the program date-time's origin. */
  mediaAnchorMs: number;
  discontinuity: boolean;
  /** Video samples of the part being written, and audio samples waiting for their part. */
  partVideo: Completed[];
  partAudio: Completed[];
  audioQueue: Completed[];
  /** Duration of the part being written, in the lead track's timescale. */
  partTicks: number;
  /** Duration of the segment being written so far (its closed parts and the open one), lead ticks. */
  segmentTicks: number;
  /** Where the last video part written ends (s). */
  videoEndS: number;
  /** The open segment began with a keyframe (one cut without waits for the next keyframe to start the next, however soon). */
  segmentIndependent: boolean;
  /** The publisher sends no sound: the audio track is silence, its next frame's time here (audio ticks; -1 before the first part). */
  silent: { next: number } | null;
}

export const AAC_FRAME_SAMPLES = 1024;
/** The silent track of a session without sound: AAC-LC, 48 kHz, stereo (as OBS sends its sound)… */
export const SILENT_AUDIO: AudioConfig = { codec: "aac", asc: Uint8Array.of(0x11, 0x90), sampleRate: 48_000, channels: 2 };
/** …one raw AAC-LC stereo frame of silence (1,024 samples), as hls.js fills gaps with. */
export const SILENT_AAC_FRAME = Uint8Array.of(0x21, 0x00, 0x49, 0x90, 0x02, 0x19, 0x00, 0x23, 0x80);
export const AUDIO_QUEUE_LIMIT = 1_000;
export const AUDIO_BEFORE_VIDEO_LIMIT = 100;
export const EARLY_AUDIO_MS = 500;
export const CLOCK_JUMP_MS = 5_000;
/** Without a keyframe, a segment is cut this long past the target duration (a keyframe a little late still starts the next)… */
export const KEYFRAME_GRACE_MS = 400;
/** …and never grows past this beyond it: its EXTINF rounded may not pass the target duration. */
export const ROUNDING_MARGIN_MS = 490;
export const CLOCK_BACK_MS = 500;
/**
 * Frame durations kept for the prediction. A publisher's millisecond timestamps round the frame interval in a
 * pattern three frames long at the usual rates (30 fps: 33, 33, 34 ms; 60 fps: 17, 17, 16; 24 fps: 42, 41, 42),
 * so the duration three frames back is the next one's, to the tick.
 */
export const RECENT_DURATIONS = 3;
export const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The held frame's duration before the next frame says it: the one three frames back, else the last. */
export function predictDuration(track: TrackState): number {
  return track.recent.length === RECENT_DURATIONS ? track.recent[0]! : track.lastDuration;
}

export function sameVideo(a: VideoConfig, b: VideoConfig): boolean {
  return a.codec === b.codec && a.width === b.width && a.height === b.height && sameBytes(a.record, b.record);
}

export function fragmentTrack(id: number, samples: Completed[]): FragmentTrack {
  return {
    id,
    baseDecodeTime: samples[0]!.time,
    samples: samples.map((s): FragmentSample => ({ duration: s.duration, compositionOffset: s.compositionOffset, sync: s.sync, data: s.data })),
  };
}

/**
 * A frame's place on the timeline (ms): the publisher's clock plus the session's offset. When that clock
 * jumps (reset, wrapped, stalled), the offset moves so the timeline goes on right after the held frame.
 * Null: before the session's first frame.
 */
export function timelineMs(session: Session, track: TrackState, dts: number): number | null {
  const at = dts + session.offsetMs;
  if (!track.held) return dts < session.firstDtsMs ? null : at;
  const heldMs = (track.held.time * 1000) / track.timescale;
  if (at - heldMs >= -CLOCK_BACK_MS && at - heldMs <= CLOCK_JUMP_MS) return at;
  const step = track.lastDuration || (track.init.kind === "audio" ? AAC_FRAME_SAMPLES : VIDEO_TIMESCALE / 30);
  const next = heldMs + (step * 1000) / track.timescale;
  session.offsetMs += next - at;
  return next;
}

/** Silent audio frames, on a grid from the session's first picture, up to the end of the video written (s). */
export function fillSilence(session: Session, silent: { next: number }, rate: number, endS: number): void {
  if (silent.next < 0) silent.next = Math.round((session.partVideo[0]!.time * rate) / VIDEO_TIMESCALE);
  while (silent.next / rate < endS) {
    session.audioQueue.push({ time: silent.next, duration: AAC_FRAME_SAMPLES, compositionOffset: 0, sync: true, data: SILENT_AAC_FRAME });
    silent.next += AAC_FRAME_SAMPLES;
  }
}
