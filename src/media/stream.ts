/**
 * What an input (the RTMP server today; WHIP, SRT or a transcoder later) hands the packager: codec
 * configurations and timed frames, in the shapes FLV and MP4 already share. The packager knows nothing of
 * RTMP, and the RTMP side nothing of HLS: this file is the only thing both import.
 */

export type VideoCodec = "h264" | "hevc" | "av1";
export type AudioCodec = "aac";

export interface VideoConfig {
  codec: VideoCodec;
  /**
   * The decoder configuration record exactly as MP4 stores it (the `avcC`, `hvcC` or `av1C` box's payload):
   * FLV's sequence header carries the same bytes.
   */
  record: Uint8Array;
  /** Coded size read from the record's parameter sets (0 when it could not be read). */
  width: number;
  height: number;
}

export interface AudioConfig {
  codec: AudioCodec;
  /** The AudioSpecificConfig (MPEG-4 Audio), the `esds` descriptor's decoder-specific info. */
  asc: Uint8Array;
  sampleRate: number;
  channels: number;
}

/** Timestamps are in milliseconds on the publisher's clock (RTMP's own unit), monotonic per track. */
export interface VideoFrame {
  /** Decode time. */
  dts: number;
  /** Presentation time (dts + the composition-time offset B-frames need). */
  pts: number;
  keyframe: boolean;
  /** One access unit as MP4 stores it: length-prefixed NAL units (AVCC/HVCC) or AV1 OBUs. */
  data: Uint8Array;
}

export interface AudioFrame {
  dts: number;
  /** One raw AAC frame (no ADTS header). */
  data: Uint8Array;
}

/** What the publisher says of its stream (`@setDataFrame onMetaData`), as far as it says it. */
export interface StreamMetadata {
  width?: number;
  height?: number;
  framerate?: number;
  videoBitrateKbps?: number;
  audioBitrateKbps?: number;
  audioSampleRate?: number;
  audioChannels?: number;
  encoder?: string;
}

/**
 * The receiving end of one publish session. The input calls the configs before the first frame of their
 * track (again when they change), frames in decode order per track, and `end` once when the publisher
 * leaves or is dropped.
 */
export interface MediaSink {
  metadata(meta: StreamMetadata): void;
  videoConfig(config: VideoConfig): void;
  audioConfig(config: AudioConfig): void;
  video(frame: VideoFrame): void;
  audio(frame: AudioFrame): void;
  end(reason: string): void;
}
