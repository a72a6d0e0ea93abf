/**
 * The built-in ingest in the browser: FFmpeg publishes the way OBS does to the app's RTMP port, hls.js in
 * headless Chromium plays the Low-Latency HLS on /livestream (and the browser's own HLS without Media Source
 * Extensions), across a publisher leaving and coming back; the admin's card and the dashboard show it.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshotDir, screenshotWidths } from "./support/browser.mjs";
import { ADMIN, dismissToasts } from "./support/admin-panel.mjs";
import { toastWith, until, useApp, waitForPath } from "./support/e2e.mjs";
import { adminApi, behindNewest, enterStream, setBack } from "./support/live.mjs";
import { repoRoot, startServer } from "./support/server.mjs";
import { FFMPEG, obsLikeArgs } from "./support/obs-publisher.mjs";

const hasFfmpeg = existsSync(FFMPEG);
if (!hasFfmpeg) console.log(`SKIPPED: ${FFMPEG} is missing (apt-get install ffmpeg): the ingest's browser tests need a publisher`);

// --rtmp-port 0: the RTMP port is picked when the source becomes Built-in (OBS) and read from rtmpUrl.
const app = useApp({ args: ["--rtmp-port", "0"] });
const ingestTest = (name, fn, options) => (hasFfmpeg ? app.browserTest(name, fn, options) : void test(name, { skip: "no ffmpeg" }, () => {}));

/** The admin API from Node (the same admin the browser signs in as), and a wait until OBS is live. */
async function adminClient(url) {
  const api = await adminApi(url, ADMIN);
  return {
    ...api,
    /** Waits until the ingest says OBS is live and its video is measured. */
    async live(timeout = 30_000) {
      let view;
      return until(
        () => `the ingest to go live: ${JSON.stringify(view)}`,
        async () => {
          view = await api.ingestView();
          return view.live && view.publisher?.video?.fps ? view : null;
        },
        timeout,
      );
    },
  };
}

/**
 * FFmpeg publishing the way OBS does (x264 with a keyframe a second, AAC 48 kHz, FLV over RTMP, in real
 * time), kept light: 640×360, ultrafast, one thread.
 */
function publish(rtmpUrl, streamKey) {
  return supervised(spawn(FFMPEG, obsLikeArgs(rtmpUrl, streamKey), { stdio: ["ignore", "ignore", "pipe"] }));
}

/**
 * A publisher process: when it exits, what it said on stderr, and a stop that kills it.
 * @param {import("node:child_process").ChildProcess} child
 */
function supervised(child) {
  let errors = "";
  child.stderr?.on("data", (chunk) => (errors += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return {
    exited,
    errors: () => errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** Makes the ingest the source, starts a publisher and waits until it is live. */
async function goLive() {
  const admin = await adminClient(app.url);
  await admin.setStreamSource({ kind: "ingest" });
  const { rtmpUrl, streamKey } = await admin.ingest();
  assert.match(rtmpUrl, /^rtmp:\/\/127\.0\.0\.1:\d+\/live$/);
  const publisher = publish(rtmpUrl, streamKey);
  return { admin, publisher, rtmpUrl, streamKey, view: await admin.live() };
}

/** Records the requests the page makes for hls.js (its lazily loaded chunk). */
function recordHlsChunk(page) {
  const loaded = [];
  page.on("request", (request) => {
    if (/\/assets\/hls\.light-[^/]+\.js$/.test(new URL(request.url()).pathname)) loaded.push(request.url());
  });
  return loaded;
}

const VIDEO = "video.stream-video";
const position = (page, selector = VIDEO) => page.evaluate((s) => document.querySelector(s)?.currentTime ?? 0, selector);

/** The video's position once it has moved `seconds` past where it is now. */
async function advances(page, seconds, timeout = 30_000, selector = VIDEO) {
  const from = await position(page, selector);
  await page.waitForFunction(([s, f, sel]) => (document.querySelector(sel)?.currentTime ?? 0) > f + s, [seconds, from, selector], { timeout });
  return position(page, selector);
}

/** Samples the position every second for `seconds`: it must move every time. */
async function playsWithoutStall(page, seconds) {
  const samples = [await position(page)];
  for (let i = 0; i < seconds; i++) {
    await page.waitForTimeout(1000);
    samples.push(await position(page));
  }
  for (let i = 1; i < samples.length; i++) assert.ok(samples[i] > samples[i - 1], `the video moves every second: ${samples.map((s) => s.toFixed(2)).join(", ")}`);
  assert.ok(samples.at(-1) - samples[0] > seconds * 0.8, `it keeps up with real time: ${samples[0].toFixed(2)} → ${samples.at(-1).toFixed(2)} in ${seconds} s`);
}

ingestTest(
  "OBS publishing to the built-in ingest plays on /livestream through hls.js in low-latency mode, with no stall over 20 s, under the viewer's watermark",
  async ({ page }) => {
    const { publisher } = await goLive();
    try {
      const hlsChunk = recordHlsChunk(page);
      const blocking = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith("/api/stream/live/") && url.searchParams.has("_HLS_part")) blocking.push(url.pathname);
      });
      // The media playlist as the player first reads it: its PART-HOLD-BACK and TARGETDURATION bound the latency below.
      let playlist;
      page.on("response", (response) => {
        if (!playlist && new URL(response.url()).pathname.endsWith("/stream.m3u8") && response.ok()) playlist = response.text().catch(() => undefined);
      });
      const code = await enterStream(page, "ObsOwl");
      await advances(page, 0.5);
      await page.getByText("Loading Stream").waitFor({ state: "detached" });
      // Past the start, where hls.js may wait a moment on a busy machine before it seeks to its low-latency
      // target (seen: 0.72, 0.90, 0.90, 2.13, then steady): what is measured is the night's playback.
      await advances(page, 2);
      await playsWithoutStall(page, 20);
      assert.equal(hlsChunk.length, 1, "hls.js is loaded once, for the ingest");
      assert.ok(blocking.length > 20, `hls.js asks for parts with blocking playlist reloads (low-latency mode): ${blocking.length}`);
      // Low latency: the player holds hls.js's low-latency target, the playlist's PART-HOLD-BACK, to which hls.js
      // adds up to one TARGETDURATION after stalls (a busy machine stalls it at the start). Without low-latency
      // mode it would sit three target durations back. The distance is read five times over two seconds and the
      // median held to it: one reading lands on a part just appended, or on a moment of catching up.
      const text = (await playlist) ?? "";
      const partHoldBack = Number(/PART-HOLD-BACK=([\d.]+)/.exec(text)?.[1]);
      const targetDuration = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1]);
      assert.ok(partHoldBack > 0 && targetDuration > 0, `the media playlist names PART-HOLD-BACK and TARGETDURATION: ${text.slice(0, 300)}`);
      assert.ok(partHoldBack + targetDuration < 3 * targetDuration, "the low-latency bound is tighter than a plain HLS player's");
      const bound = partHoldBack + targetDuration + 0.25;
      const holdsTheLiveEdge = async (when) => {
        const { median, readings } = await behindNewest(page);
        assert.ok(median < bound, `${when}, the player is ${median.toFixed(2)} s behind the newest part it holds, over ${bound.toFixed(2)} s (readings: ${readings})`);
      };
      await holdsTheLiveEdge("playing");
      // A phone that froze for a moment is left 6 s back, further than hls.js catches up by playing faster:
      // the page brings it back to the live edge by itself.
      await setBack(page, 6);
      await page.waitForTimeout(2000);
      await holdsTheLiveEdge("6 s back after a freeze");
      assert.equal(await page.getByTestId("stream-watermark").textContent(), `ObsOwl · ${code.slice(-4)}`);
      await screenshotWidths(page, "ingest-livestream-playing");
    } finally {
      await publisher.stop();
    }
  },
);

/**
 * OBS 29.1+ publishing HEVC or AV1 over Enhanced RTMP, which Debian's FFmpeg cannot: a hand-driven publisher
 * (tests/e2e/support/enhanced-publish.ts, under Bun) sends FFmpeg-encoded frames in real time.
 */
function enhancedPublish(rtmpUrl, streamKey, codec, seconds) {
  const script = join(repoRoot, "tests/e2e/support/enhanced-publish.ts");
  return supervised(spawn(join(repoRoot, "node_modules/.bin/bun"), [script, new URL(rtmpUrl).port, streamKey, codec, String(seconds)], { stdio: ["ignore", "ignore", "pipe"] }));
}

ingestTest(
  "OBS sending AV1 over Enhanced RTMP plays on /livestream; HEVC, which this browser cannot decode, is said so over the player, and H.264 plays again after it",
  async ({ page }) => {
    const admin = await adminClient(app.url);
    await admin.setStreamSource({ kind: "ingest" });
    const { rtmpUrl, streamKey } = await admin.ingest();
    const av1 = enhancedPublish(rtmpUrl, streamKey, "av1", 16);
    let hevc;
    let h264;
    try {
      const view = await admin.live(60_000).catch((error) => {
        throw new Error(`${error.message} (publisher: ${av1.errors()})`);
      });
      assert.equal(view.publisher.video.codec, "AV1");
      assert.equal(view.publisher.video.width, 640);
      await enterStream(page, "AvOneOwl");
      await advances(page, 1.5);
      await page.getByText("Loading Stream").waitFor({ state: "detached" });
      assert.equal(await page.evaluate((s) => document.querySelector(s).videoWidth, VIDEO), 640);
      const done = await av1.exited;
      assert.equal(done.code, 0, av1.errors());

      // HEVC: this Chromium has no decoder for it. The viewer is told, instead of a player loading for ever.
      hevc = enhancedPublish(rtmpUrl, streamKey, "hevc", 16);
      await until(
        () => `HEVC to go live (publisher: ${hevc.errors()})`,
        async () => (await admin.ingestView()).publisher?.video?.codec === "HEVC",
        60_000,
      );
      const told = page.getByRole("alert").filter({ hasText: "This browser cannot play the stream" });
      await told.waitFor({ timeout: 30_000 });
      assert.match(await told.textContent(), /The video comes as HEVC \(H\.265\), which this browser cannot decode/);
      await screenshotWidths(page, "ingest-livestream-codec-unsupported");

      // The streamer's preview says the same, and why it matters to the viewers.
      const adminPage = await page.context().newPage();
      await signIn(adminPage, "/admin/settings");
      const panel = sourceCard(adminPage).getByTestId("ingest-panel");
      await panel.locator(".settings-ingest-figures").getByText("HEVC · 640×360").waitFor();
      await panel.getByText("This browser cannot decode HEVC (H.265), and neither can your viewers' browsers that lack it. H.264 plays everywhere.").waitFor();
      await screenshotCard(adminPage, sourceCard(adminPage), "ingest-admin-card-hevc");
      await adminPage.close();
      await hevc.stop();

      // The streamer goes back to H.264: the same page plays it, with no reload.
      await page.evaluate(() => (window.notReloaded = true));
      h264 = publish(rtmpUrl, streamKey);
      await admin.live();
      await told.waitFor({ state: "detached", timeout: 30_000 });
      await advances(page, 1);
      assert.equal(await page.evaluate(() => window.notReloaded), true);
    } finally {
      await av1.stop();
      await hevc?.stop();
      await h264?.stop();
    }
  },
);

ingestTest("when OBS drops after going live the page says the stream will be right back, and playback resumes by itself when OBS publishes again", async ({ page }) => {
  const { admin, publisher, rtmpUrl, streamKey } = await goLive();
  let again;
  try {
    await enterStream(page, "Reconnecting");
    await advances(page, 1);
    await page.evaluate(() => (window.notReloaded = true));
    await publisher.stop();
    // The night went live: a publisher gone is a break, not the night's end nor a stream that never began.
    await page.getByText("The Stream Will Be Right Back").waitFor({ timeout: 30_000 });
    await page.getByText("A short break in the night.", { exact: false }).waitFor();
    assert.equal(await page.getByText("The event will begin soon...").count(), 0);
    await screenshotWidths(page, "ingest-publisher-away");

    again = publish(rtmpUrl, streamKey);
    await admin.live();
    await page.getByText("The Stream Will Be Right Back").waitFor({ state: "detached", timeout: 30_000 });
    await advances(page, 2);
    await playsWithoutStall(page, 5);
    assert.equal(await page.evaluate(() => window.notReloaded), true, "the page was not reloaded");
  } finally {
    await publisher.stop();
    await again?.stop();
  }
});

ingestTest(
  "a page that misses the news that OBS dropped still shows 'Stream Offline' over the player once parts stop coming, and plays again when they return",
  async ({ page }) => {
    const { admin, publisher, rtmpUrl, streamKey } = await goLive();
    let again;
    try {
      // The page keeps the address it was given, as if the server's word that the stream ended never reached it.
      let live = null;
      await page.route("**/api/stream/playback", async (route) => {
        if (!live) live = await (await route.fetch()).json();
        await route.fulfill({ json: live });
      });
      await enterStream(page, "Unwarned");
      await advances(page, 1);
      await publisher.stop();
      const offline = page.locator(".stream-player-frame").getByText("Stream Offline");
      await offline.waitFor({ timeout: 30_000 });
      assert.equal(await page.locator(VIDEO).getAttribute("data-state"), "offline");

      again = publish(rtmpUrl, streamKey);
      await admin.live();
      await offline.waitFor({ state: "detached", timeout: 30_000 });
      await advances(page, 2);
      await playsWithoutStall(page, 5);
    } finally {
      await publisher.stop();
      await again?.stop();
    }
  },
);

ingestTest("without Media Source Extensions the page gives the playlist to the browser's own HLS, or says plainly that this browser cannot play it", async ({ page, context }) => {
  const { publisher } = await goLive();
  try {
    await context.addInitScript(() => {
      delete window.MediaSource;
      delete window.ManagedMediaSource;
    });
    const hlsChunk = recordHlsChunk(page);
    await enterStream(page, "SafariOwl");
    const video = page.locator(VIDEO);
    await video.waitFor({ state: "attached" });
    const native = await page.evaluate(() => document.createElement("video").canPlayType("application/vnd.apple.mpegurl"));
    if (native) {
      await advances(page, 2, 45_000);
      assert.match(await video.getAttribute("src"), /^\/api\/stream\/live\/index\.m3u8/);
      await playsWithoutStall(page, 10);
    } else {
      await page.getByText("This browser cannot play the stream").waitFor();
      await screenshotWidths(page, "ingest-livestream-unsupported");
    }
    assert.equal(hlsChunk.length, 0, "hls.js is not loaded without Media Source Extensions");
    console.log(`native HLS in this Chromium: ${native ? `yes (${native}), played` : "no: the page's fallback was shown"}`);
  } finally {
    await publisher.stop();
  }
});

/** Signs the page in through the login form as the admin adminClient made. */
async function signIn(page, path) {
  await adminClient(app.url);
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await waitForPath(page, "/admin/dashboard");
  if (path) await page.goto(path);
}

/** The card alone at 390 and 1280 px, toasts closed and the phone's top bar out of the way. */
async function screenshotCard(page, locator, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.addStyleTag({ content: ".admin-topbar { position: static !important; }" });
  await dismissToasts(page);
  await page.mouse.move(0, 0);
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(300);
    // A card taller than the window is captured whole in a window as tall as the page.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
    await page.waitForTimeout(300);
    await locator.screenshot({ path: join(screenshotDir, `${name}-${viewport.width}.png`) });
  }
  await page.setViewportSize(DESKTOP);
}

const sourceCard = (page) => page.getByRole("form", { name: "Stream source" });

ingestTest(
  "the admin picks Built-in (OBS), copies the server and the hidden key, sees OBS live with its figures and a playing preview, and the dashboard says it is live",
  async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const admin = await adminClient(app.url);
    await admin.setStreamSource({ kind: "embed", embedUrl: "https://www.youtube.com/embed/dQw4w9WgXcQ" });
    await signIn(page, "/admin/settings");
    const card = sourceCard(page);
    await card.getByText("Built-in (OBS)", { exact: true }).click();
    await card.getByText("Save Stream Source to open the RTMP port").waitFor();
    await card.getByRole("button", { name: "Save Stream Source" }).click();
    await toastWith(page, "Stream Source Saved").waitFor();

    // The page was loaded with the embed's policy: it is loaded again so the preview may play.
    await page.reload();
    const panel = card.getByTestId("ingest-panel");
    await panel.waitFor();
    const { rtmpUrl, streamKey } = await admin.ingest();
    await panel.getByText("Offline", { exact: true }).waitFor();
    await panel.getByText("Waiting for OBS").waitFor();
    assert.equal(await panel.getByLabel("Server", { exact: true }).inputValue(), rtmpUrl);
    const key = panel.getByTestId("stream-key");
    assert.equal(await key.getAttribute("type"), "password", "the key is hidden until revealed");
    assert.notEqual(await key.inputValue(), streamKey, "the page does not hold the key before it is revealed");
    await panel.getByRole("button", { name: "Copy Server" }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), rtmpUrl);
    await panel.getByRole("button", { name: "Copy Stream key" }).click();
    await until(
      () => "the key on the clipboard",
      async () => (await page.evaluate(() => navigator.clipboard.readText())) === streamKey,
    );
    assert.equal(await key.getAttribute("type"), "password", "the key is copied without being shown");
    await panel.getByRole("button", { name: "Reveal" }).click();
    await panel.getByRole("button", { name: "Hide" }).waitFor();
    assert.equal(await key.getAttribute("type"), "text");
    assert.equal(await key.inputValue(), streamKey);
    await panel.getByRole("button", { name: "Hide" }).click();
    await screenshotCard(page, card, "ingest-admin-card-waiting");

    const publisher = publish(rtmpUrl, streamKey);
    try {
      await admin.live();
      await panel.getByText("Live", { exact: true }).waitFor({ timeout: 10_000 });
      const figures = panel.locator(".settings-ingest-figures");
      await figures.getByText("H.264 · 640×360").waitFor();
      await figures.getByText("30 fps").waitFor();
      await figures.getByText("every 1 s").waitFor();
      await figures.getByText("AAC · 48 kHz · stereo").waitFor();
      await figures
        .getByText(/^\d{2,3} kb\/s$/)
        .first()
        .waitFor();
      const preview = "video.settings-ingest-preview-video";
      await page.locator(preview).waitFor();
      await advances(page, 1, 30_000, preview);
      assert.equal(await page.locator(preview).evaluate((v) => v.muted), true, "the preview is muted");
      await page.locator(preview).evaluate((v) => v.pause());
      await screenshotCard(page, card, "ingest-admin-card-live");

      await page.goto("/admin/dashboard");
      const stream = page.getByTestId("dashboard-stream");
      await stream.getByText("Live", { exact: true }).waitFor();
      await stream.getByText(/^640×360 · 30 fps · /).waitFor();
      await screenshotWidths(page, "ingest-admin-dashboard-live");

      // Rotating asks first, says the live publisher is dropped, and drops it.
      await page.goto("/admin/settings");
      await panel.getByText("Live", { exact: true }).waitFor();
      await panel.getByRole("button", { name: "Rotate key" }).click();
      const dialog = page.getByRole("dialog", { name: "Rotate the stream key?" });
      await dialog.getByText("OBS is live now: it is cut off at once").waitFor();
      await page.setViewportSize(MOBILE);
      await page.screenshot({ path: join(screenshotDir, "ingest-admin-rotate-390.png") });
      await page.setViewportSize(DESKTOP);
      await page.screenshot({ path: join(screenshotDir, "ingest-admin-rotate-1280.png") });
      await dialog.getByRole("button", { name: "Rotate key" }).click();
      await toastWith(page, "Stream Key Rotated").waitFor();
      await dialog.waitFor({ state: "detached" });
      const rotated = (await admin.ingest()).streamKey;
      assert.notEqual(rotated, streamKey);
      assert.equal(await key.getAttribute("type"), "text", "the new key is shown");
      assert.equal(await key.inputValue(), rotated);
      await panel.getByText("Offline", { exact: true }).waitFor({ timeout: 15_000 });
      const { code } = await Promise.race([publisher.exited, new Promise((resolve) => setTimeout(() => resolve({ code: "running" }), 15_000))]);
      assert.notEqual(code, "running", "FFmpeg's publish was dropped");
    } finally {
      await publisher.stop();
    }
  },
);

/** Holds a TCP port, as another program would. */
function holdPort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve({ port: /** @type {import("node:net").AddressInfo} */ (server.address()).port, close: () => new Promise((r) => server.close(r)) }));
  });
}

test("choosing Built-in (OBS) while the RTMP port is taken says so in the card, and nothing is saved", async () => {
  const taken = await holdPort();
  const server = await startServer({ args: ["--rtmp-port", String(taken.port)] });
  const browser = await launchBrowser();
  try {
    const { page, pageErrors } = await openPage(browser, server.url, DESKTOP);
    const admin = await adminClient(server.url);
    await admin.setStreamSource({ kind: "embed", embedUrl: "https://www.youtube.com/embed/dQw4w9WgXcQ" });
    await page.goto("/admin/login");
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await waitForPath(page, "/admin/dashboard");
    await page.goto("/admin/settings");
    const card = sourceCard(page);
    await card.getByText("Built-in (OBS)", { exact: true }).click();
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/stream-source" && r.request().method() === "PUT");
    await card.getByRole("button", { name: "Save Stream Source" }).click();
    assert.equal((await saved).status(), 409);
    const alert = card.getByRole("alert").filter({ hasText: "Not saved" });
    await alert.waitFor();
    assert.match(await alert.textContent(), new RegExp(String(taken.port)), "the message names the port");
    assert.equal((await (await page.request.get("/api/admin/stream-source")).json()).kind, "embed");
    await screenshotCard(page, card, "ingest-admin-port-taken");
    assert.deepEqual(pageErrors.map(String), []);
  } finally {
    await browser.close();
    await server.stop();
    await taken.close();
  }
});
