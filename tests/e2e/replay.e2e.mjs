/**
 * The night after, in the browser: FFmpeg publishes to the built-in ingest while a viewer chats, the admin
 * switches the livestream off, and the viewer's /livestream plays the recording (hls.js, seekable) with the
 * chat beside it as it happened — lines appear as the video reaches them and leave when it goes back. Then
 * the replay's settings, its end, and the Recordings screen (rename, trim, hide, download, delete). Last, a
 * night relayed from an HLS origin in MPEG-TS segments replays in hls.js too.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { hlsEncoderArgs } from "../support/hls-encoder.mjs";
import { startHlsOrigin } from "../support/hls-origin.mjs";
import { DESKTOP, MOBILE, screenshotDir, screenshotWidths } from "./support/browser.mjs";
import { ADMIN, dismissToasts, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, until, useApp, waitForPath } from "./support/e2e.mjs";
import { chatLine, enterStream, say, testCode } from "./support/live.mjs";
import { FFMPEG, obsLikeArgs } from "./support/obs-publisher.mjs";

const hasFfmpeg = existsSync(FFMPEG);
if (!hasFfmpeg) console.log(`SKIPPED: ${FFMPEG} is missing (apt-get install ffmpeg): the replay's browser tests need a publisher`);

// --rtmp-port 0: the RTMP port is picked when the source becomes Built-in (OBS) and read from rtmpUrl.
// --allow-private-origins: the relayed night's HLS origin runs on this machine.
const app = useApp({ args: ["--rtmp-port", "0", "--allow-private-origins"] });
const replayTest = (name, fn, options) => (hasFfmpeg ? app.browserTest(name, fn, options) : void test(name, { skip: "no ffmpeg" }, () => {}));

const FIRST = "the door opened by itself";
const LATER = "there is someone behind you";
/** Said between them and deleted by the staff two seconds later: the replay keeps its place, never its words. */
const DOXX = "she lives at 13 Elm Street, flat 4";
const REMOVED = "Message removed";

/** The admin API from Node, signed in as the admin the browser signs in as (made first, once). */
let adminPromise;
function admin() {
  adminPromise ??= (async () => {
    const base = { "content-type": "application/json", origin: app.url };
    await fetch(`${app.url}/api/admin/create-first`, { method: "POST", headers: base, body: JSON.stringify(ADMIN) });
    const login = await fetch(`${app.url}/api/admin/login`, { method: "POST", headers: base, body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }) });
    assert.equal(login.status, 200, await login.text());
    const headers = {
      ...base,
      cookie: login.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
    };
    return async (method, path, body) => {
      const response = await fetch(`${app.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
  })();
  return adminPromise;
}
const call = async (method, path, body) => (await admin())(method, path, body);

/** FFmpeg publishing the way OBS does (x264 with a keyframe a second, AAC), light: 640×360, ultrafast, one thread. */
function publish(rtmpUrl, streamKey) {
  const child = spawn(FFMPEG, obsLikeArgs(rtmpUrl, streamKey), { stdio: ["ignore", "ignore", "ignore"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    async stop() {
      // Asked to stop, FFmpeg ends the stream properly; a publisher that does not is cut off.
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const VIDEO = "video.stream-video";
const position = (page) => page.evaluate((s) => document.querySelector(s)?.currentTime ?? 0, VIDEO);
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

/** Where on the replay's timeline a moment of the night falls, by the playlist's program date-times. */
function positionOf(playlist, at) {
  let start = 0;
  let found = null;
  let dated = null;
  for (const line of playlist.split("\n")) {
    if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) dated = Date.parse(line.slice("#EXT-X-PROGRAM-DATE-TIME:".length));
    else if (line.startsWith("#EXTINF:")) {
      const duration = Number.parseFloat(line.slice("#EXTINF:".length));
      if (dated !== null && dated <= at) found = start + (at - dated) / 1000;
      start += duration;
    }
  }
  return found ?? 0;
}

/** A viewer with a fresh test code lets in on /livestream while the replay is what it plays. */
async function enterReplay(page, username) {
  await page.goto("/design");
  const code = await testCode(page);
  await page.evaluate(
    ([c, u]) => {
      localStorage.setItem("accessCode", c);
      localStorage.setItem("username", u);
    },
    [code, username],
  );
  await page.goto("/livestream");
}

/**
 * The staff in a browser of their own, on the chat's socket: once `text` is said, it is deleted `afterMs`
 * later. Resolves when the chat has told everyone.
 */
async function staffDeletes(context, text, afterMs) {
  const staffContext = await context.browser().newContext({ baseURL: app.url });
  const staff = await staffContext.newPage();
  await admin();
  await staff.goto("/design");
  const login = await staff.request.post("/api/admin/login", { data: { username: ADMIN.username, password: ADMIN.password }, headers: { origin: app.url } });
  assert.equal(login.status(), 200, await login.text());
  const socketOpen = staff.evaluate(
    ([said, delay]) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws`);
        ws.addEventListener("error", () => reject(new Error("the staff's socket failed")));
        ws.addEventListener("message", (event) => {
          const frame = JSON.parse(event.data);
          if (frame.type === "chatHistory") window["staffReady"] = true;
          const lines = frame.type === "chat" ? [frame.message] : frame.type === "chatHistory" ? frame.messages : [];
          const line = lines.find((l) => l.text === said);
          if (line) setTimeout(() => ws.send(JSON.stringify({ type: "delete_message", messageId: line.id })), delay);
          if (frame.type === "message_deleted") {
            ws.close();
            resolve(frame.messageId);
          }
        });
      }),
    [text, afterMs],
  );
  await staff.waitForFunction(() => window["staffReady"] === true);
  return {
    deleted: socketOpen.finally(() => staffContext.close()),
  };
}

const replayChat = (page) => page.getByTestId("replay-chat");
const lineInReplay = (page, text) => replayChat(page).getByRole("log", { name: "Chat messages" }).locator("li").filter({ hasText: text });

/** Where the viewer's two lines fall on the replay's timeline. */
let moments = null;

replayTest("after the night the viewer's /livestream plays the recording, seekable, with the chat beside it as it happened", async ({ page, context }) => {
  await call("PUT", "/api/admin/stream-source", { kind: "ingest" });
  await call("PUT", "/api/admin/livestream-settings", { isActive: true });
  const { rtmpUrl } = await call("GET", "/api/admin/ingest");
  const { streamKey } = await call("POST", "/api/admin/ingest/reveal-key");
  const publisher = publish(rtmpUrl, streamKey);
  try {
    await until("OBS live", async () => (await call("GET", "/api/admin/ingest")).live);
    // The night: the viewer watches live and chats, one line at once, another about four seconds later.
    await enterStream(page, "Nyx");
    await page.waitForFunction((s) => (document.querySelector(s)?.currentTime ?? 0) > 0.5, VIDEO, { timeout: 30_000 });
    const staff = await staffDeletes(context, DOXX, 2000);
    await say(page, FIRST);
    await chatLine(page, FIRST).waitFor();
    await page.waitForTimeout(1500);
    await say(page, DOXX);
    await chatLine(page, DOXX).waitFor();
    await staff.deleted;
    // The room sees it go.
    await chatLine(page, DOXX).waitFor({ state: "detached" });
    await page.waitForTimeout(500);
    await say(page, LATER);
    await chatLine(page, LATER).waitFor();
    await page.waitForTimeout(2500);
  } finally {
    await publisher.stop();
  }
  await until("the recording closed", async () => (await call("GET", "/api/admin/recordings")).recordings[0]?.state === "complete");
  // The night is over: the owner ends it.
  await call("POST", "/api/admin/event/end", {});

  const hlsChunk = [];
  page.on("request", (request) => {
    if (/\/assets\/hls\.light-[^/]+\.js$/.test(new URL(request.url()).pathname)) hlsChunk.push(request.url());
  });
  await page.goto("/livestream");
  await replayChat(page).waitFor();
  const video = page.locator(VIDEO);
  await page.waitForFunction((s) => (document.querySelector(s)?.currentTime ?? 0) > 0.3, VIDEO, { timeout: 30_000 });
  assert.equal(hlsChunk.length, 1, "hls.js is loaded, lazily, for the replay");
  assert.equal(await video.getAttribute("data-state"), "ready");

  // Marked as the replay, with when it was streamed; no composer, hearts or donations.
  await page.locator(".stream-replay-badge").getByText("Replay").waitFor();
  await replayChat(page).getByText("Replay", { exact: true }).waitFor();
  await replayChat(page).getByText("read-only").waitFor();
  const playback = await (await page.request.get("/api/stream/playback")).json();
  assert.equal(playback.kind, "replay");
  const streamed = await page.evaluate((iso) => new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit" }).format(new Date(iso)), playback.startedAt);
  assert.match(await page.locator(".stream-stats").textContent(), new RegExp(streamed));
  assert.equal(await page.getByRole("textbox", { name: "Chat message" }).count(), 0);
  assert.equal(await page.getByRole("button", { name: "Send heart" }).count(), 0);
  assert.equal(await page.getByRole("button", { name: "Donate" }).count(), 0);
  assert.equal(await page.getByText("LIVE", { exact: true }).count(), 0);

  // Where the two lines fall on the video's timeline.
  const playlist = await (await page.request.get(playback.url)).text();
  const chat = await (await page.request.get("/api/stream/replay-chat")).json();
  const saidAt = (text) => Date.parse(chat.lines.find((l) => l.text === text).timestamp);
  // The deleted line: its place and time, no words, no author; in the night's order between the two.
  assert.ok(!JSON.stringify(chat).includes(DOXX), "the deleted line's words are not sent");
  const removed = chat.lines.filter((l) => l.removed);
  assert.deepEqual(
    removed.map((l) => ({ username: l.username, text: l.text })),
    [{ username: "", text: "" }],
  );
  assert.deepEqual(
    chat.lines.map((l) => l.text),
    [FIRST, "", LATER],
  );
  const deletedAt = Date.parse(chat.events.find((e) => e.kind === "delete" && e.messageId === removed[0].id).at);
  moments = {
    first: positionOf(playlist, saidAt(FIRST)),
    later: positionOf(playlist, saidAt(LATER)),
    removed: positionOf(playlist, Date.parse(removed[0].timestamp)),
    deleted: positionOf(playlist, deletedAt),
  };
  assert.ok(moments.later - moments.first > 3, `the lines are apart on the timeline: ${JSON.stringify(moments)}`);
  const duration = await page.evaluate((s) => document.querySelector(s).duration, VIDEO);
  assert.ok(moments.later < duration - 0.5, `the later line falls inside the recording: ${JSON.stringify({ moments, duration })}`);

  // Playing: the first line shows once the video passes its moment, the later one not yet.
  await page.waitForFunction(([s, at]) => document.querySelector(s).currentTime > at + 0.3, [VIDEO, moments.first], { timeout: 30_000 });
  await video.evaluate((v) => v.pause());
  assert.ok((await position(page)) < moments.later - 0.5, "the video has not reached the later line yet");
  await lineInReplay(page, FIRST).waitFor();
  assert.equal(await lineInReplay(page, LATER).count(), 0, "the later line is not shown before its moment");

  // Seeking to the end brings the later line; back to the start takes both away.
  await seek(page, duration - 0.2);
  await lineInReplay(page, LATER).waitFor();
  await lineInReplay(page, FIRST).waitFor();
  await seek(page, 0);
  await lineInReplay(page, LATER).waitFor({ state: "detached" });
  if (moments.first > 0.5) await lineInReplay(page, FIRST).waitFor({ state: "detached" });
  await seek(page, moments.later - 1);
  await lineInReplay(page, FIRST).waitFor();
  assert.equal(await lineInReplay(page, LATER).count(), 0);
  await seek(page, moments.later + 1);
  await lineInReplay(page, LATER).waitFor();
  await video.evaluate((v) => v.pause());

  await assertAccessible(page, "the replay");
  await screenshotWidths(page, "replay-livestream");

  // Between the deleted line's moment and its deletion: its place, marked, without its words or its author; after it, gone as the room saw.
  assert.ok(moments.deleted - moments.removed > 1, `the deletion came after the line: ${JSON.stringify(moments)}`);
  await seek(page, (moments.removed + moments.deleted) / 2);
  await video.evaluate((v) => v.pause());
  await lineInReplay(page, REMOVED).waitFor();
  await lineInReplay(page, FIRST).waitFor();
  assert.equal(await lineInReplay(page, REMOVED).count(), 1);
  assert.equal(await lineInReplay(page, LATER).count(), 0);
  assert.equal(await page.getByText(DOXX).count(), 0, "the deleted line's words are nowhere on the page");
  const lines = await replayChat(page).getByRole("log", { name: "Chat messages" }).locator("li").allTextContents();
  assert.deepEqual(
    lines.map((l) => l.trim()),
    [`Nyx ${FIRST}`, REMOVED],
  );
  await assertAccessible(page, "the replay with a removed line");
  await screenshotWidths(page, "replay-removed-line");
  await seek(page, moments.deleted + 0.5);
  await lineInReplay(page, REMOVED).waitFor({ state: "detached" });
  await lineInReplay(page, FIRST).waitFor();
});

replayTest("the replay's code cut off on its way is fetched again; its chat that fails to load says so, and Try again loads it", async ({ page }) => {
  let cut = 0;
  await page.route(/\/assets\/replay-stream-[^/]+\.js$/, (route) => (cut++ === 0 ? route.abort("connectionreset") : route.fallback()));
  let failed = 0;
  await page.route("**/api/stream/replay-chat", async (route) => {
    if (failed++ === 0) return route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "Simulated failure" }) });
    return route.fallback();
  });
  await enterReplay(page, "Mara");
  const alert = replayChat(page).getByRole("alert").filter({ hasText: "could not be loaded" });
  await alert.waitFor({ timeout: 20_000 });
  await page.waitForFunction((s) => (document.querySelector(s)?.currentTime ?? 0) > 0.3, VIDEO, { timeout: 30_000 });
  await replayChat(page).getByRole("button", { name: "Try again" }).click();
  await alert.waitFor({ state: "detached" });
  assert.equal(failed, 2, "the chat was asked for again");
  assert.ok(cut >= 2, `the replay's code was asked for again after it was cut off: ${cut} requests`);
  assert.equal(await page.getByText("Something went wrong").count(), 0, "the page never gave way to the error card");
  await seek(page, moments ? moments.later + 1 : 9999);
  await lineInReplay(page, LATER).waitFor();
});

replayTest("without Media Source Extensions the replay goes to the browser's own HLS, or the page says plainly that this browser cannot play it", async ({ page, context }) => {
  await context.addInitScript(() => {
    delete window.MediaSource;
    delete window.ManagedMediaSource;
  });
  const hlsChunk = [];
  page.on("request", (request) => {
    if (/\/assets\/hls\.light-[^/]+\.js$/.test(new URL(request.url()).pathname)) hlsChunk.push(request.url());
  });
  await enterReplay(page, "SafariOwl");
  await replayChat(page).waitFor();
  const native = await page.evaluate(() => document.createElement("video").canPlayType("application/vnd.apple.mpegurl"));
  if (native) {
    await page.waitForFunction((s) => (document.querySelector(s)?.currentTime ?? 0) > 1, VIDEO, { timeout: 45_000 });
    assert.match(await page.locator(VIDEO).getAttribute("src"), /^\/api\/stream\/replay\/index\.m3u8/);
    await seek(page, moments ? moments.later + 1 : 9999);
    await lineInReplay(page, LATER).waitFor();
  } else {
    await page.getByText("This browser cannot play the replay").waitFor();
  }
  assert.equal(hlsChunk.length, 0, "hls.js is not loaded without Media Source Extensions");
});

/** Signs the page in through the login form. */
async function signIn(page, path) {
  await admin();
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await waitForPath(page, "/admin/dashboard");
  if (path) await page.goto(path);
}

const pad = (n) => String(n).padStart(2, "0");
/** A datetime-local value in the browser's zone (the test runs it in the machine's). */
const localInput = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

replayTest("Settings: the replay on or off and until when; the server's refusal shows under the date, an empty date is seven days after the start", async ({ page }) => {
  await signIn(page, "/admin/settings");
  const card = page.getByRole("form", { name: "Replay" });
  const toggle = card.getByRole("switch", { name: "Replay after the event" });
  const untilField = card.getByLabel("Available until");
  assert.equal(await toggle.getAttribute("aria-checked"), "true");
  assert.equal(await untilField.inputValue(), "");
  await card.getByText("Empty: 7 days after the start").waitFor();

  // A date already past is refused by the server, beside the field.
  await untilField.fill("2020-01-01T21:00");
  await card.getByRole("button", { name: "Save Replay" }).click();
  await card.getByRole("alert").filter({ hasText: "The replay's end must be in the future" }).waitFor();
  assert.equal((await call("GET", "/api/admin/livestream-settings")).replayUntil, null);

  const later = new Date(Date.now() + 3 * 24 * 3600_000);
  await untilField.fill(localInput(later));
  await card.getByRole("alert").waitFor({ state: "detached" });
  await card.getByRole("button", { name: "Save Replay" }).click();
  await toastWith(page, "Replay Saved").waitFor();
  const saved = (await call("GET", "/api/admin/livestream-settings")).replayUntil;
  assert.equal(localInput(new Date(saved)), localInput(later));
  await screenshotScreen(page, "replay-settings");

  // Cleared: back to seven days after the start (null); off and on again.
  await card.getByRole("button", { name: "Clear date" }).click();
  assert.equal(await untilField.inputValue(), "");
  await card.getByRole("button", { name: "Save Replay" }).click();
  await until("the date cleared", async () => (await call("GET", "/api/admin/livestream-settings")).replayUntil === null);
  await toggle.click();
  assert.equal(await untilField.isDisabled(), true);
  await card.getByRole("button", { name: "Save Replay" }).click();
  await toastWith(page, "will not be offered a replay").waitFor();
  assert.equal((await call("GET", "/api/admin/livestream-settings")).replayEnabled, false);
  await toggle.click();
  await card.getByRole("button", { name: "Save Replay" }).click();
  await toastWith(page, "can watch the replay until").waitFor();
  assert.equal((await call("GET", "/api/admin/livestream-settings")).replayEnabled, true);
});

replayTest(
  "once 'available until' has passed, /livestream says the replay has ended and when, in the viewer's own time, instead of a player",
  async ({ page }) => {
    const endsAt = Date.now() + 4000;
    await call("PUT", "/api/admin/livestream-settings", { replayUntil: new Date(endsAt).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, endsAt - Date.now() + 500));
    await enterReplay(page, "Latecomer");
    await page.getByText("The Replay Has Ended").waitFor({ timeout: 20_000 });
    const playback = await (await page.request.get("/api/stream/playback")).json();
    assert.deepEqual([playback.kind, playback.url], ["replay", ""]);
    const local = await page.evaluate(
      (iso) => new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZoneName: "short" }).format(new Date(iso)),
      playback.replayEndedAt,
    );
    const said = await page.getByText("It was available until").textContent();
    assert.ok(said.includes(local), `the end in the viewer's time (${local}): ${said}`);
    assert.ok(/GMT-[45]/.test(local), `New York's time: ${local}`);
    assert.equal(await page.locator("video").count(), 0, "no player");
    await replayChat(page).getByText("The night's chat closed with the replay.").waitFor();
    assert.equal(await page.getByRole("textbox", { name: "Chat message" }).count(), 0);
    await assertAccessible(page, "the replay's end");
    await screenshotWidths(page, "replay-ended");
  },
  { contextOptions: { timezoneId: "America/New_York" } },
);

replayTest("the Recordings screen: space, rename, trim with the server's refusal, hide, download and, after a failed load and Try again, delete", async ({ page }) => {
  await signIn(page);
  // The dashboard says how much space the recordings take.
  const onDashboard = page.getByTestId("dashboard-recordings");
  await onDashboard.getByText(/used · .* free on the disk/).waitFor();
  await screenshotScreen(page, "replay-admin-dashboard");
  await onDashboard.getByRole("link", { name: /in Recordings/ }).click();
  await waitForPath(page, "/admin/recordings");
  assert.equal(await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Recordings" }).getAttribute("aria-current"), "page");

  const { recordings, totalBytes } = await call("GET", "/api/admin/recordings");
  const [recording] = recordings;
  const card = page.locator(`[data-recording="${recording.id}"]`);
  await card.waitFor();
  await page
    .getByTestId("recordings-space")
    .getByText(/used by 1 recording/)
    .waitFor();
  await page
    .getByTestId("recordings-space")
    .getByText(/free on the disk/)
    .waitFor();
  assert.ok(totalBytes > 10_000);
  await card.getByText("Complete", { exact: true }).waitFor();
  await card.getByText("640×360").waitFor();

  // Rename in place.
  await card.getByRole("button", { name: `Rename: ${recording.title}` }).click();
  const titleField = card.getByRole("textbox", { name: "Title" });
  await titleField.fill("The Hollow House, night one");
  await titleField.press("Enter");
  await toastWith(page, "Recording renamed").waitFor();
  await card.getByRole("heading", { name: "The Hollow House, night one" }).waitFor();
  assert.equal((await call("GET", "/api/admin/recordings")).recordings[0].title, "The Hollow House, night one");

  // A trim outside the recording: the server's words beside the field, nothing saved; then a good one.
  const trimStart = card.getByLabel("Trim start (s)");
  await trimStart.fill("999");
  await card.getByRole("button", { name: "Save Trim" }).click();
  await card.getByRole("alert").filter({ hasText: "Trim start must be inside the recording" }).waitFor();
  assert.equal(await trimStart.getAttribute("aria-invalid"), "true");
  assert.equal((await call("GET", "/api/admin/recordings")).recordings[0].trimStartS, 0);
  await trimStart.fill("2");
  await card.getByRole("button", { name: "Save Trim" }).click();
  await toastWith(page, "Trim saved").waitFor();
  await card.getByText(/plays 0:\d\d after trims/).waitFor();
  const trimmed = (await call("GET", "/api/admin/recordings")).recordings[0];
  assert.equal(trimmed.trimStartS, 2);
  assert.ok(trimmed.playedS < recording.durationS);

  // Hidden from the replay and shown again.
  await card.getByRole("button", { name: "Hide from Replay" }).click();
  await card.getByText("Hidden", { exact: true }).waitFor();
  assert.equal((await call("GET", "/api/admin/recordings")).recordings[0].hidden, true);
  await card.getByRole("button", { name: "Show in Replay" }).click();
  await card.getByText("Hidden", { exact: true }).waitFor({ state: "detached" });

  // The download: an MP4 of what the replay plays.
  const href = await card.getByRole("link", { name: "Download MP4" }).getAttribute("href");
  assert.equal(href, `/api/admin/recordings/${recording.id}.mp4`);
  const download = await page.request.get(href);
  assert.equal(download.status(), 200);
  assert.equal(download.headers()["content-type"], "video/mp4");
  const body = await download.body();
  assert.ok(body.length > 10_000, `the file has the video: ${body.length} bytes`);
  assert.equal(body.subarray(4, 8).toString("latin1"), "ftyp", "it starts as an MP4 does");
  // Its length, as a resumed download is told it.
  const ranged = await page.request.get(href, { headers: { range: "bytes=0-99" } });
  assert.equal(ranged.status(), 206);
  assert.equal(ranged.headers()["content-range"], `bytes 0-99/${body.length}`);
  assert.equal((await ranged.body()).length, 100);
  const downloaded = page.waitForEvent("download");
  await card.getByRole("link", { name: "Download MP4" }).click();
  assert.equal((await downloaded).suggestedFilename(), "The-Hollow-House-night-one.mp4");

  await assertAccessible(page, "the Recordings screen");
  await screenshotScreen(page, "replay-admin-recordings");

  // The list fails to load once: the screen says so, and Try again brings it back.
  let failed = 0;
  await page.route(
    (url) => url.pathname === "/api/admin/recordings",
    async (route) => {
      if (route.request().method() === "GET" && failed++ === 0)
        return route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "Simulated failure" }) });
      return route.fallback();
    },
  );
  await page.reload();
  await page.getByText("The recordings could not be loaded").waitFor();
  await toastWith(page, "Failed to load the recordings.").waitFor();
  await page.getByRole("button", { name: "Try again" }).click();
  await card.waitFor();

  // Deleting asks first, then frees the space.
  await dismissToasts(page);
  await card.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete “The Hollow House, night one”?" });
  await dialog.getByText("Download it first to keep a copy.").waitFor();
  mkdirSync(screenshotDir, { recursive: true });
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(screenshotDir, `replay-admin-recordings-delete-${viewport.width}.png`) });
  }
  await dialog.getByRole("button", { name: "Delete Recording" }).click();
  await toastWith(page, "Recording deleted").waitFor();
  await page.getByText("No recordings yet").waitFor();
  assert.deepEqual((await call("GET", "/api/admin/recordings")).recordings, []);
  await page
    .getByTestId("recordings-space")
    .getByText(/^0 bytes/)
    .waitFor();
});

/** FFmpeg as a live HLS origin's encoder: `seconds` of picture and tone in 1 s MPEG-TS segments, written as it goes. */
function encodeTs(out, seconds) {
  const child = spawn(FFMPEG, hlsEncoderArgs(out, { seconds, type: "mpegts", prefix: "ts-", listSize: 0 }), { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk) => (errors += chunk));
  return new Promise((resolve, reject) => child.once("exit", (code) => (code === 0 ? resolve(undefined) : reject(new Error(`ffmpeg: ${errors}`)))));
}

replayTest("a night relayed from an HLS origin in MPEG-TS segments replays in hls.js, seekable to its end", async ({ page }) => {
  for (const { id } of (await call("GET", "/api/admin/recordings")).recordings) await call("DELETE", `/api/admin/recordings/${id}`);
  const liveDir = mkdtempSync(join(tmpdir(), "dreadcast-ts-night-"));
  const origin = await startHlsOrigin({ liveDir });
  try {
    await call("PUT", "/api/admin/livestream-settings", { isActive: true, replayEnabled: true, replayUntil: new Date(Date.now() + 24 * 3600_000).toISOString() });
    await call("PUT", "/api/admin/stream-source", { kind: "hls", originUrl: origin.playlistUrl });
    await encodeTs(liveDir, 8);
    const [recording] = await until("the relayed recording closed", async () => {
      const { recordings } = await call("GET", "/api/admin/recordings");
      return recordings.length === 1 && recordings[0].state === "complete" ? recordings : null;
    });
    assert.deepEqual([recording.width, recording.height], [640, 360]);
  } finally {
    await origin.stop();
    rmSync(liveDir, { recursive: true, force: true });
  }
  await call("POST", "/api/admin/event/end", {});

  const hlsChunk = [];
  page.on("request", (request) => {
    if (/\/assets\/hls\.light-[^/]+\.js$/.test(new URL(request.url()).pathname)) hlsChunk.push(request.url());
  });
  const segments = [];
  page.on("response", (response) => {
    if (/\/api\/stream\/replay\/.+\.ts(\?|$)/.test(response.url())) segments.push(response.status());
  });
  await enterReplay(page, "TsOwl");
  await replayChat(page).waitFor();
  const playback = await (await page.request.get("/api/stream/playback")).json();
  assert.equal(playback.kind, "replay");
  const playlist = await (await page.request.get(playback.url)).text();
  assert.match(playlist, /\.ts(\?|\n|$)/m, "the replay lists the origin's MPEG-TS segments");
  await page.waitForFunction((s) => (document.querySelector(s)?.currentTime ?? 0) > 1, VIDEO, { timeout: 30_000 });
  assert.equal(hlsChunk.length, 1, "hls.js plays it (Media Source Extensions)");
  assert.equal(await page.locator(VIDEO).getAttribute("data-state"), "ready");
  const duration = await page.evaluate((s) => document.querySelector(s).duration, VIDEO);
  assert.ok(Math.abs(duration - 8) <= 1.5, `the replay is the night's 8 s: ${duration}`);

  // Seeking near the end plays on from there, and the video reaches its end.
  await seek(page, duration - 2);
  await page.waitForFunction((s) => document.querySelector(s).ended || document.querySelector(s).currentTime >= document.querySelector(s).duration - 0.5, VIDEO, {
    timeout: 20_000,
  });
  assert.ok(segments.length > 0 && segments.every((status) => status === 200), `segments answered: ${segments.join(", ")}`);
  assert.equal(await page.getByText("This browser cannot play the replay").count(), 0);
});
