/** The publisher's figures as the window shows them: codecs, size, frame rate, keyframe interval, bitrates. */
import type { AudioConfig, StreamMetadata, VideoConfig } from "../../../media/stream.ts";
import { audioCodecString, videoCodecString } from "../../../media/codecs/codec-strings.ts";
import { VIDEO_TIMESCALE } from "../../../media/formats/fmp4.ts";
import type { SegmentWindow } from "./window.ts";

export interface PublisherFigures {
  live: boolean;
  /** Wall clock at which the current (or last) publish session started. */
  since: number | null;
  video: { codec: string; width: number; height: number; fps: number | null; keyframeIntervalS: number | null; kbps: number | null } | null;
  audio: { codec: string; sampleRate: number; channels: number; kbps: number | null } | null;
  /** What the publisher said of its stream. */
  metadata: StreamMetadata;
  mediaSequence: number;
  segments: number;
  bytesHeld: number;
}

export interface FiguresSource {
  live: boolean;
  since: number | null;
  meta: StreamMetadata;
  video: VideoConfig | null;
  audio: AudioConfig | null;
}

/** Measured over the window's segments of the latest publish session: its encoder's settings, not a mix. */
export function measureFigures(window: SegmentWindow, source: FiguresSource): PublisherFigures {
  let seconds = 0;
  let frames = 0;
  let firstVideo = -1;
  let lastVideo = -1;
  let keyframes = 0;
  let videoBytes = 0;
  let audioBytes = 0;
  const latest = window.complete[window.complete.length - 1]?.initName;
  for (const segment of window.complete.filter((s) => s.initName === latest)) {
    seconds += segment.duration;
    frames += segment.figures.videoFrames;
    if (firstVideo < 0) firstVideo = segment.figures.firstVideoTime;
    if (segment.figures.lastVideoTime >= 0) lastVideo = segment.figures.lastVideoTime;
    keyframes += segment.figures.keyframes;
    videoBytes += segment.figures.videoBytes;
    audioBytes += segment.figures.audioBytes;
  }
  // From the first frame's time to the last's; the video's own length (its frames at their spacing) stands
  // for the segments', which may end in audio alone.
  const spanS = frames > 1 && lastVideo > firstVideo ? (lastVideo - firstVideo) / VIDEO_TIMESCALE : 0;
  const videoSeconds = spanS > 0 ? spanS * (frames / (frames - 1)) : seconds;
  const kbps = (bytes: number) => (seconds > 0 ? Math.round((bytes * 8) / seconds / 1000) : null);
  const { video, audio } = source;
  return {
    live: source.live,
    since: source.since,
    video: video
      ? {
          codec: videoCodecString(video),
          width: video.width,
          height: video.height,
          fps: spanS > 0 ? frameRate((frames - 1) / spanS, spanS * 1000) : null,
          keyframeIntervalS: keyframes > 0 ? Math.round((videoSeconds / keyframes) * 100) / 100 : null,
          kbps: kbps(videoBytes),
        }
      : null,
    audio: audio ? { codec: audioCodecString(audio), sampleRate: audio.sampleRate, channels: audio.channels, kbps: kbps(audioBytes) } : null,
    metadata: source.meta,
    mediaSequence: window.complete[0]?.msn ?? window.nextMsn,
    segments: window.complete.length,
    bytesHeld: window.bytes,
  };
}

const COMMON_FRAME_RATES = [23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60];

/**
 * A measured rate (from ms timestamps over `spanMs`) as the nearest common one within 0.5 %, else to two
 * decimals. Millisecond timestamps (and an encoder's first frames) put the span out by a millisecond or two,
 * so over a short stretch 30 and 29.97 can both fit the measure: then the whole rate, OBS's default, is
 * taken, until the stretch is long enough to tell them apart (a few seconds).
 */
export function frameRate(measured: number, spanMs: number): number {
  const byDistance = [...COMMON_FRAME_RATES].sort((a, b) => Math.abs(a - measured) - Math.abs(b - measured));
  const nearest = byDistance[0]!;
  if (Math.abs(nearest - measured) > nearest * 0.005) return Math.round(measured * 100) / 100;
  const slack = (2 * measured) / Math.max(spanMs, 1);
  const fitting = byDistance.filter((rate) => Math.abs(rate - measured) <= slack);
  return fitting.find(Number.isInteger) ?? nearest;
}
