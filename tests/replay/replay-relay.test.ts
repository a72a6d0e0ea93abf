/**
 * The night after, with the HLS relay as the stream source: FFmpeg writes a live sliding playlist (fMP4 or
 * MPEG-TS) that a local origin serves, the app follows it through its relay and keeps every segment as it
 * came, one recording per continuous run; the replay's VOD playlist plays them (ffprobe reads it through
 * the session gate) and the panel downloads each as one MP4 (MPEG-TS remuxed in process).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RelayRecorder } from "../../src/modules/replay/relay-recorder.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { hlsEncoderArgs } from "../support/hls-encoder.mjs";
import { startHlsOrigin, type HlsOrigin } from "../support/hls-origin.mjs";
import { enter } from "../support/viewer.ts";
import { FFMPEG, FFPROBE, mediaDir, mediaToolsMissing, probeFrames } from "../support/media/media-tools.ts";

if (mediaToolsMissing) console.log(`SKIPPED: the replay of the relay (${mediaToolsMissing})`);

let app: TestApp;
let admin: TestClient;
let dir = "";
const origins: HlsOrigin[] = [];

beforeAll(async () => {
  if (mediaToolsMissing) return;
  dir = mediaDir();
  // The origin runs on this machine, beside the server.
  app = await startTestApp({ allowPrivateOrigins: true });
  admin = await loginAsAdmin(app);
});
afterEach(async () => {
  if (!app) return;
  await Promise.all(origins.splice(0).map((o) => o.stop()));
  for (const { id } of await recordings()) expect((await admin.request("DELETE", `/api/admin/recordings/${id}`)).status).toBe(200);
  expect((await admin.put("/api/admin/livestream-settings", { isActive: true })).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Recording {
  id: number;
  state: string;
  segments: number;
  durationS: number;
  width: number;
  height: number;
  bytes: number;
}

const recordings = async (): Promise<Recording[]> => (await admin.get("/api/admin/recordings")).body.recordings;
const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
const get = (client: TestClient, path: string, headers: Record<string, string> = {}) => fetch(app.url + path, { headers: { cookie: cookieOf(client), ...headers } });

/** FFmpeg as a live HLS origin's encoder: `seconds` of 640x360 picture and tone in 1 s segments, written as it goes. */
async function encode(out: string, o: { seconds: number; type: "fmp4" | "mpegts"; prefix: string; listSize: number; flags: string[] }): Promise<void> {
  mkdirSync(out, { recursive: true });
  const encoder = Bun.spawn([FFMPEG, ...hlsEncoderArgs(out, o)], { stdout: "ignore", stderr: "pipe" });
  const code = await encoder.exited;
  if (code !== 0) throw new Error(`ffmpeg failed: ${await new Response(encoder.stderr).text()}`);
}

/** The segment files FFmpeg published into a directory. */
const published = (out: string, prefix: string) => readdirSync(out).filter((name) => new RegExp(`^${prefix}\\d+\\.(m4s|ts)$`).test(name)).length;

async function relayFrom(liveDir: string, port?: number): Promise<HlsOrigin> {
  const origin = await startHlsOrigin({ liveDir, ...(port ? { port } : {}) });
  origins.push(origin);
  return origin;
}

async function useOrigin(origin: HlsOrigin): Promise<void> {
  expect((await admin.put("/api/admin/stream-source", { kind: "hls", originUrl: origin.playlistUrl })).status).toBe(200);
}

async function passHolder(name: string): Promise<TestClient> {
  const client = app.client();
  const code = await app.ctx.access.issueAccessCode("SKP");
  expect((await enter(client, code.code, name)).status).toBe(200);
  return client;
}

/** What ffprobe decodes of the replay's playlist, as the viewer: its video frames and errors (run beside the app, which serves it). */
async function decodeReplay(viewer: TestClient): Promise<{ videoFrames: number; errors: string }> {
  const args = [
    FFPROBE,
    "-v",
    "error",
    "-headers",
    `Cookie: ${cookieOf(viewer)}\r\n`,
    "-show_entries",
    "frame=media_type",
    "-of",
    "json",
    `${app.url}/api/stream/replay/index.m3u8`,
  ];
  const probe = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(probe.stdout).text(), new Response(probe.stderr).text(), probe.exited]);
  const frames = (JSON.parse(stdout || '{"frames":[]}') as { frames: { media_type: string }[] }).frames;
  return { videoFrames: frames.filter((f) => f.media_type === "video").length, errors: stderr.trim() };
}

const fileDuration = (file: string) => Number(Bun.spawnSync([FFPROBE, "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).stdout.toString().trim());

/** After the night: the replay's playlist, as a pass holder's player gets it. */
async function replayPlaylist(viewer: TestClient): Promise<string> {
  // The night is ended once (a second end is refused).
  const { phase } = (await admin.get("/api/livestream-settings")).body;
  if (phase !== "ended" && phase !== "replay") expect((await admin.post("/api/admin/event/end", {})).status).toBe(200);
  const playback = (await viewer.get("/api/stream/playback")).body;
  expect(playback).toMatchObject({ kind: "replay", url: "/api/stream/replay/index.m3u8" });
  const res = await get(viewer, playback.url);
  expect(res.status).toBe(200);
  return res.text();
}

async function download(id: number, name: string, headers: Record<string, string> = {}): Promise<{ res: Response; file: string }> {
  const res = await get(admin, `/api/admin/recordings/${id}.mp4`, headers);
  const file = join(dir, name);
  writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
  return { res, file };
}

describe.skipIf(mediaToolsMissing !== null)("the replay of the HLS relay", () => {
  test("an fMP4 origin's live sliding playlist is kept segment by segment with its program date-times, replayed and downloaded", async () => {
    const out = join(dir, "fmp4");
    await useOrigin(await relayFrom(out));
    await encode(out, { seconds: 6, type: "fmp4", prefix: "seg-", listSize: 4, flags: ["program_date_time"] });
    // The origin's EXT-X-ENDLIST ends the run.
    const [rec] = await eventually(async () => {
      const list = await recordings();
      return list.length === 1 && list[0]!.state === "complete" ? list : null;
    }, 10_000);
    expect(rec!.segments).toBe(published(out, "seg-"));
    expect(Math.abs(rec!.durationS - 6)).toBeLessThanOrEqual(1);
    expect([rec!.width, rec!.height]).toEqual([640, 360]);
    expect(rec!.bytes).toBeGreaterThan(10_000);

    const viewer = await passHolder("Relayed1");
    const playlist = await replayPlaylist(viewer);
    expect(playlist).toContain('#EXT-X-MAP:URI="r');
    expect(playlist.split("\n").filter((l) => l.endsWith(".m4s"))).toHaveLength(rec!.segments);
    // The origin's own program date-times, not the time they were fetched.
    const times = (text: string) => [...text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(.+)/g)].map((m) => Date.parse(m[1]!.replace(/([+-]\d{2})(\d{2})$/, "$1:$2")));
    const originTimes = times(readFileSync(join(out, "stream.m3u8"), "utf8"));
    expect(originTimes.length).toBeGreaterThan(0);
    expect(times(playlist).slice(-originTimes.length)).toEqual(originTimes);
    // A player reads the VOD playlist through the gate: six seconds of 30 fps, within a segment.
    const played = await decodeReplay(viewer);
    expect(played.errors).toBe("");
    expect(Math.abs(played.videoFrames - 180)).toBeLessThanOrEqual(30);

    const { res, file } = await download(rec!.id, "relayed-fmp4.mp4");
    expect(res.status).toBe(200);
    expect(Math.abs(fileDuration(file) - 6)).toBeLessThanOrEqual(1);
    expect(probeFrames(file).errors).toBe("");

    // Trims at segment boundaries and hiding apply to the replay at once.
    expect((await admin.request("PATCH", `/api/admin/recordings/${rec!.id}`, { trimStartS: 2.5 })).status).toBe(200);
    const trimmed = await (await get(viewer, "/api/stream/replay/index.m3u8")).text();
    expect(trimmed.split("\n").filter((l) => l.endsWith(".m4s")).length).toBeLessThan(rec!.segments);
    expect((await admin.request("PATCH", `/api/admin/recordings/${rec!.id}`, { hidden: true })).status).toBe(200);
    // Nothing left to play: the night is over, its replay to come.
    expect((await viewer.get("/api/stream/playback")).body).toMatchObject({ kind: "replay", url: "", replayComing: true });
  }, 60_000);

  test("an MPEG-TS origin without program date-times is kept once the source is the relay (not while it is an embed), and downloads as an MP4", async () => {
    const SECONDS = 10;
    const out = join(dir, "ts");
    const origin = await relayFrom(out);
    expect((await admin.put("/api/admin/stream-source", { kind: "embed", embedUrl: "https://www.youtube.com/embed/dQw4w9WgXcQ" })).status).toBe(200);
    // Long enough that the relay's recorder, which looks every two seconds while the source is another and then
    // waits to see a playlist without program date-times move, sees this one live for a few seconds more.
    const encoding = encode(out, { seconds: SECONDS, type: "mpegts", prefix: "ts-", listSize: 0, flags: [] });
    await eventually(() => published(out, "ts-") >= 2, 10_000, "two segments published");
    await Bun.sleep(2500);
    // An embed keeps nothing: its provider has the recording.
    expect(await recordings()).toEqual([]);
    const before = Date.now();
    await useOrigin(origin);
    await encoding;
    const [rec] = await eventually(async () => {
      const list = await recordings();
      return list.length === 1 && list[0]!.state === "complete" ? list : null;
    }, 10_000);
    // The whole live playlist was still in its first minute: every segment is kept.
    expect(rec!.segments).toBe(published(out, "ts-"));
    expect([rec!.width, rec!.height]).toEqual([640, 360]);
    expect(Math.abs(rec!.durationS - SECONDS)).toBeLessThanOrEqual(1);

    const viewer = await passHolder("Relayed2");
    const playlist = await replayPlaylist(viewer);
    expect(playlist).not.toContain("#EXT-X-MAP");
    const uris = playlist.split("\n").filter((l) => l && !l.startsWith("#"));
    expect(uris.every((u) => /^r\d+\/seg-\d+\.ts$/.test(u))).toBe(true);
    expect(uris).toHaveLength(rec!.segments);
    // Without the origin's times, the newest segment was taken to end when it was fetched.
    const first = Date.parse(/#EXT-X-PROGRAM-DATE-TIME:(.+)/.exec(playlist)![1]!);
    expect(first).toBeGreaterThan(before - 10_000);
    expect(first).toBeLessThan(Date.now());
    const segment = await get(viewer, `/api/stream/replay/${uris[0]}`);
    expect(segment.headers.get("content-type")).toBe("video/mp2t");
    const played = await decodeReplay(viewer);
    expect(played.errors).toBe("");
    expect(Math.abs(played.videoFrames - SECONDS * 30)).toBeLessThanOrEqual(30);

    // The download: remuxed to MP4 in process, whole (its length is known only once made).
    const { res, file } = await download(rec!.id, "relayed-ts.mp4", { range: "bytes=100-199" });
    expect(res.status).toBe(200);
    expect(res.headers.get("accept-ranges")).toBe("none");
    expect(Math.abs(fileDuration(file) - SECONDS)).toBeLessThanOrEqual(1);
    const probed = probeFrames(file);
    expect(probed.errors).toBe("");
    expect(Math.abs(probed.frames.filter((f) => f.media_type === "video").length - SECONDS * 30)).toBeLessThanOrEqual(30);
    expect(probed.frames.some((f) => f.media_type === "audio")).toBe(true);
  }, 60_000);

  test("an instance that takes the recording over keeps only what is not kept yet: no segment twice", async () => {
    const live = join(dir, "handover");
    const origin = await relayFrom(live);
    await useOrigin(origin);
    // A playlist that keeps every segment: the next instance's first look sees the ones already kept, and goes
    // on after the last by its number (its segments carry no program date-times to go by). Long enough that
    // the next one sees it move before the encoder stops.
    const encoding = encode(live, { seconds: 12, type: "mpegts", prefix: "h-", listSize: 16, flags: ["omit_endlist"] });
    await eventually(async () => (((await recordings())[0]?.segments ?? 0) >= 3 ? true : null), 15_000, "the first instance keeping");
    // The job moves: this instance stops it, another (here a fresh follower with the same parts) starts it.
    await app.ctx.relayRecorder.stop();
    const next = new RelayRecorder(
      app.ctx.relay,
      () => app.ctx.stream.relayOrigin(),
      async () => true,
      app.ctx.recorder,
      silentLogger,
    );
    next.start();
    try {
      await encoding;
      // Two recordings, one each (a third where the origin stalled past ten seconds on a busy machine).
      let kept = "nothing";
      const list = await eventually(
        async () => {
          const all = await recordings();
          kept = all.map((r) => `${r.segments} segments (${r.state})`).join(", ");
          return all.length >= 2 && all.reduce((n, r) => n + r.segments, 0) >= published(live, "h-") ? all : null;
        },
        20_000,
        "the second instance keeping the rest",
      ).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}: kept ${kept} of ${published(live, "h-")} published`);
      });
      // Every published segment kept once: the two recordings together hold each of them, none twice — by
      // their numbers in the origin's playlist, each once, in a row, the second run going on after the first.
      expect(list.reduce((n, r) => n + r.segments, 0)).toBe(published(live, "h-"));
      const numbers = await app.ctx.store.all<{ origin_msn: number; origin: string }>(
        "SELECT s.origin_msn, r.origin FROM recording_segments s JOIN recordings r ON r.id = s.recording_id ORDER BY r.started_at, s.seq",
      );
      expect(numbers.map((row) => Number(row.origin_msn))).toEqual([...Array(published(live, "h-")).keys()]);
      expect(new Set(numbers.map((row) => row.origin))).toEqual(new Set([origin.playlistUrl]));
      expect(Math.abs(list.reduce((t, r) => t + r.durationS, 0) - 12)).toBeLessThanOrEqual(1.5);
      // And back to the first instance, which had it before: still nothing twice.
      await next.stop();
      app.ctx.relayRecorder.start();
      await Bun.sleep(2500);
      expect((await recordings()).reduce((n, r) => n + r.segments, 0)).toBe(published(live, "h-"));
    } finally {
      await next.stop();
      app.ctx.relayRecorder.start();
    }
  }, 60_000);

  test("what another origin's recording kept says nothing of this one's: a new origin is kept from its first segment", async () => {
    // The newest kept segment came from the origin used before this one (the streamer switched), numbered 1
    // there, and by its time it ends after this one's first segments start.
    const before = await app.ctx.recordings.begin(Date.now() - 60_000, 640, 360, "https://old-origin.example/live/stream.m3u8");
    await app.ctx.store.run(
      "INSERT INTO recording_segments (recording_id, seq, file, init_file, start_ms, duration_ms, program_date_time, bytes, origin_msn) VALUES (?, 0, 'seg-0.ts', '', 0, 6000, ?, 0, 1)",
      before.id,
      Date.now(),
    );
    await app.ctx.recordings.finish(before.id, "complete", null);
    const live = join(dir, "fresh");
    const origin = await relayFrom(live);
    await useOrigin(origin);
    await encode(live, { seconds: 4, type: "mpegts", prefix: "f-", listSize: 8, flags: [] });
    const fresh = await eventually(
      async () => (await recordings()).find((r) => r.id !== before.id && r.segments === published(live, "f-")) ?? null,
      10_000,
      "the new origin kept from its first segment",
    );
    const numbers = await app.ctx.store.all<{ origin_msn: number }>("SELECT origin_msn FROM recording_segments WHERE recording_id = ? ORDER BY seq", fresh.id);
    expect(numbers.map((row) => Number(row.origin_msn))).toEqual([...Array(published(live, "f-")).keys()]);
  }, 30_000);

  test("an origin that goes away mid-way and comes back starting again gives two recordings, a discontinuity between them", async () => {
    const first = join(dir, "gone-a");
    const origin = await relayFrom(first);
    const port = Number(new URL(origin.origin).port);
    await useOrigin(origin);
    await encode(first, { seconds: 3, type: "mpegts", prefix: "a-", listSize: 4, flags: ["omit_endlist"] });
    await eventually(async () => ((await recordings())[0]?.segments === published(first, "a-") ? true : null), 10_000, "the first run kept");
    await origin.stop();
    await Bun.sleep(1500);
    const second = join(dir, "gone-b");
    await relayFrom(second, port);
    await encode(second, { seconds: 3, type: "mpegts", prefix: "b-", listSize: 4, flags: [] });
    const list = await eventually(async () => {
      const all = await recordings();
      return all.length === 2 && all.every((r) => r.state === "complete") ? all : null;
    }, 10_000);
    expect(list.map((r) => r.segments)).toEqual([published(first, "a-"), published(second, "b-")]);

    const viewer = await passHolder("Relayed3");
    const playlist = await replayPlaylist(viewer);
    expect(playlist.match(/#EXT-X-DISCONTINUITY\n/g)).toHaveLength(1);
    const played = await decodeReplay(viewer);
    expect(played.errors).toBe("");
    expect(Math.abs(played.videoFrames - 180)).toBeLessThanOrEqual(30);
  }, 60_000);
});
