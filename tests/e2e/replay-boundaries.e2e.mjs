/**
 * The replay across the night's changes, in the browser: FFmpeg publishes five sessions to the built-in ingest,
 * each unlike the one before — the usual picture and sound; no sound at all; a smaller picture at another
 * frame rate; H.264 High with B-frames and mono 44.1 kHz sound; a stream that begins part-way into a GOP —
 * and the viewer's hls.js plays through every boundary, and plays on after a seek into each session and past
 * each boundary. FFprobe reads each session as the replay serves it: a picture and a sound track in every
 * one, each session's own size, and a keyframe first.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ADMIN } from "./support/admin-panel.mjs";
import { screenshotWidths } from "./support/browser.mjs";
import { until, useApp } from "./support/e2e.mjs";
import { testCode } from "./support/live.mjs";
import { FFMPEG } from "./support/obs-publisher.mjs";

const FFPROBE = "/usr/bin/ffprobe";
const hasFfmpeg = existsSync(FFMPEG) && existsSync(FFPROBE);
if (!hasFfmpeg) console.log(`SKIPPED: ${FFMPEG} or ${FFPROBE} is missing (apt-get install ffmpeg): the replay's boundaries need a publisher`);

const app = useApp({ args: ["--rtmp-port", "0"] });
const boundaryTest = (name, fn) => (hasFfmpeg ? app.browserTest(name, fn) : void test(name, { skip: "no ffmpeg" }, () => {}));

let callPromise;
/** The admin API from Node (the first admin made once, then signed in). */
function call(method, path, body) {
  callPromise ??= (async () => {
    const base = { "content-type": "application/json", origin: app.url };
    await fetch(`${app.url}/api/admin/create-first`, { method: "POST", headers: base, body: JSON.stringify(ADMIN) });
    const login = await fetch(`${app.url}/api/admin/login`, { method: "POST", headers: base, body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }) });
    assert.equal(login.status, 200, await login.text());
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return async (m, p, b) => {
      const response = await fetch(`${app.url}${p}`, { method: m, headers: { ...base, cookie }, body: b === undefined ? undefined : JSON.stringify(b) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${m} ${p}: ${response.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
  })();
  return callPromise.then((send) => send(method, path, body));
}

const QUIET = ["-hide_banner", "-loglevel", "error", "-nostdin"];
const picture = (size, rate) => ["-re", "-f", "lavfi", "-i", `testsrc2=size=${size}:rate=${rate}`];
const tone = (rate) => ["-re", "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=${rate}`];
const x264 = (gop) => [
  "-c:v",
  "libx264",
  "-preset",
  "ultrafast",
  "-tune",
  "zerolatency",
  "-threads",
  "1",
  "-pix_fmt",
  "yuv420p",
  "-g",
  `${gop}`,
  "-keyint_min",
  `${gop}`,
  "-sc_threshold",
  "0",
  "-b:v",
  "600k",
];
const aac = (rate, channels) => ["-c:a", "aac", "-b:a", "96k", "-ar", `${rate}`, "-ac", `${channels}`];
const SECONDS = 4;

/** The night's sessions: how FFmpeg publishes each, and what the replay should show of it. */
const SESSIONS = [
  { name: "the usual picture and sound", width: 640, height: 360, args: [...picture("640x360", 30), ...tone(48000), ...x264(30), ...aac(48000, 2)] },
  { name: "no sound at all", width: 640, height: 360, args: [...picture("640x360", 30), ...x264(30), "-an"] },
  { name: "a smaller picture at 25 fps", width: 480, height: 270, args: [...picture("480x270", 25), ...tone(48000), ...x264(25), ...aac(48000, 2)] },
  {
    name: "H.264 High with B-frames, mono 44.1 kHz",
    width: 640,
    height: 360,
    args: [
      ...picture("640x360", 30),
      ...tone(44100),
      ...[
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-profile:v",
        "high",
        "-bf",
        "2",
        "-threads",
        "1",
        "-pix_fmt",
        "yuv420p",
        "-g",
        "30",
        "-keyint_min",
        "30",
        "-sc_threshold",
        "0",
      ],
      ...aac(44100, 1),
    ],
  },
  // Made from a file when the test runs: stream-copied from 0.7 s into a 2 s GOP, the frames before the next keyframe kept.
  { name: "a start part-way into a GOP", width: 640, height: 360, args: null },
];

function run(args) {
  const child = spawn(FFMPEG, args, { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk) => (errors += chunk));
  return new Promise((resolve, reject) => child.once("exit", (code) => (code === 0 ? resolve(undefined) : reject(new Error(`ffmpeg ${args.join(" ")}: ${errors}`)))));
}

/** A 6 s FLV with a keyframe every 2 s, and its publish from 0.7 s in: the first frames sent depend on a keyframe never sent. */
function midGopArgs(dir, target) {
  const file = join(dir, "gop.flv");
  const made = spawnSync(FFMPEG, [...QUIET, "-y", ...picture("640x360", 30).slice(1), ...tone(48000).slice(1), "-t", "6", ...x264(60), ...aac(48000, 2), "-f", "flv", file]);
  assert.equal(made.status, 0, String(made.stderr));
  const probe = spawnSync(FFPROBE, ["-v", "error", "-select_streams", "v", "-show_entries", "packet=flags", "-of", "csv=p=0", file]);
  // What is published from 0.7 s starts with non-keyframes (checked on the same copy, into a file).
  const cut = join(dir, "cut.flv");
  assert.equal(spawnSync(FFMPEG, [...QUIET, "-y", "-i", file, "-ss", "0.7", "-c", "copy", "-copyinkf", "-f", "flv", cut]).status, 0);
  const cutFlags = String(spawnSync(FFPROBE, ["-v", "error", "-select_streams", "v", "-show_entries", "packet=flags", "-of", "csv=p=0", cut]).stdout)
    .trim()
    .split("\n");
  assert.ok(String(probe.stdout).includes("K"), "the file has keyframes");
  assert.ok(!cutFlags[0].startsWith("K"), `the publish starts on a non-keyframe: ${cutFlags.slice(0, 3).join(" ")}`);
  return [...QUIET, "-re", "-i", file, "-ss", "0.7", "-c", "copy", "-copyinkf", "-f", "flv", target];
}

const VIDEO = "video.stream-video";

/** The sessions' places on the replay's timeline (start and end, s), from the playlist's discontinuities. */
function sessionsOf(playlist) {
  const out = [{ start: 0, end: 0, init: null, segments: [] }];
  for (const line of playlist.split("\n")) {
    const current = out[out.length - 1];
    if (line === "#EXT-X-DISCONTINUITY") out.push({ start: current.end, end: current.end, init: null, segments: [] });
    else if (line.startsWith("#EXT-X-MAP:URI=")) current.init ??= /URI="([^"]+)"/.exec(line)[1];
    else if (line.startsWith("#EXTINF:")) current.end += Number.parseFloat(line.slice("#EXTINF:".length));
    else if (line && !line.startsWith("#")) current.segments.push(line);
  }
  return out;
}

/** What the video shows: its time, whether it is playing on, its picture size, frames decoded, and the player's state. */
const look = (page) =>
  page.evaluate((s) => {
    const v = document.querySelector(s);
    return {
      time: v.currentTime,
      paused: v.paused,
      ended: v.ended,
      width: v.videoWidth,
      height: v.videoHeight,
      frames: v.getVideoPlaybackQuality().totalVideoFrames,
      state: v.dataset.state,
      failed: document.body.textContent.includes("Replay Interrupted"),
      duration: v.duration,
      buffered: Array.from({ length: v.buffered.length }, (_, i) => [v.buffered.start(i), v.buffered.end(i)]),
    };
  }, VIDEO);

/** Moves the video to `seconds` and waits until it is there. */
async function seek(page, seconds) {
  await page.evaluate(
    ([s, at]) =>
      new Promise((resolve) => {
        const video = document.querySelector(s);
        video.addEventListener("seeked", () => resolve(), { once: true });
        video.currentTime = at;
      }),
    [VIDEO, seconds],
  );
}

/** Waits until the video plays past `seconds` (new frames decoded on the way), failing at once if the player gave up. */
async function playsPast(page, seconds, what) {
  const before = await look(page);
  let now = before;
  await until(
    () => `${what}: the video to play past ${seconds.toFixed(2)} s (${JSON.stringify(now)})`,
    async () => {
      now = await look(page);
      assert.ok(!now.failed && now.state !== "failed", `${what}: the replay was interrupted at ${now.time.toFixed(2)} s`);
      return (now.time > seconds || now.ended || now.time >= now.duration - 0.15) && now.frames > before.frames;
    },
    20_000,
    200,
  );
}

boundaryTest(
  "the replay plays through every change between sessions (no sound, another size, other codec settings, a start mid-GOP), and after a seek into and past each",
  async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), "dreadcast-boundaries-"));
    try {
      await call("PUT", "/api/admin/stream-source", { kind: "ingest" });
      await call("PUT", "/api/admin/livestream-settings", { isActive: true, replayEnabled: true, replayUntil: new Date(Date.now() + 24 * 3600_000).toISOString() });
      const { rtmpUrl } = await call("GET", "/api/admin/ingest");
      const { streamKey } = await call("POST", "/api/admin/ingest/reveal-key");
      const target = `${rtmpUrl}/${streamKey}`;
      for (const [i, session] of SESSIONS.entries()) {
        const args = session.args ? [...QUIET, ...session.args, "-t", `${SECONDS}`, "-f", "flv", target] : midGopArgs(dir, target);
        await run(args);
        await until(`session ${i + 1} recorded`, async () => {
          const { recordings } = await call("GET", "/api/admin/recordings");
          return recordings.length === i + 1 && recordings.every((r) => r.state === "complete");
        });
      }
      const { recordings } = await call("GET", "/api/admin/recordings");
      assert.deepEqual(
        recordings.map((r) => `${r.width}x${r.height}`),
        SESSIONS.map((s) => `${s.width}x${s.height}`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The night is over: the owner ends it.
    await call("POST", "/api/admin/event/end", {});

    await page.goto("/design");
    const code = await testCode(page);
    await page.evaluate((c) => {
      localStorage.setItem("accessCode", c);
      localStorage.setItem("username", "Wanderer");
    }, code);
    await page.goto("/livestream");
    await page.getByTestId("replay-chat").waitFor();
    const playback = await (await page.request.get("/api/stream/playback")).json();
    assert.equal(playback.kind, "replay");
    const playlist = await (await page.request.get(playback.url)).text();
    const sessions = sessionsOf(playlist);
    assert.equal(sessions.length, SESSIONS.length, playlist);
    const base = new URL(playback.url, app.url);

    // Each session as the replay serves it, read by FFprobe: picture and sound, its own size, a keyframe first.
    const probeDir = mkdtempSync(join(tmpdir(), "dreadcast-boundaries-probe-"));
    try {
      for (const [i, session] of sessions.entries()) {
        assert.ok(session.init, `session ${i + 1} has its own init segment: ${playlist}`);
        const parts = [];
        for (const uri of [session.init, ...session.segments]) {
          const response = await page.request.get(new URL(uri, base).href);
          assert.equal(response.status(), 200, uri);
          parts.push(await response.body());
        }
        const file = join(probeDir, `session-${i + 1}.mp4`);
        writeFileSync(file, Buffer.concat(parts));
        const probe = spawnSync(FFPROBE, ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height", "-of", "json", file]);
        assert.equal(probe.status, 0, String(probe.stderr));
        const streams = JSON.parse(String(probe.stdout)).streams;
        const expected = SESSIONS[i];
        assert.deepEqual(streams.map((s) => s.codec_type).sort(), ["audio", "video"], `${expected.name}: a picture and a sound track: ${JSON.stringify(streams)}`);
        const video = streams.find((s) => s.codec_type === "video");
        assert.deepEqual([video.codec_name, video.width, video.height], ["h264", expected.width, expected.height], expected.name);
        assert.equal(streams.find((s) => s.codec_type === "audio").codec_name, "aac", expected.name);
        const first = spawnSync(FFPROBE, ["-v", "error", "-select_streams", "v", "-read_intervals", "%+#1", "-show_entries", "packet=flags", "-of", "csv=p=0", file]);
        assert.match(String(first.stdout).trim(), /^K/, `${expected.name}: the session starts on a keyframe`);
      }
    } finally {
      rmSync(probeDir, { recursive: true, force: true });
    }

    // A native HLS reader beside hls.js: FFmpeg's own HLS demuxer follows each session's EXT-X-MAP across
    // the EXT-X-DISCONTINUITY tags as a platform player does, and decodes the whole replay end to end, every
    // session's picture and sound, without an error, for the playlist's length.
    const cookie = (await page.context().cookies(app.url)).map((c) => `${c.name}=${c.value}`).join("; ");
    const native = spawnSync(
      FFMPEG,
      ["-hide_banner", "-v", "error", "-nostdin", "-headers", `Cookie: ${cookie}\r\n`, "-i", base.href, "-map", "0:v:0", "-map", "0:a:0?", "-f", "null", "-"],
      { timeout: 120_000 },
    );
    assert.equal(native.status, 0, `FFmpeg's HLS reader: ${String(native.stderr)}`);
    const readBack = spawnSync(FFPROBE, ["-v", "error", "-headers", `Cookie: ${cookie}\r\n`, "-show_entries", "format=duration", "-of", "csv=p=0", base.href], { timeout: 60_000 });
    assert.equal(readBack.status, 0, String(readBack.stderr));
    const nativeLength = Number.parseFloat(String(readBack.stdout));
    assert.ok(Math.abs(nativeLength - sessions[sessions.length - 1].end) < 1, `FFmpeg reads the replay's whole length: ${nativeLength} s of ${sessions[sessions.length - 1].end}`);

    // Playing from the start through every boundary to the end, twice as fast, without being interrupted.
    await page.waitForFunction((s) => (document.querySelector(s)?.currentTime ?? 0) > 0.3, VIDEO, { timeout: 30_000 });
    await page.evaluate((s) => (document.querySelector(s).playbackRate = 2), VIDEO);
    const duration = await page.evaluate((s) => document.querySelector(s).duration, VIDEO);
    assert.ok(Math.abs(duration - sessions[sessions.length - 1].end) < 1, `the video is the playlist's length: ${duration}`);
    const sizes = new Set();
    for (const [i, session] of sessions.entries()) {
      await playsPast(page, Math.min(session.end - 0.3, session.start + 1), `playing into session ${i + 1} (${SESSIONS[i].name})`);
      const now = await look(page);
      if (now.time < session.end - 0.3) sizes.add(`${now.width}x${now.height}`);
    }
    // To its end (or its last tenth of a second: Chromium may stop where one track's last frame ends, short of the other's).
    let seen = null;
    await until(
      () => `the video to reach its end (${JSON.stringify(seen)})`,
      async () => {
        seen = await look(page);
        return seen.ended || seen.time >= duration - 0.15;
      },
      20_000,
    );
    assert.ok(sizes.has("480x270") && sizes.has("640x360"), `each session showed its own size: ${[...sizes].join(", ")}`);
    await page.evaluate((s) => (document.querySelector(s).playbackRate = 1), VIDEO);

    // A seek into each session, and just before each boundary (it plays past it into the next).
    for (const [i, session] of sessions.entries()) {
      const into = session.start + (session.end - session.start) / 2;
      await seek(page, into);
      await page.evaluate((s) => void document.querySelector(s).play(), VIDEO);
      await playsPast(page, into + 0.8, `after a seek into session ${i + 1} (${SESSIONS[i].name})`);
      if (i + 1 < sessions.length) {
        await seek(page, session.end - 0.4);
        await playsPast(page, session.end + 0.6, `after a seek to just before the boundary after session ${i + 1}`);
      }
    }
    // Past each boundary straight from the start: the seek lands in the next session and plays there.
    for (const [i, session] of sessions.entries()) {
      if (i === 0) continue;
      await seek(page, 0);
      await seek(page, session.start + 0.3);
      await playsPast(page, session.start + 1.2, `after a seek past the boundary into session ${i + 1} (${SESSIONS[i].name})`);
      if (SESSIONS[i].width === 480) {
        await page.evaluate((s) => document.querySelector(s).pause(), VIDEO);
        const shown = await look(page);
        assert.deepEqual([shown.width, shown.height], [480, 270], "the smaller session's own picture");
        await screenshotWidths(page, "replay-boundaries-smaller-session");
        await page.evaluate((s) => void document.querySelector(s).play(), VIDEO);
      }
    }
    const last = await look(page);
    assert.ok(!last.failed, "the replay was never interrupted");
  },
);
