/**
 * The night's shape, in the browser, with FFmpeg publishing as OBS does: a rehearsal before the doors open
 * (the panel previews it and says viewers do not see it; it stays out of the replay), then the night — live,
 * a break that stays a break (the stream will be right back, the chat open, the player back by itself),
 * the owner's End the night with what follows, the replay sold as the replay, and the closed night.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { ADMIN, logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { screenshotWidths } from "./support/browser.mjs";
import { toastWith, until, useApp } from "./support/e2e.mjs";
import { adminApi, chatLine, enterStream, openViewer, say } from "./support/live.mjs";
import { FFMPEG, obsLikeArgs } from "./support/obs-publisher.mjs";

const hasFfmpeg = existsSync(FFMPEG);
if (!hasFfmpeg) console.log(`SKIPPED: ${FFMPEG} is missing (apt-get install ffmpeg): the night's browser tests need a publisher`);

const app = useApp({ args: ["--rtmp-port", "0"] });
const nightTest = (name, fn, options) => (hasFfmpeg ? app.browserTest(name, fn, options) : void test(name, { skip: "no ffmpeg" }, () => {}));

let api;
const theAdmin = async () => (api ??= await adminApi(app.url, ADMIN));

/** FFmpeg publishing the way OBS does; stop() ends the stream properly. */
function publish(rtmpUrl, streamKey) {
  const child = spawn(FFMPEG, obsLikeArgs(rtmpUrl, streamKey), { stdio: ["ignore", "ignore", "ignore"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function publisher() {
  const admin = await theAdmin();
  const { rtmpUrl, streamKey } = await admin.ingest();
  const obs = publish(rtmpUrl, streamKey);
  await until("OBS live", async () => (await admin.ingestView()).live);
  return obs;
}

const phaseIs = (phase) => async () => (await (await theAdmin()).publicSettings()).phase === phase;
const VIDEO = "video.stream-video";
const playing = (page) => page.waitForFunction((s) => (document.querySelector(s)?.currentTime ?? 0) > 0.5, VIDEO, { timeout: 30_000 });

nightTest("a rehearsal before the doors open: the panel previews it, viewers see nothing, and it stays out of the replay", async ({ page, context }) => {
  // Signed in first: the sign-in makes the panel's admin, whom the API then signs in as too.
  await logIn(page);
  const admin = await theAdmin();
  await admin.setStreamSource({ kind: "ingest" });
  // Doors closed, the start tomorrow: what OBS sends now is a rehearsal.
  await admin.updateSettings({ isActive: false, startDate: new Date(Date.now() + 24 * 3600_000).toISOString() });
  await admin.saveSettings({ contactEmail: "help@nightowl.example", organizerName: "Night Owl Events" });
  // Before anything connects, OBS's settings are up front, and the protection is said as good news.
  await page.goto("/admin/settings");
  const obsSettings = page.locator("details.settings-ingest-obs");
  assert.equal(await obsSettings.getAttribute("open"), "");
  await obsSettings.getByText("1 or 2 s (Settings → Output, Output Mode: Advanced)").waitFor();
  await page.locator(".alert-good").filter({ hasText: "Only paying viewers can play it" }).waitFor();
  const obs = await publisher();
  try {
    // A second OBS with the same key is refused, and the panel says when, from where and why.
    const { rtmpUrl, streamKey } = await admin.ingest();
    const second = publish(rtmpUrl, streamKey);
    const refused = page.getByRole("region", { name: "Refused publishes" });
    await refused.getByText("another publisher is already live with this key", { exact: false }).waitFor({ timeout: 20_000 });
    await second.stop();
    const preview = page.getByRole("figure", { name: "Preview" });
    await preview.getByText("Viewers don't see this: it is a rehearsal.", { exact: false }).waitFor({ timeout: 20_000 });
    await preview.locator("video").waitFor();
    await page.getByRole("form", { name: "The night" }).getByText("Doors closed").waitFor();
    await screenshotScreen(page, "night-rehearsal-panel");

    // A pass holder on the stream page: no player, the stream is not live.
    const viewer = await context.newPage();
    await enterStream(viewer, "Early");
    await viewer.getByText("Stream Offline").waitFor();
    assert.equal(await viewer.locator(VIDEO).count(), 0);
    await viewer.close();
  } finally {
    await obs.stop();
  }
  await page.goto("/admin/recordings");
  const card = page.locator(".recordings-card").first();
  await card.getByText("Rehearsal · not in the replay").waitFor({ timeout: 20_000 });
  await card.getByRole("button", { name: "Keep in Replay" }).waitFor();
  await screenshotScreen(page, "night-rehearsal-recordings");
});

nightTest("the night: live, a break that stays a break, back by itself, ended by the owner, then sold and played as the replay", async ({ page, context }) => {
  const admin = await theAdmin();
  // The start has come and the doors are opened.
  await admin.updateSettings({ startDate: new Date(Date.now() - 5 * 60_000).toISOString() });
  await admin.night("open");

  const first = await publisher();
  await until("live", phaseIs("live"));
  await enterStream(page, "Nyx");
  await playing(page);
  await first.stop();

  // A break: the page says the stream will be right back; the chat stays open.
  await until("on a break", phaseIs("break"), 30_000);
  await page.getByText("The Stream Will Be Right Back").waitFor({ timeout: 30_000 });
  await say(page, "still here in the dark");
  await chatLine(page, "still here in the dark").waitFor();
  await screenshotWidths(page, "night-break-stream");

  // A visitor without a pass, on the home page.
  const visitor = await openViewer(context.browser(), app.url);
  const home = visitor.page;
  await home.goto("/");
  const onBreak = home.getByRole("region", { name: "The stream will be right back" });
  await onBreak.getByText("BACK IN A MOMENT").waitFor();
  await home.getByRole("button", { name: /BUY NOW/ }).waitFor();
  await screenshotWidths(home, "night-break-home");

  // OBS comes back: the player comes back by itself.
  const second = await publisher();
  await page.getByText("The Stream Will Be Right Back").waitFor({ state: "detached", timeout: 30_000 });
  await playing(page);
  await second.stop();
  await until("on a break again", phaseIs("break"), 30_000);

  // The owner ends the night from the panel; the first try fails on the way and says so.
  const panel = await context.newPage();
  await logIn(panel, "/admin/settings");
  const night = panel.getByRole("form", { name: "The night" });
  await night.getByText("On a break").waitFor();
  await night.getByText("Your stream has stopped.", { exact: false }).waitFor();
  await screenshotScreen(panel, "night-break-panel");
  let failed = false;
  await panel.route("**/api/admin/event/end", (route) => {
    if (failed) return route.fallback();
    failed = true;
    return route.abort("connectionreset");
  });
  await night.getByRole("button", { name: "End the night" }).click();
  const confirm = panel.getByRole("dialog", { name: "End the night?" });
  await confirm.getByText("Pass holders then get the replay of the kept recordings", { exact: false }).waitFor();
  await screenshotScreen(panel, "night-end-confirm");
  await confirm.getByRole("button", { name: "End the night" }).click();
  await toastWith(panel, "Failed to end the night.").waitFor();
  assert.equal(await phaseIs("break")(), true, "a failed end leaves the night as it was");
  await confirm.getByRole("button", { name: "End the night" }).click();
  await toastWith(panel, "Night Ended").waitFor();
  await night
    .getByText(/Ended|Replay open/)
    .first()
    .waitFor();
  await panel.close();

  // The viewer's page turns into the replay; it says when the night went live, not when a recording began.
  await until("the replay open", phaseIs("replay"), 30_000);
  const { night: times } = await admin.publicSettings();
  const streamed = page.locator(".stream-replay-facts time");
  await streamed.waitFor({ timeout: 30_000 });
  assert.equal(await streamed.getAttribute("datetime"), new Date(times.wentLiveAt).toISOString());
  await screenshotWidths(page, "night-replay-stream");

  // A new visitor is sold the replay, and told so before paying.
  await home.reload();
  await home.getByRole("region", { name: "Watch the night again" }).getByText("REPLAY", { exact: true }).waitFor();
  await home.getByRole("heading", { name: "One pass. One device. The replay." }).waitFor();
  await screenshotWidths(home, "night-replay-home");
  await home.getByRole("button", { name: /BUY NOW/ }).click();
  const dialog = home.getByRole("dialog", { name: "Secure Your Access" });
  await dialog.getByText("This pass is for the replay: the live night is over.", { exact: false }).waitFor();
  await screenshotWidths(home, "night-replay-payment");
  await visitor.context.close();
});

nightTest("after the replay's window: the night is over, nothing is sold, and the organiser's contact is given", async ({ page }) => {
  const admin = await theAdmin();
  // The night was eight days ago: its week of replay has passed.
  await admin.saveSettings({ startDate: new Date(Date.now() - 8 * 24 * 3600_000).toISOString(), replayUntil: null });
  await until("closed", phaseIs("closed"));
  await page.goto("/");
  const closed = page.getByRole("region", { name: "Thank you for watching" });
  await closed.getByText("This night has ended and its replay is no longer available.").waitFor();
  assert.equal(await closed.getByRole("link", { name: "help@nightowl.example" }).getAttribute("href"), "mailto:help@nightowl.example");
  await page.getByRole("heading", { name: "Passes are no longer sold" }).waitFor();
  assert.equal(await page.getByRole("button", { name: /BUY NOW/ }).count(), 0);
  await screenshotWidths(page, "night-closed-home");
  // Asked for anyway, the server refuses to sell.
  const refused = await page.evaluate(async () => {
    const res = await fetch("/api/create-payment-intent", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 100, product: "livestream-access" }),
    });
    return { status: res.status, body: await res.json() };
  });
  assert.deepEqual(refused, { status: 409, body: { error: "Passes are no longer sold: the night is over." } });
});
