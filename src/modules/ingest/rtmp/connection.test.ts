/**
 * The RTMP connection without a socket: it is I/O-free, so these feed it bytes through a fake transport the
 * test holds, as a publisher would send them, and read what it writes back — the handshake, the replies to
 * connect / createStream / publish, a wrong key and a second publisher refused, media handed to the sink,
 * and bytes that are not RTMP ending the connection without a throw.
 */
import { describe, expect, test } from "bun:test";
import { silentLogger } from "../../../lib/logger.ts";
import type { AudioConfig, AudioFrame, MediaSink, VideoConfig, VideoFrame } from "../../../media/stream.ts";
import { decodeAmf0, encodeAmf0, type Amf0Value } from "./amf0.ts";
import { ChunkReader, ChunkWriter, MessageType, type RtmpMessage } from "./chunks.ts";
import { RtmpConnection, type AuthorizeResult, type ConnectionHooks, type RtmpTransport } from "./connection.ts";
import { DEFAULT_RTMP_LIMITS } from "./limits.ts";

const quiet = silentLogger;

/** What the connection wrote, read back as a client reads it: past the server's handshake (S0, S1, S2), its messages. */
class FakeTransport implements RtmpTransport {
  readonly remoteAddress = "192.0.2.7";
  written: Uint8Array[] = [];
  ended = false;
  paused: number[] = [];
  private readonly reader = new ChunkReader({ maxMessageBytes: 1 << 20, maxChunkStreams: 16, maxInFlightBytes: 1 << 21 });
  private handshakeLeft = 1 + 2 * 1536;
  readonly messages: RtmpMessage[] = [];

  write(data: Uint8Array): void {
    this.written.push(data);
    let bytes = data;
    if (this.handshakeLeft > 0) {
      const take = Math.min(bytes.length, this.handshakeLeft);
      this.handshakeLeft -= take;
      bytes = bytes.subarray(take);
    }
    if (bytes.length > 0) this.messages.push(...this.reader.push(bytes));
  }
  pause(ms: number, resumed: () => void): void {
    this.paused.push(ms);
    queueMicrotask(resumed);
  }
  end(): void {
    this.ended = true;
  }
  get handshakeDone(): boolean {
    return this.handshakeLeft === 0;
  }
  /** The `code` of each onStatus written, in order. */
  statusCodes(): string[] {
    return this.messages.flatMap((m) => {
      if (m.type !== MessageType.CommandAmf0) return [];
      const [name, , , info] = decodeAmf0(m.payload);
      return name === "onStatus" && info && typeof info === "object" && "code" in info ? [String((info as { code: unknown }).code)] : [];
    });
  }
  /** The names of the commands written (`_result`, `onStatus`, …). */
  commandNames(): string[] {
    return this.messages.filter((m) => m.type === MessageType.CommandAmf0).map((m) => String(decodeAmf0(m.payload)[0]));
  }
}

/** What the sink was handed. */
function recordingSink() {
  const got = { videoConfigs: [] as VideoConfig[], audioConfigs: [] as AudioConfig[], video: [] as VideoFrame[], audio: [] as AudioFrame[], ended: [] as string[] };
  const sink: MediaSink = {
    metadata() {},
    videoConfig: (c) => void got.videoConfigs.push(c),
    audioConfig: (c) => void got.audioConfigs.push(c),
    video: (f) => void got.video.push(f),
    audio: (f) => void got.audio.push(f),
    end: (reason) => void got.ended.push(reason),
  };
  return { sink, got };
}

function hooks(options: { authorize?: AuthorizeResult; claim?: boolean } = {}) {
  const calls = { wrongKeys: 0, claimed: [] as string[], released: [] as string[], closed: 0, published: 0, keys: [] as string[] };
  const { sink, got } = recordingSink();
  const h: ConnectionHooks = {
    authorize: (_app, key) => {
      calls.keys.push(key);
      return options.authorize ?? "ok";
    },
    onPublish: () => {
      calls.published++;
      return sink;
    },
    claim: (name) => {
      calls.claimed.push(name);
      return options.claim ?? true;
    },
    release: (name) => void calls.released.push(name),
    spend: () => true,
    waitMs: () => 0,
    onWrongKey: () => void calls.wrongKeys++,
    onPublishing() {},
    log() {},
    onClosed: () => void calls.closed++,
  };
  return { hooks: h, calls, got };
}

/** A client's side: C0+C1, then C2 once S0–S2 came, then chunked messages. */
class Client {
  private readonly writer = new ChunkWriter();
  constructor(private readonly connection: RtmpConnection) {}
  handshake(): void {
    this.connection.receive(new Uint8Array(1 + 1536).fill(3, 0, 1));
    this.connection.receive(new Uint8Array(1536));
  }
  send(message: RtmpMessage): void {
    this.connection.receive(this.writer.encode(message));
  }
  command(values: Amf0Value[], streamId = 0): void {
    this.send({ chunkStreamId: 3, type: MessageType.CommandAmf0, timestamp: 0, streamId, payload: encodeAmf0(values) });
  }
  publish(key: string): void {
    this.command(["connect", 1, { app: "live", type: "nonprivate", tcUrl: "rtmp://127.0.0.1/live" }]);
    this.command(["createStream", 2, null]);
    this.command(["publish", 3, null, key, "live"], 1);
  }
}

/** An AVC sequence header (avcC of a baseline stream of 20 × 13 macroblocks, no cropping: 320×208) and one keyframe, as FLV video tags. */
const AVC_CONFIG = Uint8Array.from([
  0x17, 0x00, 0x00, 0x00, 0x00, 0x01, 0x42, 0xc0, 0x0d, 0xff, 0xe1, 0x00, 0x17, 0x67, 0x42, 0xc0, 0x0d, 0xda, 0x05, 0x06, 0xe8, 0x40, 0x00, 0x00, 0x03, 0x00, 0x40, 0x00, 0x00,
  0x0f, 0x03, 0xc5, 0x0a, 0xa8, 0x01, 0x00, 0x04, 0x68, 0xce, 0x3c, 0x80,
]);
const keyframe = (compositionMs = 0) => Uint8Array.from([0x17, 0x01, 0x00, 0x00, compositionMs, 0x00, 0x00, 0x00, 0x02, 0x65, 0x88]);
const AAC_CONFIG = Uint8Array.from([0xaf, 0x00, 0x11, 0x90]);
const aacFrame = Uint8Array.from([0xaf, 0x01, 0x21, 0x00, 0x49, 0x90]);

const open = (options?: Parameters<typeof hooks>[0]) => {
  const transport = new FakeTransport();
  const h = hooks(options);
  const connection = new RtmpConnection(1, transport, DEFAULT_RTMP_LIMITS, h.hooks, quiet);
  return { transport, connection, client: new Client(connection), ...h };
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("an RTMP connection through a fake transport", () => {
  test("answers the handshake with S0, S1 and S2, then the connect, createStream and publish as a server does", async () => {
    const { transport, client, calls } = open();
    client.handshake();
    expect(transport.handshakeDone).toBe(true);
    expect(transport.written[0]![0]).toBe(3);
    client.publish("the-key");
    await settle();
    expect(calls.keys).toEqual(["the-key"]);
    expect(transport.commandNames()).toContain("_result");
    expect(transport.statusCodes()).toEqual(["NetStream.Publish.Start"]);
    expect(calls.published).toBe(1);
    expect(calls.claimed).toEqual(["live/the-key"]);
  });

  test("hands the media to the sink: the configs, then each frame with its time", async () => {
    const { client, got } = open();
    client.handshake();
    client.publish("k");
    await settle();
    client.send({ chunkStreamId: 6, type: MessageType.Video, timestamp: 0, streamId: 1, payload: AVC_CONFIG });
    client.send({ chunkStreamId: 4, type: MessageType.Audio, timestamp: 0, streamId: 1, payload: AAC_CONFIG });
    client.send({ chunkStreamId: 6, type: MessageType.Video, timestamp: 0, streamId: 1, payload: keyframe() });
    client.send({ chunkStreamId: 4, type: MessageType.Audio, timestamp: 21, streamId: 1, payload: aacFrame });
    client.send({ chunkStreamId: 6, type: MessageType.Video, timestamp: 33, streamId: 1, payload: keyframe(0) });
    await settle();
    expect(got.videoConfigs.map((c) => [c.codec, c.width, c.height])).toEqual([["h264", 320, 208]]);
    expect(got.audioConfigs.map((c) => [c.codec, c.sampleRate, c.channels])).toEqual([["aac", 48_000, 2]]);
    expect(got.video.map((f) => [f.dts, f.keyframe])).toEqual([
      [0, true],
      [33, true],
    ]);
    expect(got.audio.map((f) => f.dts)).toEqual([21]);
  });

  test("a wrong key is refused and counted; nothing is published", async () => {
    const { transport, client, calls } = open({ authorize: "bad key" });
    client.handshake();
    client.publish("wrong");
    await settle();
    expect(calls.wrongKeys).toBe(1);
    expect(calls.published).toBe(0);
    expect(transport.statusCodes()).toEqual(["NetStream.Publish.BadName"]);
  });

  test("a second publisher while one is live is refused", async () => {
    const { transport, client, calls } = open({ authorize: "busy" });
    client.handshake();
    client.publish("k");
    await settle();
    expect(calls.published).toBe(0);
    expect(transport.statusCodes().length).toBe(1);
    expect(transport.statusCodes()[0]).not.toBe("NetStream.Publish.Start");
  });

  test("bytes that are not RTMP end the connection without a throw, and it says so once", () => {
    const { transport, connection, calls } = open();
    expect(() => connection.receive(Uint8Array.from([0x16, 0x03, 0x01, 0x00]))).not.toThrow();
    expect(() => connection.receive(new Uint8Array(4000).fill(0xff))).not.toThrow();
    expect(transport.ended || connection.isClosed()).toBe(true);
    connection.closed();
    expect(calls.closed).toBe(1);
  });

  test("the publisher leaving ends the sink and lets the key go", async () => {
    const { connection, client, got, calls } = open();
    client.handshake();
    client.publish("k");
    await settle();
    connection.closed();
    expect(got.ended.length).toBe(1);
    expect(calls.released).toEqual(["live/k"]);
  });
});
