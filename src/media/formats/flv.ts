/**
 * FLV video and audio tag bodies (RTMP's media messages) → the packager's shapes (media.ts). Legacy FLV
 * (AVC, AAC; HEVC under the unofficial codec id 12) and Enhanced RTMP (bit 0x80 and a FourCC: avc1, hvc1,
 * av01; mp4a audio). What the packager cannot take — VP6, Sorenson, VP9, MP3, Opus … — is an
 * "unsupported" result naming the codec, so the operator learns what to change in the encoder.
 */

import type { AudioConfig, AudioFrame, VideoCodec, VideoConfig, VideoFrame } from "../stream.ts";
import { parseAv1SequenceHeader, parseH264Sps, parseHevcSps, SpsError, type CodedSize } from "../codecs/parameter-sets.ts";

export class FlvError extends Error {
  override name = "FlvError";
}

export type VideoTag =
  | { kind: "config"; config: VideoConfig }
  | { kind: "frame"; frame: VideoFrame }
  /** Nothing for the packager: end of sequence, command/info frames, metadata, an empty frame. */
  | { kind: "skip" }
  | { kind: "unsupported"; reason: string };

export type AudioTag = { kind: "config"; config: AudioConfig } | { kind: "frame"; frame: AudioFrame } | { kind: "skip" } | { kind: "unsupported"; reason: string };

const LEGACY_VIDEO_CODECS: Record<number, string> = {
  1: "JPEG",
  2: "Sorenson H.263",
  3: "Screen Video",
  4: "On2 VP6",
  5: "On2 VP6 with alpha",
  6: "Screen Video 2",
};
const AUDIO_FORMATS: Record<number, string> = {
  0: "PCM",
  1: "ADPCM",
  2: "MP3",
  3: "PCM",
  4: "Nellymoser",
  5: "Nellymoser",
  6: "Nellymoser",
  7: "G.711 A-law",
  8: "G.711 µ-law",
  11: "Speex",
  14: "MP3",
  15: "device-specific audio",
};
const FOURCC_VIDEO: Record<string, VideoCodec> = { avc1: "h264", hvc1: "hevc", av01: "av1" };
const SUPPORTED_VIDEO = "publish H.264, HEVC or AV1";
const SUPPORTED_AUDIO = "publish AAC";

/** Enhanced RTMP video packet types. */
const VideoPacket = { SequenceStart: 0, CodedFrames: 1, SequenceEnd: 2, CodedFramesX: 3, Metadata: 4, MPEG2TSSequenceStart: 5, Multitrack: 6, ModEx: 7 } as const;
const FRAME_KEY = 1;
const FRAME_COMMAND = 5;

/**
 * Keeps what reading frames needs from the last configuration (the NAL length size, the codec). Records and
 * frames are views into the tag body, not copies: the chunk reader allocates each message afresh.
 */
export class FlvDemuxer {
  private videoCodec: VideoCodec | null = null;
  private nalLengthSize = 4;
  private audioConfigured = false;

  video(body: Uint8Array, timestamp: number): VideoTag {
    if (body.length < 1) throw new FlvError("empty video tag");
    const first = body[0]!;
    if (first & 0x80) return this.enhancedVideo(body, timestamp);
    const frameType = first >> 4;
    const codecId = first & 0x0f;
    if (frameType === FRAME_COMMAND) return { kind: "skip" };
    if (codecId !== 7 && codecId !== 12) {
      const name = LEGACY_VIDEO_CODECS[codecId] ?? `FLV video codec ${codecId}`;
      return { kind: "unsupported", reason: `unsupported video codec ${name}: ${SUPPORTED_VIDEO}` };
    }
    if (body.length < 5) throw new FlvError("AVC video tag shorter than its 5-byte header");
    const codec: VideoCodec = codecId === 7 ? "h264" : "hevc";
    const packetType = body[1]!;
    const cts = si24(body, 2);
    const data = body.subarray(5);
    if (packetType === 0) return this.config(codec, data);
    if (packetType === 1) return this.frame(codec, data, timestamp, cts, frameType === FRAME_KEY);
    if (packetType === 2) return { kind: "skip" };
    throw new FlvError(`AVC packet type ${packetType} is not defined`);
  }

  private enhancedVideo(body: Uint8Array, timestamp: number): VideoTag {
    const frameType = (body[0]! >> 4) & 0x07;
    let packetType = body[0]! & 0x0f;
    let offset = 1;
    // ModEx packets carry modifiers (e.g. nanosecond timestamp offsets) before the real packet type.
    while (packetType === VideoPacket.ModEx) {
      if (offset >= body.length) throw new FlvError("truncated ModEx video packet");
      let size = body[offset++]! + 1;
      if (size === 256) {
        if (offset + 2 > body.length) throw new FlvError("truncated ModEx video packet");
        size = ((body[offset]! << 8) | body[offset + 1]!) + 1;
        offset += 2;
      }
      offset += size;
      if (offset >= body.length) throw new FlvError("truncated ModEx video packet");
      packetType = body[offset++]! & 0x0f;
    }
    if (packetType === VideoPacket.Multitrack) {
      return { kind: "unsupported", reason: `unsupported multitrack video (Enhanced RTMP v2): publish one video track` };
    }
    if (offset + 4 > body.length) throw new FlvError("Enhanced RTMP video tag without its FourCC");
    const fourcc = String.fromCharCode(...body.subarray(offset, offset + 4));
    offset += 4;
    if (frameType === FRAME_COMMAND || packetType === VideoPacket.Metadata) return { kind: "skip" };
    const codec = FOURCC_VIDEO[fourcc];
    if (!codec) return { kind: "unsupported", reason: `unsupported video codec ${printable(fourcc)}: ${SUPPORTED_VIDEO}` };
    switch (packetType) {
      case VideoPacket.SequenceStart:
        return this.config(codec, body.subarray(offset));
      case VideoPacket.CodedFrames: {
        // AV1 frames carry no composition time; H.264 and HEVC ones do here (CodedFramesX is the one without).
        if (codec === "av1") return this.frame(codec, body.subarray(offset), timestamp, 0, frameType === FRAME_KEY);
        if (offset + 3 > body.length) throw new FlvError("coded frames without a composition time");
        return this.frame(codec, body.subarray(offset + 3), timestamp, si24(body, offset), frameType === FRAME_KEY);
      }
      case VideoPacket.CodedFramesX:
        return this.frame(codec, body.subarray(offset), timestamp, 0, frameType === FRAME_KEY);
      case VideoPacket.SequenceEnd:
        return { kind: "skip" };
      default:
        return { kind: "unsupported", reason: `unsupported Enhanced RTMP video packet type ${packetType}` };
    }
  }

  private config(codec: VideoCodec, record: Uint8Array): VideoTag {
    const { size, nalLengthSize } = readRecord(codec, record);
    this.videoCodec = codec;
    this.nalLengthSize = nalLengthSize;
    return { kind: "config", config: { codec, record, width: size.width, height: size.height } };
  }

  private frame(codec: VideoCodec, data: Uint8Array, dts: number, cts: number, keyframe: boolean): VideoTag {
    if (data.length === 0) return { kind: "skip" };
    if (this.videoCodec !== codec) throw new FlvError(`${codec} frame before its sequence header`);
    if (codec !== "av1") checkLengthPrefixed(data, this.nalLengthSize);
    return { kind: "frame", frame: { dts, pts: dts + cts, keyframe, data } };
  }

  audio(body: Uint8Array, timestamp: number): AudioTag {
    if (body.length < 1) throw new FlvError("empty audio tag");
    const format = body[0]! >> 4;
    if (format === 9) return this.enhancedAudio(body, timestamp);
    if (format !== 10) {
      return { kind: "unsupported", reason: `unsupported audio codec ${AUDIO_FORMATS[format] ?? `FLV sound format ${format}`}: ${SUPPORTED_AUDIO}` };
    }
    if (body.length < 2) throw new FlvError("AAC audio tag shorter than its 2-byte header");
    const packetType = body[1]!;
    if (packetType === 0) return this.audioConfig(body.subarray(2));
    if (packetType === 1) return this.audioFrame(body.subarray(2), timestamp);
    throw new FlvError(`AAC packet type ${packetType} is not defined`);
  }

  private enhancedAudio(body: Uint8Array, timestamp: number): AudioTag {
    const packetType = body[0]! & 0x0f;
    if (packetType === 5) return { kind: "unsupported", reason: "unsupported multitrack audio (Enhanced RTMP v2): publish one audio track" };
    if (packetType === 7) return { kind: "unsupported", reason: "unsupported Enhanced RTMP audio modifier (ModEx)" };
    if (body.length < 5) throw new FlvError("Enhanced RTMP audio tag without its FourCC");
    const fourcc = String.fromCharCode(...body.subarray(1, 5));
    if (fourcc !== "mp4a") return { kind: "unsupported", reason: `unsupported audio codec ${printable(fourcc)}: ${SUPPORTED_AUDIO}` };
    if (packetType === 0) return this.audioConfig(body.subarray(5));
    if (packetType === 1) return this.audioFrame(body.subarray(5), timestamp);
    return { kind: "skip" };
  }

  private audioConfig(asc: Uint8Array): AudioTag {
    const { sampleRate, channels } = parseAudioSpecificConfig(asc);
    this.audioConfigured = true;
    return { kind: "config", config: { codec: "aac", asc, sampleRate, channels } };
  }

  private audioFrame(data: Uint8Array, dts: number): AudioTag {
    if (data.length === 0) return { kind: "skip" };
    if (!this.audioConfigured) throw new FlvError("AAC frame before its sequence header");
    return { kind: "frame", frame: { dts, data } };
  }
}

function readRecord(codec: VideoCodec, record: Uint8Array): { size: CodedSize; nalLengthSize: number } {
  if (codec === "h264") {
    if (record.length < 8 || record[0] !== 1) throw new FlvError("malformed AVCDecoderConfigurationRecord");
    const nalLengthSize = (record[4]! & 0x03) + 1;
    const spsCount = record[5]! & 0x1f;
    const spsLength = (record[6]! << 8) | record[7]!;
    if (spsCount < 1 || 8 + spsLength > record.length) throw new FlvError("AVCDecoderConfigurationRecord without a whole SPS");
    return { size: sizeOrZero(() => parseH264Sps(record.subarray(8, 8 + spsLength))), nalLengthSize };
  }
  if (codec === "hevc") {
    if (record.length < 23 || record[0] !== 1) throw new FlvError("malformed HEVCDecoderConfigurationRecord");
    const nalLengthSize = (record[21]! & 0x03) + 1;
    let sps: Uint8Array | undefined;
    let offset = 23;
    for (let i = 0; i < record[22]!; i++) {
      if (offset + 3 > record.length) throw new FlvError("truncated HEVCDecoderConfigurationRecord");
      const type = record[offset]! & 0x3f;
      const count = (record[offset + 1]! << 8) | record[offset + 2]!;
      offset += 3;
      for (let j = 0; j < count; j++) {
        if (offset + 2 > record.length) throw new FlvError("truncated HEVCDecoderConfigurationRecord");
        const length = (record[offset]! << 8) | record[offset + 1]!;
        offset += 2;
        if (offset + length > record.length) throw new FlvError("truncated HEVCDecoderConfigurationRecord");
        if (type === 33 && !sps) sps = record.subarray(offset, offset + length);
        offset += length;
      }
    }
    return { size: sps ? sizeOrZero(() => parseHevcSps(sps)) : { width: 0, height: 0 }, nalLengthSize };
  }
  if (record.length < 4 || record[0] !== 0x81) throw new FlvError("malformed AV1CodecConfigurationRecord");
  const configObus = record.subarray(4);
  return { size: configObus.length > 0 ? sizeOrZero(() => parseAv1SequenceHeader(configObus)) : { width: 0, height: 0 }, nalLengthSize: 4 };
}

function sizeOrZero(read: () => CodedSize): CodedSize {
  try {
    return read();
  } catch (error) {
    if (error instanceof SpsError) return { width: 0, height: 0 };
    throw error;
  }
}

/** A frame's NAL units must fill it exactly: a length that runs past the end is a corrupt frame. */
function checkLengthPrefixed(data: Uint8Array, lengthSize: number): void {
  let offset = 0;
  while (offset < data.length) {
    if (offset + lengthSize > data.length) throw new FlvError("NAL unit length cut off");
    let length = 0;
    for (let i = 0; i < lengthSize; i++) length = length * 256 + data[offset + i]!;
    offset += lengthSize + length;
    if (offset > data.length) throw new FlvError("NAL unit longer than its frame");
  }
}

const SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
const CHANNELS: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 8, 11: 7, 12: 8, 13: 24, 14: 8 };

/** Sample rate and channel count of an MPEG-4 AudioSpecificConfig (ISO 14496-3 §1.6.2.1). */
export function parseAudioSpecificConfig(asc: Uint8Array): { sampleRate: number; channels: number } {
  if (asc.length < 2) throw new FlvError("AudioSpecificConfig shorter than 2 bytes");
  let bit = 0;
  const read = (n: number): number => {
    let value = 0;
    for (let i = 0; i < n; i++, bit++) {
      const byte = asc[bit >> 3];
      if (byte === undefined) throw new FlvError("AudioSpecificConfig ends early");
      value = value * 2 + ((byte >> (7 - (bit & 7))) & 1);
    }
    return value;
  };
  let objectType = read(5);
  if (objectType === 31) objectType = 32 + read(6);
  if (objectType === 0) throw new FlvError("AudioSpecificConfig with object type 0");
  const index = read(4);
  const sampleRate = index === 15 ? read(24) : SAMPLE_RATES[index];
  if (!sampleRate) throw new FlvError(`AudioSpecificConfig with reserved sampling frequency index ${index}`);
  const channels = CHANNELS[read(4)] ?? 0;
  return { sampleRate, channels };
}

function si24(bytes: Uint8Array, offset: number): number {
  const value = (bytes[offset]! << 16) | (bytes[offset + 1]! << 8) | bytes[offset + 2]!;
  return value & 0x800000 ? value - 0x1000000 : value;
}

function printable(fourcc: string): string {
  return /^[\x20-\x7e]{4}$/.test(fourcc) ? `'${fourcc}'` : "(unprintable FourCC)";
}
