/**
 * Reads an FLV file (header, then tags) and hands its AVC/AAC sequence headers and frames to a `MediaSink`,
 * the way an RTMP input hands over a publish session. For tests only: the ingest's own FLV tag parser lives
 * with the RTMP server.
 */
import type { AudioConfig, AudioFrame, MediaSink, VideoConfig, VideoFrame } from "../../../src/modules/ingest/media.ts";

export type FlvEvent =
  | { kind: "videoConfig"; config: VideoConfig }
  | { kind: "audioConfig"; config: AudioConfig }
  | { kind: "video"; frame: VideoFrame }
  | { kind: "audio"; frame: AudioFrame };

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** Parses the file's tags into sink calls, in file order. `width`/`height`: the coded size (the test's ffmpeg command). */
export function readFlv(bytes: Uint8Array, size: { width: number; height: number }): FlvEvent[] {
  if (bytes.length < 13 || String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!) !== "FLV") throw new Error("not an FLV file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const events: FlvEvent[] = [];
  let at = view.getUint32(5) + 4; // header, then PreviousTagSize0
  while (at + 11 <= bytes.length) {
    const type = bytes[at]! & 0x1f;
    const dataSize = (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    const timestamp = ((bytes[at + 7]! << 24) | (bytes[at + 4]! << 16) | (bytes[at + 5]! << 8) | bytes[at + 6]!) >>> 0;
    const data = bytes.subarray(at + 11, at + 11 + dataSize);
    at += 11 + dataSize + 4;
    if (data.length < 2) continue;
    if (type === 9 && (data[0]! & 0x0f) === 7) {
      const keyframe = data[0]! >> 4 === 1;
      const cto = ((data[2]! << 24) | (data[3]! << 16) | (data[4]! << 8)) >> 8; // SI24
      const payload = data.subarray(5);
      if (data[1] === 0) events.push({ kind: "videoConfig", config: { codec: "h264", record: payload.slice(), ...size } });
      else if (data[1] === 1) events.push({ kind: "video", frame: { dts: timestamp, pts: timestamp + cto, keyframe, data: payload } });
    } else if (type === 8 && data[0]! >> 4 === 10) {
      const payload = data.subarray(2);
      if (data[1] === 0) {
        const sampleRate = AAC_RATES[((payload[0]! & 0x07) << 1) | (payload[1]! >> 7)] ?? 44100;
        const channels = (payload[1]! >> 3) & 0x0f;
        events.push({ kind: "audioConfig", config: { codec: "aac", asc: payload.slice(), sampleRate, channels } });
      } else events.push({ kind: "audio", frame: { dts: timestamp, data: payload } });
    }
  }
  return events;
}

/** Hands the events to the sink, timestamps shifted by `offsetMs`. */
export function feed(sink: MediaSink, events: FlvEvent[], offsetMs = 0): void {
  for (const event of events) {
    if (event.kind === "videoConfig") sink.videoConfig(event.config);
    else if (event.kind === "audioConfig") sink.audioConfig(event.config);
    else if (event.kind === "video") sink.video({ ...event.frame, dts: event.frame.dts + offsetMs, pts: event.frame.pts + offsetMs });
    else sink.audio({ ...event.frame, dts: event.frame.dts + offsetMs });
  }
}
