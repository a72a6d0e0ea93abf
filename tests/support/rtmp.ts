/** What the RTMP ingest tests share: FFmpeg publishing the way OBS does, and a sink that records it all. */

import type { Subprocess } from "bun";
import net from "node:net";
import type { AudioConfig, AudioFrame, MediaSink, StreamMetadata, VideoConfig, VideoFrame } from "../../src/media/stream.ts";
import { type Amf0Value, decodeAmf0, encodeAmf0 } from "../../src/modules/ingest/rtmp/amf0.ts";
import { ChunkReader, ChunkWriter, MessageType, type RtmpMessage } from "../../src/modules/ingest/rtmp/chunks.ts";
import { eventually } from "./eventually.ts";

export const FFMPEG = Bun.which("ffmpeg");

export interface Recording {
  metadata: StreamMetadata[];
  videoConfigs: VideoConfig[];
  audioConfigs: AudioConfig[];
  video: VideoFrame[];
  audio: AudioFrame[];
  ended: string[];
}

export function recordingSink(): { sink: MediaSink; recording: Recording } {
  const recording: Recording = { metadata: [], videoConfigs: [], audioConfigs: [], video: [], audio: [], ended: [] };
  const sink: MediaSink = {
    metadata: (meta) => recording.metadata.push(meta),
    videoConfig: (config) => recording.videoConfigs.push(config),
    audioConfig: (config) => recording.audioConfigs.push(config),
    video: (frame) => recording.video.push(frame),
    audio: (frame) => recording.audio.push(frame),
    end: (reason) => recording.ended.push(reason),
  };
  return { sink, recording };
}

export interface PublishOptions {
  seconds?: number;
  size?: string;
  /** x264 options: the default is OBS's low-latency set (ultrafast, zerolatency: no B-frames). */
  video?: string[];
  /** Sent at the pace it is captured (the default, as OBS does); false: as fast as FFmpeg encodes it. */
  realTime?: boolean;
  /** Frames from one keyframe to the next (default 30: one a second). */
  gop?: number;
}

export interface Publisher {
  child: Subprocess;
  /** FFmpeg's exit code and what it printed on stderr (errors only). */
  done: Promise<{ code: number; stderr: string }>;
}

/** Runs FFmpeg as a publisher (a test picture and a tone, 30 fps, a keyframe every 30 frames). */
export function publish(url: string, options: PublishOptions = {}): Publisher {
  const video = options.video ?? ["-preset", "ultrafast", "-tune", "zerolatency"];
  const args = [
    FFMPEG!,
    "-hide_banner",
    "-loglevel",
    "error",
    "-nostdin",
    ...(options.realTime === false ? [] : ["-re"]),
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${options.size ?? "640x360"}:rate=30`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=1000:sample_rate=48000",
    "-t",
    String(options.seconds ?? 3),
    "-c:v",
    "libx264",
    ...video,
    "-pix_fmt",
    "yuv420p",
    "-g",
    String(options.gop ?? 30),
    "-keyint_min",
    String(options.gop ?? 30),
    "-sc_threshold",
    "0",
    "-b:v",
    "800k",
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    "-ar",
    "48000",
    "-ac",
    "2",
    "-f",
    "flv",
    url,
  ];
  const child = Bun.spawn(args, { stdout: "ignore", stderr: "pipe" });
  const stderr = new Response(child.stderr).text();
  return { child, done: child.exited.then(async (code) => ({ code, stderr: await stderr })) } satisfies Publisher;
}

/**
 * An Enhanced RTMP video tag as OBS 29.1+ sends it: the extended header (frame type 1 key or 2 inter; packet
 * type 0 SequenceStart, 1 CodedFrames, 2 SequenceEnd, 3 CodedFramesX), the codec's FourCC, then for
 * CodedFrames of 'hvc1' or 'avc1' the composition time, and the body.
 */
export function enhancedTag(frameType: 1 | 2, packetType: 0 | 1 | 2 | 3, fourCc: string, body: Uint8Array, compositionMs?: number): Uint8Array {
  const cts = compositionMs === undefined ? [] : [(compositionMs >> 16) & 0xff, (compositionMs >> 8) & 0xff, compositionMs & 0xff];
  return new Uint8Array([0x80 | (frameType << 4) | packetType, ...Buffer.from(fourCc, "latin1"), ...cts, ...body]);
}

/** The tag OBS sends for one frame: HEVC with its composition time (CodedFramesX when it is 0), AV1 without. */
export function enhancedFrameTag(codec: "hevc" | "av1", frame: VideoFrame): Uint8Array {
  const type = frame.keyframe ? 1 : 2;
  if (codec === "av1") return enhancedTag(type, 1, "av01", frame.data);
  const offset = frame.pts - frame.dts;
  return offset === 0 ? enhancedTag(type, 3, "hvc1", frame.data) : enhancedTag(type, 1, "hvc1", frame.data, offset);
}

/** A hand-driven RTMP client (no FFmpeg): for the orders and timings FFmpeg never produces. */
export class RawRtmpClient {
  readonly messages: RtmpMessage[] = [];
  closed = false;
  private readonly reader = new ChunkReader({ maxMessageBytes: 1 << 20, maxChunkStreams: 16, maxInFlightBytes: 1 << 21 });
  private readonly writer = new ChunkWriter();
  private handshakeBytes = 0;

  private constructor(readonly socket: net.Socket) {
    socket.on("data", (data: Buffer) => {
      let bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      if (this.handshakeBytes < 1 + 2 * 1536) {
        const take = Math.min(bytes.length, 1 + 2 * 1536 - this.handshakeBytes);
        this.handshakeBytes += take;
        bytes = bytes.subarray(take);
      }
      this.messages.push(...this.reader.push(bytes));
    });
    socket.on("error", () => {});
    socket.on("close", () => (this.closed = true));
  }

  /** `from`: the local address to connect from (any of 127.0.0.0/8 reaches a server on 127.0.0.1: another "host"). */
  static async open(port: number, handshake = true, from?: string): Promise<RawRtmpClient> {
    const socket = net.connect({ port, host: "127.0.0.1", ...(from ? { localAddress: from } : {}) });
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const client = new RawRtmpClient(socket);
    if (handshake) {
      socket.write(new Uint8Array(1 + 1536).fill(3, 0, 1));
      await eventually(() => client.handshakeBytes === 1 + 2 * 1536 || client.closed, 3000);
      socket.write(new Uint8Array(1536));
    }
    return client;
  }

  send(message: RtmpMessage): void {
    this.socket.write(this.writer.encode(message));
  }

  command(values: Amf0Value[], streamId = 0): void {
    this.send({ chunkStreamId: 3, type: MessageType.CommandAmf0, timestamp: 0, streamId, payload: encodeAmf0(values) });
  }

  /** connect, createStream and publish, as FFmpeg sends them. */
  async publish(key: string): Promise<void> {
    this.command(["connect", 1, { app: "live", type: "nonprivate", tcUrl: "rtmp://127.0.0.1/live" }]);
    this.command(["createStream", 2, null]);
    this.command(["publish", 3, null, key, "live"], 1);
    await eventually(() => this.statusCodes().length > 0 || this.closed, 3000);
  }

  /** The `code` of each onStatus received. */
  statusCodes(): string[] {
    return this.messages.flatMap((message) => {
      if (message.type !== MessageType.CommandAmf0) return [];
      const [name, , , info] = decodeAmf0(message.payload);
      return name === "onStatus" && info && typeof info === "object" && "code" in info ? [String(info.code)] : [];
    });
  }
}
