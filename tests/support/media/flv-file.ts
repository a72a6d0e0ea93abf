/**
 * Reads an FLV file (header, then tags) into the calls a `MediaSink` gets from a publish session: the file's
 * framing here, each tag's body through the ingest's own FLV tag reader, as the RTMP input reads them.
 */
import type { AudioConfig, AudioFrame, MediaSink, VideoConfig, VideoFrame } from "../../../src/media/stream.ts";
import { FlvDemuxer } from "../../../src/media/formats/flv.ts";

export type FlvEvent =
  { kind: "videoConfig"; config: VideoConfig } | { kind: "audioConfig"; config: AudioConfig } | { kind: "video"; frame: VideoFrame } | { kind: "audio"; frame: AudioFrame };

/** The file's media tags as sink calls, in file order. */
export function readFlv(bytes: Uint8Array): FlvEvent[] {
  if (bytes.length < 13 || String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!) !== "FLV") throw new Error("not an FLV file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const demuxer = new FlvDemuxer();
  const events: FlvEvent[] = [];
  let at = view.getUint32(5) + 4; // header, then PreviousTagSize0
  while (at + 11 <= bytes.length) {
    const type = bytes[at]! & 0x1f;
    const dataSize = (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    const timestamp = ((bytes[at + 7]! << 24) | (bytes[at + 4]! << 16) | (bytes[at + 5]! << 8) | bytes[at + 6]!) >>> 0;
    const body = bytes.subarray(at + 11, at + 11 + dataSize);
    at += 11 + dataSize + 4;
    if (type === 9) {
      const tag = demuxer.video(body, timestamp);
      if (tag.kind === "config") events.push({ kind: "videoConfig", config: tag.config });
      else if (tag.kind === "frame") events.push({ kind: "video", frame: tag.frame });
    } else if (type === 8) {
      const tag = demuxer.audio(body, timestamp);
      if (tag.kind === "config") events.push({ kind: "audioConfig", config: tag.config });
      else if (tag.kind === "frame") events.push({ kind: "audio", frame: tag.frame });
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
