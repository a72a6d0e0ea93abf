import type { AudioConfig, VideoConfig } from "../stream.ts";
import { VIDEO_TIMESCALE, writeFragment, writeInit, type FragmentTrack, type InitTrack } from "./fmp4.ts";
import { parseH264Sps } from "../codecs/parameter-sets.ts";
import { TsError, type DemuxedTs } from "./mpegts.ts";

const VIDEO_TRACK = 1;
const AUDIO_TRACK = 2;
/** A frame's length when nothing follows it to tell (a 30 fps frame). */
const FALLBACK_FRAME_90K = 3000;

/** The H.264 decoder configuration record (`avcC`) of one SPS and PPS. */
function avcRecord(sps: Uint8Array, pps: Uint8Array): Uint8Array {
  const out = new Uint8Array(11 + sps.length + pps.length);
  out.set([1, sps[1]!, sps[2]!, sps[3]!, 0xff, 0xe1, sps.length >> 8, sps.length & 0xff]);
  out.set(sps, 8);
  out.set([1, pps.length >> 8, pps.length & 0xff], 8 + sps.length);
  out.set(pps, 11 + sps.length);
  return out;
}

/** The coded picture size an SPS gives, or 0 × 0 when it cannot be read. */
export function spsSize(sps: Uint8Array | null): { width: number; height: number } {
  if (!sps) return { width: 0, height: 0 };
  try {
    return parseH264Sps(sps);
  } catch {
    return { width: 0, height: 0 };
  }
}

/**
 * A relayed MPEG-TS recording as one fragmented MP4, segment by segment, through the ingest's own fMP4
 * writer: the init from the first segment's parameter sets and AAC settings, then one fragment per
 * segment with its times moved to start at zero. No re-encoding: the same frames, in MP4's framing.
 */
export class TsToMp4 {
  readonly init: Uint8Array;
  private readonly audioRate: number;
  private readonly hasVideo: boolean;
  private readonly hasAudio: boolean;
  /** The first segment's earliest time (90 kHz): the file's zero. */
  private readonly zero: number;
  private sequence = 1;

  constructor(first: DemuxedTs) {
    if (first.others.length) throw new TsError(`its ${first.others.join(" and ")} cannot be put in an MP4 here (H.264 and AAC can)`);
    const tracks: InitTrack[] = [];
    const video = first.video;
    if (video?.frames.length) {
      if (!video.sps || !video.pps) throw new TsError("its first segment carries no H.264 parameter sets");
      const config: VideoConfig = { codec: "h264", record: avcRecord(video.sps, video.pps), ...spsSize(video.sps) };
      tracks.push({ id: VIDEO_TRACK, kind: "video", config });
    }
    const audio = first.audio;
    if (audio?.frames.length) {
      const config: AudioConfig = { codec: "aac", asc: audio.asc, sampleRate: audio.sampleRate, channels: audio.channels };
      tracks.push({ id: AUDIO_TRACK, kind: "audio", config });
    }
    if (!tracks.length) throw new TsError("its first segment holds no H.264 or AAC frames");
    this.hasVideo = tracks.some((t) => t.kind === "video");
    this.hasAudio = tracks.some((t) => t.kind === "audio");
    this.audioRate = audio?.sampleRate ?? 48000;
    this.zero = Math.min(video?.frames[0]?.dts ?? Infinity, audio?.frames[0]?.pts ?? Infinity);
    this.init = writeInit(tracks);
  }

  /** One segment as a fragment (moof + mdat), or nothing when it holds no frame of the file's tracks. */
  fragment(segment: DemuxedTs): Uint8Array | null {
    const tracks: FragmentTrack[] = [];
    const frames = this.hasVideo ? (segment.video?.frames ?? []) : [];
    if (frames.length) {
      tracks.push({
        id: VIDEO_TRACK,
        baseDecodeTime: Math.max(0, frames[0]!.dts - this.zero),
        samples: frames.map((frame, i) => {
          const next = frames[i + 1];
          const previous = frames[i - 1];
          const duration = next ? next.dts - frame.dts : previous ? frame.dts - previous.dts : FALLBACK_FRAME_90K;
          return { duration: Math.max(0, duration), compositionOffset: frame.pts - frame.dts, sync: frame.keyframe, data: frame.data };
        }),
      });
    }
    const sounds = this.hasAudio ? (segment.audio?.frames ?? []) : [];
    if (sounds.length) {
      tracks.push({
        id: AUDIO_TRACK,
        baseDecodeTime: Math.max(0, Math.round(((sounds[0]!.pts - this.zero) * this.audioRate) / VIDEO_TIMESCALE)),
        samples: sounds.map((sound) => ({ duration: 1024, compositionOffset: 0, sync: true, data: sound.data })),
      });
    }
    return tracks.length ? writeFragment(this.sequence++, tracks) : null;
  }
}
