/**
 * FFmpeg 5.1 publishes to the RTMP ingest the way OBS does (simple handshake, releaseStream/FCPublish,
 * chunk size 4096, @setDataFrame onMetaData, H.264 + AAC) and the sink receives what the packager needs.
 */

import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MediaSink } from "../../src/media/stream.ts";
import { type AuthorizeResult, type PublishSession, type RtmpLimits, type RtmpServer, RtmpPortInUseError, startRtmpServer } from "../../src/modules/ingest/rtmp/server.ts";
import { encodeAmf0 } from "../../src/modules/ingest/rtmp/amf0.ts";
import { ChunkWriter, control, MessageType, readU32 } from "../../src/modules/ingest/rtmp/chunks.ts";
import { recordingLogger } from "../support/logger.ts";
import { eventually } from "../support/eventually.ts";
import { FFMPEG, publish, RawRtmpClient, type Recording, recordingSink } from "../support/rtmp.ts";
import { OPENSSL, selfSignedCertificate } from "../support/certificate.ts";

if (FFMPEG && !OPENSSL) console.log("SKIPPED: the RTMPS test (no openssl to make its certificate)");
if (!FFMPEG) console.log("SKIPPED: the RTMP ingest tests with FFmpeg as publisher (no ffmpeg; apt-get install ffmpeg)");

const KEY = "sk_live_4f9a2c";
let server: RtmpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rightKey = (app: string, key: string): AuthorizeResult => (app === "live" && key === KEY ? "ok" : "bad key");

async function start({
  authorize = rightKey,
  limits,
  tls,
  trustProxy,
}: { authorize?: typeof rightKey; limits?: Partial<RtmpLimits>; tls?: { cert: string; key: string }; trustProxy?: string[] } = {}) {
  const lines: string[] = [];
  const recordings: Recording[] = [];
  const sessions: PublishSession[] = [];
  server = await startRtmpServer({
    port: 0,
    host: "127.0.0.1",
    logger: recordingLogger(lines),
    authorize,
    limits,
    tls,
    trustProxy,
    onPublish: (session): MediaSink => {
      sessions.push(session);
      const { sink, recording } = recordingSink();
      recordings.push(recording);
      return sink;
    },
  });
  return { server, lines, recordings, sessions, url: (key = KEY) => `${tls ? "rtmps" : "rtmp"}://127.0.0.1:${server!.port}/live/${key}` };
}

/** A self-signed certificate for localhost, as PEM text (its files made and removed again). */
function localhostCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), "dreadcast-rtmps-"));
  try {
    selfSignedCertificate(dir, "localhost");
    return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function expectMonotonic(recording: Recording) {
  for (let i = 1; i < recording.video.length; i++) expect(recording.video[i]!.dts).toBeGreaterThan(recording.video[i - 1]!.dts);
  for (let i = 1; i < recording.audio.length; i++) expect(recording.audio[i]!.dts).toBeGreaterThan(recording.audio[i - 1]!.dts);
  for (const frame of recording.video) expect(frame.pts).toBeGreaterThanOrEqual(frame.dts);
}

describe.skipIf(!FFMPEG)("RTMP ingest with FFmpeg publishing", () => {
  test("a 3-second H.264/AAC publish arrives whole: configs, ~90 video and ~140 audio frames, a keyframe every 30", async () => {
    const { lines, recordings, sessions, url } = await start();
    const { code, stderr } = await publish(url()).done;
    expect(stderr).toBe("");
    expect(code).toBe(0);
    await eventually(() => recordings[0]?.ended.length === 1, 3000);
    const recording = recordings[0]!;

    expect(recording.videoConfigs).toHaveLength(1);
    expect(recording.videoConfigs[0]).toMatchObject({ codec: "h264", width: 640, height: 360 });
    expect(recording.videoConfigs[0]!.record[0]).toBe(1); // AVCDecoderConfigurationRecord version
    expect(recording.audioConfigs).toEqual([expect.objectContaining({ codec: "aac", sampleRate: 48000, channels: 2 })]);
    expect(recording.metadata[0]).toMatchObject({ width: 640, height: 360, framerate: 30, audioSampleRate: 48000, audioChannels: 2 });

    expect(recording.video.length).toBeGreaterThanOrEqual(85);
    expect(recording.video.length).toBeLessThanOrEqual(95);
    expect(recording.audio.length).toBeGreaterThanOrEqual(130);
    expect(recording.audio.length).toBeLessThanOrEqual(150);
    const keyframes = recording.video.flatMap((frame, i) => (frame.keyframe ? [i] : []));
    expect(keyframes.length).toBeGreaterThanOrEqual(3);
    for (const index of keyframes) expect(index % 30).toBe(0);
    expectMonotonic(recording);
    for (const frame of recording.video) expect(frame.pts).toBe(frame.dts); // zerolatency: no B-frames
    expect(recording.ended).toEqual(["unpublished"]);

    const stats = sessions[0]!.stats();
    expect(stats.videoFrames).toBe(recording.video.length);
    expect(stats.videoFps).toBeCloseTo(30, 0);
    expect(stats.keyframeIntervalSeconds).toBeCloseTo(1, 1);
    expect(stats.bytesIn).toBeGreaterThan(200_000);
    expect(stats.bitrateKbps).toBeGreaterThan(300);
    expect(lines.join("\n")).not.toContain(KEY);
    expect(lines.filter((line) => line.startsWith("error"))).toEqual([]);
  }, 20_000);

  test("with B-frames (x264 medium, 2 B-frames) pts runs ahead of dts by the composition offsets, dts stays monotonic", async () => {
    const { recordings, url } = await start();
    const { code } = await publish(url(), { seconds: 2, size: "320x180", video: ["-preset", "medium", "-bf", "2"] }).done;
    expect(code).toBe(0);
    await eventually(() => recordings[0]?.ended.length === 1, 3000);
    const recording = recordings[0]!;
    expect(recording.videoConfigs[0]).toMatchObject({ codec: "h264", width: 320, height: 180 });
    expect(recording.video.length).toBeGreaterThanOrEqual(55);
    expectMonotonic(recording);
    expect(recording.video.filter((frame) => frame.pts > frame.dts).length).toBeGreaterThan(recording.video.length / 2);
    // Presentation order is a permutation of 33 ms steps: sorted, the pts are evenly spaced again.
    const pts = recording.video.map((frame) => frame.pts).sort((a, b) => a - b);
    for (let i = 1; i < pts.length; i++) expect(pts[i]! - pts[i - 1]!).toBeLessThanOrEqual(34);
  }, 30_000);

  test("a wrong stream key is refused: FFmpeg exits non-zero, nothing reaches a sink, the key is not logged", async () => {
    const { lines, recordings, url } = await start();
    const { code, stderr } = await publish(url("wrong-key-123"), { seconds: 1, size: "160x90" }).done;
    expect(code).not.toBe(0);
    expect(stderr).toContain("Stream key refused");
    expect(recordings).toEqual([]);
    expect(lines.some((line) => line.includes("publish refused"))).toBe(true);
    expect(lines.join("\n")).not.toContain("wrong-key-123");
  }, 15_000);

  test("a second publisher on the same key is refused while the first is live; the first carries on", async () => {
    const { recordings, url } = await start();
    const first = publish(url(), { seconds: 3, size: "160x90" });
    await eventually(() => (recordings[0]?.video.length ?? 0) > 5, 10_000);
    const second = await publish(url(), { seconds: 1, size: "160x90" }).done;
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain("Another publisher is live");
    expect((await first.done).code).toBe(0);
    expect(recordings).toHaveLength(1);
    expect(recordings[0]!.video.length).toBeGreaterThanOrEqual(85);
  }, 20_000);

  test.skipIf(!OPENSSL)(
    "RTMPS: the same publish over TLS",
    async () => {
      const tls = localhostCertificate();
      const { recordings, url } = await start({ tls });
      expect(url()).toStartWith("rtmps://");
      const { code } = await publish(url(), { seconds: 1, size: "160x90" }).done;
      expect(code).toBe(0);
      await eventually(() => recordings[0]?.ended.length === 1, 3000);
      expect(recordings[0]!.videoConfigs[0]).toMatchObject({ codec: "h264", width: 160, height: 90 });
      expect(recordings[0]!.video.length).toBeGreaterThanOrEqual(25);
    },
    15_000,
  );

  test.skipIf(!OPENSSL)(
    "behind a trusted TCP proxy that sends the PROXY header, the door counts the client it names: RTMP and RTMPS publish through it, wrong keys hold only their sender",
    async () => {
      const tls = localhostCertificate();
      const plain = await start({ trustProxy: ["127.0.0.1"] });
      const plainServer = plain.server;
      server = undefined; // this test closes its two servers itself
      const secure = await start({ tls, trustProxy: ["127.0.0.1"] });
      const secureServer = secure.server;
      server = undefined;
      // nginx's `proxy_protocol on;` in a stream block: a v1 line naming the client, then its bytes.
      let client = "203.0.113.9";
      const proxies = [plainServer.port, secureServer.port].map((port) =>
        net.createServer((socket) => {
          const upstream = net.connect({ port, host: "127.0.0.1" }, () => {
            upstream.write(`PROXY TCP4 ${client} 192.0.2.1 ${socket.remotePort} 1935\r\n`);
            socket.pipe(upstream).pipe(socket);
          });
          socket.on("error", () => upstream.destroy());
          upstream.on("error", () => socket.destroy());
        }),
      );
      await Promise.all(proxies.map((proxy) => new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))));
      const [plainPort, securePort] = proxies.map((proxy) => (proxy.address() as net.AddressInfo).port);
      try {
        expect((await publish(`rtmp://127.0.0.1:${plainPort}/live/${KEY}`, { seconds: 1, size: "160x90" }).done).code).toBe(0);
        expect((await publish(`rtmps://localhost:${securePort}/live/${KEY}`, { seconds: 1, size: "160x90" }).done).code).toBe(0);
        await eventually(() => plain.recordings[0]?.ended.length === 1 && secure.recordings[0]?.ended.length === 1, 3000);
        expect(plain.sessions[0]!.remoteAddress).toBe("203.0.113.9");
        expect(secure.sessions[0]!.remoteAddress).toBe("203.0.113.9");
        // Six wrong keys from one client behind the proxy: that client waits, another one behind it does not.
        client = "198.51.100.66";
        for (let i = 0; i < 6; i++) expect((await publish(`rtmp://127.0.0.1:${plainPort}/live/wrong${i}`, { seconds: 1, size: "160x90" }).done).code).not.toBe(0);
        expect(plainServer.wrongKeys()).toEqual([{ address: "198.51.100.66", attempts: 5, waitMs: expect.any(Number) }]);
        expect(plainServer.wrongKeys()[0]!.waitMs).toBeGreaterThan(5000);
        client = "203.0.113.9";
        expect((await publish(`rtmp://127.0.0.1:${plainPort}/live/${KEY}`, { seconds: 1, size: "160x90" }).done).code).toBe(0);
        // Straight from the trusted address, without a header: its own address, as before.
        const direct = await RawRtmpClient.open(plainServer.port);
        await direct.publish("wrong-direct");
        direct.socket.destroy();
        expect(plainServer.wrongKeys().map((report) => report.address)).toEqual(["198.51.100.66", "127.0.0.1"]);
        // A header from anyone not trusted is only a bad handshake.
        const untrusted = await start();
        const raw = await RawRtmpClient.open(untrusted.server.port, false);
        raw.socket.write("PROXY TCP4 203.0.113.9 192.0.2.1 1 1935\r\n");
        await eventually(() => raw.closed, 3000);
        expect(untrusted.lines.join("\n")).toContain("RTMP version 80 is not supported");
      } finally {
        for (const proxy of proxies) proxy.close();
        await plainServer.close();
        await secureServer.close();
      }
    },
    30_000,
  );

  test("the application's own 'busy' is a refusal too", async () => {
    const { recordings, url } = await start({ authorize: () => "busy" });
    const { code, stderr } = await publish(url(), { seconds: 1, size: "160x90" }).done;
    expect(code).not.toBe(0);
    expect(stderr).toContain("Another publisher is live");
    expect(recordings).toEqual([]);
  }, 15_000);
});

describe("RTMP ingest with a hand-driven client", () => {
  test("a port already taken is a typed error", async () => {
    const { server: first } = await start();
    const error = await startRtmpServer({ port: first.port, host: "127.0.0.1", logger: recordingLogger([]), authorize: () => "ok", onPublish: () => recordingSink().sink }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RtmpPortInUseError);
    expect((error as RtmpPortInUseError).port).toBe(first.port);
  });

  test("a play request is refused: this server only ingests", async () => {
    const { server, recordings } = await start();
    const client = await RawRtmpClient.open(server.port);
    client.command(["connect", 1, { app: "live" }]);
    client.command(["play", 0, null, KEY], 1);
    await eventually(() => client.closed, 3000);
    expect(client.statusCodes()).toEqual(["NetStream.Play.Failed"]);
    expect(recordings).toEqual([]);
  });

  test("commands before connect and media before publish are dropped with one log line each", async () => {
    const { server, lines, recordings } = await start();
    const client = await RawRtmpClient.open(server.port);
    client.command(["publish", 3, null, KEY, "live"], 1);
    client.command(["connect", 1, { app: "live" }]);
    for (let i = 0; i < 3; i++) client.send({ chunkStreamId: 6, type: 9, timestamp: i * 33, streamId: 1, payload: Uint8Array.of(0x17, 1, 0, 0, 0) });
    await client.publish(KEY);
    expect(client.statusCodes()).toEqual(["NetStream.Publish.Start"]);
    expect(lines.filter((line) => line.includes("dropped"))).toEqual([
      expect.stringContaining('dropped "publish" before connect'),
      expect.stringContaining("dropped media before publish"),
      expect.stringContaining("dropped a second connect"), // client.publish connects again
    ]);
    expect(recordings).toHaveLength(1);
    client.socket.destroy();
    await eventually(() => recordings[0]!.ended.length === 1, 3000);
    expect(recordings[0]!.ended).toEqual(["disconnected"]);
  });

  test("a publisher that stalls is dropped after the idle timeout and its sink ended", async () => {
    const { server, recordings } = await start({ limits: { publishIdleTimeoutMs: 400 } });
    const client = await RawRtmpClient.open(server.port);
    await client.publish(KEY);
    expect(recordings).toHaveLength(1);
    await eventually(() => client.closed, 3000);
    expect(recordings[0]!.ended).toEqual([expect.stringMatching(/^timeout: no data/)]);
    expect(server.connections().total).toBe(0);
  });

  test("connections that never publish are bounded, timed out, and then a publisher gets in", async () => {
    const { server, recordings } = await start({ limits: { maxPendingConnections: 4, setupIdleTimeoutMs: 300 } });
    const idle = await Promise.all(Array.from({ length: 10 }, () => RawRtmpClient.open(server.port, false)));
    await eventually(() => idle.filter((client) => client.closed).length >= 6, 3000);
    expect(server.connections().total).toBeLessThanOrEqual(4);
    await eventually(() => idle.every((client) => client.closed) && server.connections().total === 0, 3000);
    const client = await RawRtmpClient.open(server.port);
    await client.publish(KEY);
    expect(client.statusCodes()).toEqual(["NetStream.Publish.Start"]);
    expect(recordings).toHaveLength(1);
    client.socket.destroy();
  });

  test("a client dripping handshake bytes is closed at the setup deadline although never silent", async () => {
    const { server, lines } = await start({ limits: { setupIdleTimeoutMs: 300, setupDeadlineMs: 800 } });
    const client = await RawRtmpClient.open(server.port, false);
    const opened = Date.now();
    client.socket.write(Uint8Array.of(3));
    while (!client.closed && Date.now() - opened < 3000) {
      client.socket.write(Uint8Array.of(0));
      await Bun.sleep(100);
    }
    expect(client.closed).toBe(true);
    expect(Date.now() - opened).toBeLessThan(2000);
    expect(lines.some((line) => line.includes("closed: no publish in time"))).toBe(true);
  });

  /** Allowances before a publish high enough for a test about something else. */
  const UNMETERED: Partial<RtmpLimits> = { setupMessagesPerSecond: 1e6, setupBytesPerSecond: 1e9, addressMessagesPerSecond: 1e6, addressBytesPerSecond: 1e9 };

  test("the server acknowledges received bytes each time the window the client set fills", async () => {
    const { server } = await start({ limits: UNMETERED });
    const client = await RawRtmpClient.open(server.port);
    client.send(control.windowAckSize(5000));
    client.command(["connect", 1, { app: "live" }]);
    // Two windows' worth, sent apart: bytes that arrive in one read are acknowledged once, with their total.
    const acknowledged = () => client.messages.filter((message) => message.type === MessageType.Acknowledgement).length;
    for (let i = 0; i < 20; i++) client.command(["_checkbw", 10 + i, null, "x".repeat(300)]);
    await eventually(() => acknowledged() >= 1, 3000);
    for (let i = 20; i < 40; i++) client.command(["_checkbw", 10 + i, null, "x".repeat(300)]);
    await eventually(() => acknowledged() >= 2, 3000);
    const acks = client.messages.filter((message) => message.type === MessageType.Acknowledgement).map((message) => readU32(message.payload, 0));
    expect(acks.length).toBeGreaterThanOrEqual(2);
    expect(acks[0]).toBeGreaterThanOrEqual(5000);
    expect(acks[1]! - acks[0]!).toBeGreaterThanOrEqual(5000);
    client.socket.destroy();
  });

  test("a client that asks without reading the answers is dropped before its replies pile up", async () => {
    const { server, lines } = await start({ limits: UNMETERED });
    const client = await RawRtmpClient.open(server.port);
    client.command(["connect", 1, { app: "live" }]);
    client.socket.pause();
    const writer = new ChunkWriter();
    const ask = writer.encode({ chunkStreamId: 3, type: MessageType.CommandAmf0, timestamp: 0, streamId: 0, payload: encodeAmf0(["createStream", 2, null]) });
    const flood = new Uint8Array(ask.length * 20_000);
    for (let i = 0; i < 20_000; i++) flood.set(ask, i * ask.length);
    for (let i = 0; i < 30 && !client.closed; i++) {
      client.socket.write(flood);
      await Bun.sleep(50);
    }
    await eventually(() => lines.some((line) => line.includes("does not read what it is sent")), 5000);
    expect(server.connections().total).toBe(0);
    client.socket.destroy();
  }, 15_000);

  test("a handshake with another RTMP version (6, encrypted) ends the connection", async () => {
    const { server, lines } = await start();
    const client = await RawRtmpClient.open(server.port, false);
    client.socket.write(new Uint8Array(1537).fill(6, 0, 1));
    await eventually(() => client.closed, 3000);
    expect(lines.some((line) => line.includes("RTMP version 6 is not supported"))).toBe(true);
  });
});
