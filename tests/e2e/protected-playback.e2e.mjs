import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { hlsEncoderArgs } from "../support/hls-encoder.mjs";
import { startHlsOrigin } from "../support/hls-origin.mjs";
import { FFMPEG } from "./support/obs-publisher.mjs";
import { screenshotWidths } from "./support/browser.mjs";
import { until, useApp } from "./support/e2e.mjs";
import { adminApi, behindNewest, enterStream, routePlayer, setBack } from "./support/live.mjs";

// The HLS origin runs on this machine, beside the server.
const app = useApp({ args: ["--allow-private-origins"] });
/** @type {Awaited<ReturnType<typeof adminApi>>} */
let admin;
const theAdmin = async () => (admin ??= await adminApi(app.url));

const MUX_KEY = Buffer.from(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString()).toString("base64");
/** The providers' players: stand-ins served by the test, never the internet. */
const PROVIDER_ORIGINS = ["https://player.mux.com", "https://customer-f33zs165nr7gyfy4.cloudflarestream.com", "https://iframe.mediadelivery.net"];

/** Records the requests the page makes for hls.js (its lazily loaded chunk). */
function recordHlsChunk(page) {
  const loaded = [];
  page.on("request", (request) => {
    if (/\/assets\/hls\.light-[^/]+\.js$/.test(new URL(request.url()).pathname)) loaded.push(request.url());
  });
  return loaded;
}

/** The video's position, once it has one past `seconds`. */
async function playsPast(page, seconds, timeout = 20_000) {
  await page.waitForFunction(
    (s) => {
      const video = /** @type {HTMLVideoElement | null} */ (document.querySelector("video.stream-video"));
      return (video?.currentTime ?? 0) > s;
    },
    seconds,
    { timeout },
  );
  return page.evaluate(() => /** @type {HTMLVideoElement} */ (document.querySelector("video.stream-video")).currentTime);
}

app.browserTest("the relayed HLS stream plays in the page through hls.js, one origin request per segment, under the viewer's watermark", async ({ page }) => {
  const origin = await startHlsOrigin();
  try {
    await (await theAdmin()).setStreamSource({ kind: "hls", originUrl: origin.playlistUrl });
    const hlsChunk = recordHlsChunk(page);
    const relayed = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/stream/hls/")) relayed.push(new URL(request.url()).pathname);
    });
    const code = await enterStream(page, "NightOwl");
    const first = await playsPast(page, 0.5);
    const later = await playsPast(page, first + 1);
    assert.ok(later > first, "the video's currentTime advances");
    assert.equal(hlsChunk.length, 1, "hls.js is loaded for the relay kind");
    assert.ok(relayed.includes("/api/stream/hls/stream.m3u8") && relayed.some((p) => p.endsWith(".ts")), `segments come through the relay: ${relayed}`);
    assert.equal(await page.getByText("Loading Stream").count(), 0);

    const watermark = page.getByTestId("stream-watermark");
    assert.equal(await watermark.textContent(), `NightOwl · ${code.slice(-4)}`);
    assert.equal(await watermark.evaluate((el) => getComputedStyle(el).pointerEvents), "none");
    // It stays clear of the bottom of the player, where the video's controls are.
    const [mark, video] = await Promise.all([watermark.boundingBox(), page.locator("video.stream-video").boundingBox()]);
    assert.ok(mark && video && mark.y + mark.height <= video.y + video.height * 0.8, "the watermark keeps off the controls");
    await page.locator("video.stream-video").evaluate((/** @type {HTMLVideoElement} */ v) => v.pause());
    await screenshotWidths(page, "protected-playback-hls-watermark");
    for (const segment of origin.segments) assert.ok(origin.count(`/hls/${segment}`) <= 1, `${segment}: ${origin.count(`/hls/${segment}`)} origin requests`);
  } finally {
    await origin.stop();
  }
});

const relayLiveTest = (name, fn) => (existsSync(FFMPEG) ? app.browserTest(name, fn) : void test(name, { skip: `${FFMPEG} is missing (apt-get install ffmpeg)` }, () => {}));

relayLiveTest("a viewer left far behind a live relayed stream (a pause, a phone that froze) is taken back to its live edge", async ({ page }) => {
  // A live origin: FFmpeg writing 1 s MPEG-TS segments in real time, every one kept in the playlist.
  const liveDir = mkdtempSync(join(tmpdir(), "dreadcast-relay-live-"));
  const encoder = spawn(FFMPEG, hlsEncoderArgs(liveDir, { seconds: 90, type: "mpegts", prefix: "live-", listSize: 0 }), { stdio: "ignore" });
  const origin = await startHlsOrigin({ liveDir });
  try {
    const playlist = join(liveDir, "stream.m3u8");
    await until("the encoder's live playlist with three segments", () => existsSync(playlist) && readFileSync(playlist, "utf8").includes("live-2.ts"), 20_000);
    await (await theAdmin()).setStreamSource({ kind: "hls", originUrl: origin.playlistUrl });
    await enterStream(page, "LateOwl");
    const started = await playsPast(page, 0.5);
    // hls.js holds a relayed live stream three target durations (3 s here) behind its newest segment.
    await playsPast(page, started + 12, 30_000);
    const playing = await behindNewest(page);
    assert.ok(playing.median < 5, `playing, the video is ${playing.median.toFixed(2)} s behind the newest it holds (readings: ${playing.readings})`);

    // Set back 11 s, past where hls.js would ever catch up by itself (it plays a relay at its own pace):
    // the page takes it back to the live edge.
    await setBack(page, 11);
    await page.waitForTimeout(2500);
    const after = await behindNewest(page);
    assert.ok(after.median < 5, `set back 11 s, the video is ${after.median.toFixed(2)} s behind the newest it holds (readings: ${after.readings})`);
  } finally {
    encoder.kill("SIGKILL");
    await origin.stop();
    rmSync(liveDir, { recursive: true, force: true });
  }
});

app.browserTest("an unreachable origin shows 'Loading Stream' and the player picks the stream up once it is back", async ({ page }) => {
  const down = await startHlsOrigin();
  await down.stop();
  const api = await theAdmin();
  await api.setStreamSource({ kind: "hls", originUrl: down.playlistUrl });
  await enterStream(page, "Patience");
  await page.locator("video.stream-video").waitFor({ state: "attached" });
  await page.getByText("Loading Stream").waitFor();
  await page.getByText("Please wait...").waitFor();
  const origin = await startHlsOrigin();
  try {
    await api.setStreamSource({ kind: "hls", originUrl: origin.playlistUrl });
    await playsPast(page, 0.5, 30_000);
    await page.getByText("Loading Stream").waitFor({ state: "detached" });
  } finally {
    await origin.stop();
  }
});

app.browserTest("the player's code cut off on its way twice: 'Loading Stream' and the chat stay, and the stream plays once it comes", async ({ page, context }) => {
  const origin = await startHlsOrigin();
  try {
    await (await theAdmin()).setStreamSource({ kind: "hls", originUrl: origin.playlistUrl });
    let cut = 0;
    let asked = 0;
    await context.route(/\/assets\/hls-video-[^/]+\.js$/, (route) => {
      asked++;
      if (cut < 2) {
        cut++;
        return route.abort("connectionreset");
      }
      return route.fallback();
    });
    await enterStream(page, "Unbroken");
    await page.getByText("Loading Stream").waitFor();
    await page.waitForFunction(() => document.querySelector(".stream-chat-status-connected") !== null);
    await playsPast(page, 0.5, 30_000);
    assert.equal(cut, 2, "the player's file was cut off twice");
    assert.ok(asked >= 3, `and asked for again until it came: ${asked} requests`);
    assert.equal(await page.getByText("Something went wrong").count(), 0, "the page never gave way to the error card");
  } finally {
    await origin.stop();
  }
});

/**
 * Makes the page's browser one without Media Source Extensions, as Safari on an iPhone before iOS 17.1,
 * so the page hands the playlist to the browser's own HLS player (which Chromium has too), and records
 * each time the video starts loading an address.
 */
async function nativeHlsOnly(context) {
  await context.addInitScript(() => {
    delete window.MediaSource;
    delete window.ManagedMediaSource;
    window.videoLoads = [];
    document.addEventListener("loadstart", (event) => window.videoLoads.push(/** @type {Element} */ (event.target).getAttribute("src")), true);
  });
}

const RELAYED_PLAYLIST = "/api/stream/hls/stream.m3u8";
const videoLoads = (page) => page.evaluate(() => window.videoLoads);

app.browserTest(
  "without Media Source Extensions the video is given the relayed playlist itself, plays it with sound without hls.js, and keeps it when the address is fetched again",
  async ({ page, context }) => {
    const origin = await startHlsOrigin();
    try {
      const api = await theAdmin();
      await api.setStreamSource({ kind: "hls", originUrl: origin.playlistUrl });
      await nativeHlsOnly(context);
      const hlsChunk = recordHlsChunk(page);
      const relayed = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/stream/hls/")) relayed.push(new URL(request.url()).pathname);
      });
      await enterStream(page, "SafariOwl");
      assert.notEqual(await page.evaluate(() => document.createElement("video").canPlayType("application/vnd.apple.mpegurl")), "", "this Chromium plays HLS itself");
      const video = page.locator("video.stream-video");
      const first = await playsPast(page, 0.5);
      assert.equal(await video.getAttribute("src"), RELAYED_PLAYLIST);
      assert.equal(await video.evaluate((/** @type {HTMLVideoElement} */ v) => v.currentSrc), `${app.url}${RELAYED_PLAYLIST}`, "the relay's own address, not a MediaSource blob");
      assert.equal(hlsChunk.length, 0, "hls.js is not loaded where the browser plays HLS itself");
      assert.ok(relayed.includes(RELAYED_PLAYLIST) && relayed.some((p) => p.endsWith(".ts")), `the browser fetches the playlist and segments from the relay: ${relayed}`);
      assert.equal(await video.evaluate((/** @type {HTMLVideoElement} */ v) => v.muted), false);
      assert.equal(await page.getByText("Loading Stream").count(), 0);

      // Saving the source makes open pages fetch their playback again: the same address, so the video carries on.
      const refreshed = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/stream/playback" && response.ok());
      await api.setStreamSource({ kind: "hls", originUrl: origin.playlistUrl });
      await refreshed;
      await page.waitForTimeout(500);
      assert.deepEqual(await videoLoads(page), [RELAYED_PLAYLIST], "the video is not loaded again for a fresh copy of the same address");
      assert.ok((await video.evaluate((/** @type {HTMLVideoElement} */ v) => v.currentTime)) >= first, "playback did not start over");
    } finally {
      await origin.stop();
    }
  },
);

app.browserTest(
  "without Media Source Extensions an unreachable origin shows 'Loading Stream', the page asks for a fresh address and loads the playlist again, and the stream plays with sound once the origin is back",
  async ({ page, context }) => {
    const down = await startHlsOrigin();
    await down.stop();
    const api = await theAdmin();
    await api.setStreamSource({ kind: "hls", originUrl: down.playlistUrl });
    await nativeHlsOnly(context);
    const hlsChunk = recordHlsChunk(page);
    let playbackRequests = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/stream/playback") playbackRequests++;
    });
    await enterStream(page, "SafariPatience");
    await page.getByText("Loading Stream").waitFor();
    await page.waitForFunction((playlist) => window.videoLoads.filter((src) => src === playlist).length >= 2, RELAYED_PLAYLIST, { timeout: 15_000 });
    assert.ok(playbackRequests >= 2, `after the failure the page asks for its playback again (${playbackRequests} requests)`);
    const origin = await startHlsOrigin();
    try {
      await api.setStreamSource({ kind: "hls", originUrl: origin.playlistUrl });
      await playsPast(page, 0.5, 30_000);
      await page.getByText("Loading Stream").waitFor({ state: "detached" });
      assert.equal(await page.locator("video.stream-video").evaluate((/** @type {HTMLVideoElement} */ v) => v.muted), false, "a failed load does not mute the stream");
      assert.equal(hlsChunk.length, 0);
    } finally {
      await origin.stop();
    }
  },
);

for (const [kind, source, pattern] of /** @type {[string, object, RegExp][]} */ ([
  [
    "mux",
    { kind: "mux", playbackId: "abc123", signingKeyId: "key42", signingKey: MUX_KEY },
    /^https:\/\/player\.mux\.com\/abc123\?playback-token=[\w-]+\.[\w-]+\.[\w-]+&thumbnail-token=/,
  ],
  [
    "cloudflare",
    { kind: "cloudflare", customerCode: "f33zs165nr7gyfy4", videoUid: "0123456789abcdef0123456789abcdef", keyId: "fedcba9876543210fedcba9876543210", privateKey: MUX_KEY },
    /^https:\/\/customer-f33zs165nr7gyfy4\.cloudflarestream\.com\/[\w-]+\.[\w-]+\.[\w-]+\/iframe$/,
  ],
  [
    "bunny",
    { kind: "bunny", libraryId: "77", videoId: "vid-1", tokenKey: "token-key-1234" },
    /^https:\/\/iframe\.mediadelivery\.net\/embed\/77\/vid-1\?token=[0-9a-f]{64}&expires=\d+$/,
  ],
])) {
  app.browserTest(`${kind}: the viewer's own signed address plays in the provider's frame, watermarked, without hls.js`, async ({ page, context }) => {
    await routePlayer(context, PROVIDER_ORIGINS);
    await (await theAdmin()).setStreamSource(source);
    const hlsChunk = recordHlsChunk(page);
    const code = await enterStream(page, `Signed${kind}`);
    const frame = page.locator(".stream-player iframe");
    await frame.waitFor();
    assert.match(await frame.getAttribute("src"), pattern);
    assert.equal(await page.getByTestId("stream-watermark").textContent(), `Signed${kind} · ${code.slice(-4)}`);
    assert.equal(hlsChunk.length, 0, "hls.js is loaded only for the relay");
    if (kind === "mux") await screenshotWidths(page, "protected-playback-signed-watermark");
  });
}
