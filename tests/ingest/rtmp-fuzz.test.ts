/**
 * The RTMP ingest against hostile input: one real FFmpeg publish is recorded once (what the client sent,
 * read by read), then replayed 2,000 times mutated — bytes flipped, cut short, slices and reads repeated,
 * garbage inserted, reads dropped — over TCP in concurrent batches. The server must not crash or log an
 * unexpected failure, every accepted publish must end exactly once with sane timestamps, memory must
 * stay bounded, and a real FFmpeg publish must still work afterwards.
 */

import { expect, test } from "bun:test";
import net from "node:net";
import type { MediaSink } from "../../src/media/stream.ts";
import { startRtmpServer } from "../../src/modules/ingest/rtmp/server.ts";
import { recordingLogger } from "../support/logger.ts";
import { eventually } from "../support/eventually.ts";
import { FFMPEG, publish, recordingSink } from "../support/rtmp.ts";
import { prng } from "../support/prng.ts";

const SESSIONS = Number(process.env.FUZZ_SESSIONS ?? 2_000);
const BATCH = 25;
const KEY = "fuzzkey0"; // 8 characters: each session swaps in its own key of the same length

/** Records what an FFmpeg publish sends, read by read, by standing between it and a real server. */
async function recordSession(serverPort: number): Promise<Uint8Array[]> {
  const reads: Uint8Array[] = [];
  const recorder = net.createServer((client) => {
    const upstream = net.connect({ port: serverPort, host: "127.0.0.1" });
    client.on("data", (data: Buffer) => {
      reads.push(new Uint8Array(data));
      upstream.write(data);
    });
    upstream.on("data", (data: Buffer) => client.write(data));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => {});
    upstream.on("error", () => {});
  });
  await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve));
  const port = (recorder.address() as net.AddressInfo).port;
  const { code } = await publish(`rtmp://127.0.0.1:${port}/live/${KEY}`, { seconds: 1, size: "160x90" }).done;
  expect(code).toBe(0);
  await new Promise<void>((resolve) => recorder.close(() => resolve()));
  return reads;
}

function withKey(reads: Uint8Array[], key: string): Uint8Array[] {
  const from = new TextEncoder().encode(KEY);
  const to = new TextEncoder().encode(key);
  return reads.map((read, index) => {
    if (index > 8) return read; // the key travels in the commands, long before the media
    const copy = read.slice();
    for (let i = 0; i + from.length <= copy.length; i++) {
      if (from.every((byte, j) => copy[i + j] === byte)) copy.set(to, i);
    }
    return copy;
  });
}

function mutate(reads: Uint8Array[], kind: number, random: () => number): Uint8Array[] {
  const pick = (n: number) => Math.floor(random() * n);
  const out = [...reads];
  const index = pick(out.length);
  const read = out[index]!;
  switch (kind) {
    case 0: // flip bytes, mostly in the first reads where the handshake and commands are
      for (let i = 0, n = 1 + pick(8); i < n; i++) {
        const at = random() < 0.5 ? pick(Math.min(6, out.length)) : index;
        const target = (out[at] = out[at]!.slice());
        if (target.length) target[pick(target.length)] = pick(256);
      }
      return out;
    case 1: // cut short
      return [...out.slice(0, index), read.subarray(0, pick(read.length))];
    case 2: {
      // a slice repeated
      const start = pick(read.length);
      const end = Math.min(read.length, start + 1 + pick(512));
      out[index] = concat([read.subarray(0, end), read.subarray(start, end), read.subarray(end)]);
      return out;
    }
    case 3: // a whole read repeated (a second connect, publish, keyframe…)
      return [...out.slice(0, index + 1), read, ...out.slice(index + 1)];
    case 4: {
      // garbage inserted
      const garbage = Uint8Array.from({ length: 1 + pick(64) }, () => pick(256));
      const at = pick(read.length + 1);
      out[index] = concat([read.subarray(0, at), garbage, read.subarray(at)]);
      return out;
    }
    case 5: // a read dropped
      return [...out.slice(0, index), ...out.slice(index + 1)];
    default: // unchanged: accepted publishes keep happening between the broken ones
      return out;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Sends a session's reads as FFmpeg did (the first ones apart, so the server answers in between). */
async function replay(port: number, reads: Uint8Array[]): Promise<void> {
  const socket = net.connect({ port, host: "127.0.0.1" });
  socket.on("error", () => {});
  socket.on("data", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", resolve).once("close", resolve));
  for (let i = 0; i < reads.length && !socket.destroyed; i++) {
    socket.write(reads[i]!);
    if (i < 6) await Bun.sleep(1);
  }
  socket.end();
  await Promise.race([closed, Bun.sleep(3000)]);
  socket.destroy();
}

test.skipIf(!FFMPEG)(
  `${SESSIONS} mutated and truncated publish sessions leave the server running, bounded, and publishable`,
  async () => {
    const lines: string[] = [];
    const published: { ended: string[]; calls: string[] }[] = [];
    let tap: MediaSink | null = null; // where the last, real publish's media also goes
    const server = await startRtmpServer({
      port: 0,
      host: "127.0.0.1",
      logger: recordingLogger(lines),
      authorize: (app, key) => (app === "live" && key.startsWith("f") ? "ok" : "bad key"),
      // One address replays them all, 25 at a time: the per-address door is widened to let it (the flood test narrows it).
      limits: {
        maxPendingConnections: 32,
        maxPendingPerAddress: 32,
        connectionsPerAddressPerSecond: 1e6,
        addressMessagesPerSecond: 1e6,
        addressBytesPerSecond: 1e9,
        setupIdleTimeoutMs: 500,
        publishIdleTimeoutMs: 1000,
      },
      onPublish: (): MediaSink => {
        // Checks the sink contract on every call: nothing after end, dts never going back per track.
        const state = { ended: [] as string[], calls: [] as string[] };
        published.push(state);
        let lastVideo = -Infinity;
        let lastAudio = -Infinity;
        const live = (call: string) => {
          if (state.ended.length) state.calls.push(`${call} after end`);
        };
        const forward = tap;
        return {
          metadata: (meta) => {
            live("metadata");
            forward?.metadata(meta);
          },
          videoConfig: (config) => {
            live("videoConfig");
            forward?.videoConfig(config);
          },
          audioConfig: (config) => {
            live("audioConfig");
            forward?.audioConfig(config);
          },
          video: (frame) => {
            live("video");
            if (frame.dts < lastVideo) state.calls.push("video dts went back");
            lastVideo = frame.dts;
            forward?.video(frame);
          },
          audio: (frame) => {
            live("audio");
            if (frame.dts < lastAudio) state.calls.push("audio dts went back");
            lastAudio = frame.dts;
            forward?.audio(frame);
          },
          end: (reason) => {
            state.ended.push(reason);
            forward?.end(reason);
          },
        };
      },
    });
    try {
      const reads = await recordSession(server.port);
      expect(reads.length).toBeGreaterThan(6);
      Bun.gc(true);
      const heapBefore = process.memoryUsage().heapUsed;

      // Memory is sampled after a collection every 100 sessions: what the server keeps, not garbage not yet swept.
      const rss: number[] = [];
      const random = prng(20_261_125).next;
      for (let start = 0; start < SESSIONS; start += BATCH) {
        const batch: Promise<void>[] = [];
        for (let i = start; i < Math.min(SESSIONS, start + BATCH); i++) {
          const key = `f${String(i).padStart(KEY.length - 1, "0")}`;
          batch.push(replay(server.port, mutate(withKey(reads, key), i % 7, random)));
        }
        await Promise.all(batch);
        if ((start / BATCH) % 4 === 3) {
          Bun.gc(true);
          rss.push(process.memoryUsage().rss);
        }
      }

      const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
      console.log(`fuzz: ${SESSIONS} sessions, ${published.length} publishes accepted, RSS ${mib(rss[0]!)} → ${mib(Math.max(...rss))} MiB at most`);
      await eventually(() => server.connections().total === 0, 5000);
      expect(lines.filter((line) => line.startsWith("error"))).toEqual([]);
      expect(published.length).toBeGreaterThan(SESSIONS / 10);
      for (const state of published) {
        expect(state.ended).toHaveLength(1);
        expect(state.calls).toEqual([]);
      }
      expect(lines.some((line) => line.includes("protocol error"))).toBe(true);
      await Bun.sleep(1500); // sockets closed with end() are destroyed within a second at the latest
      Bun.gc(true);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(16 * 1024 * 1024);
      // The allocator keeps freed pages: RSS climbs while it warms up, then levels off (~150 MiB at 4,000 sessions).
      expect(Math.max(...rss) - rss[0]!).toBeLessThan(160 * 1024 * 1024);

      // Then a real publish, its media recorded through the same checking sink.
      const { sink, recording } = recordingSink();
      tap = sink;
      const { code } = await publish(`rtmp://127.0.0.1:${server.port}/live/${KEY}`, { seconds: 1, size: "160x90" }).done;
      expect(code).toBe(0);
      await eventually(() => recording.ended.length === 1, 3000);
      expect(recording.videoConfigs[0]).toMatchObject({ codec: "h264", width: 160, height: 90 });
      expect(recording.video.length).toBeGreaterThanOrEqual(25);
    } finally {
      await server.close();
    }
  },
  120_000,
);
