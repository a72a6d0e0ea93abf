import assert from "node:assert/strict";
import { accessibilityViolations } from "./support/a11y.mjs";
import { DESKTOP, MOBILE, screenshot } from "./support/browser.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { adminApi, connected, enterStream, PLAYER_URL, routePlayer, testCode } from "./support/live.mjs";
import { countdownValues, countingDown } from "./support/countdown.mjs";

const app = useApp();
/** @type {Awaited<ReturnType<typeof adminApi>>} */
let admin;
const theAdmin = async () => (admin ??= await adminApi(app.url));

/** The viewer is in New York: 01:30 UTC on 15 January 2030 is 20:30 on the 14th there. */
const VIEWER_ZONE = { timezoneId: "America/New_York" };
const FAR_START = "2030-01-15T01:30:00.000Z";
const LOCAL_DAY = "Monday 14 January 2030";
const LOCAL_TIME = /^20:30 (GMT-5|EST)$/;

/** The start's day and time as shown beside a countdown. */
async function shownStart(scope) {
  const date = scope.locator(".countdown-date time");
  return { iso: await date.getAttribute("datetime"), day: await date.locator(".event-date-day").textContent(), time: await date.locator(".event-date-time").textContent() };
}

/** Stores a code and name in the browser as the landing form would. */
async function storeCode(page, code, username) {
  await page.evaluate(
    ([c, u]) => {
      localStorage.setItem("accessCode", c);
      localStorage.setItem("username", u);
    },
    [code, username],
  );
}

for (const viewport of [MOBILE, DESKTOP]) {
  const at = `(${viewport.width} px)`;
  const options = { viewport, contextOptions: VIEWER_ZONE };

  app.browserTest(
    `the landing page gives the start's day and time, in the viewer's zone, beside the countdown ${at}`,
    async ({ page }) => {
      await (await theAdmin()).updateSettings({ startDate: FAR_START, isActive: true });
      await page.goto("/");
      const countdown = page.getByRole("region", { name: "EVENT BEGINS IN" });
      await countdown.getByRole("heading", { name: "EVENT BEGINS IN" }).waitFor();
      const start = await shownStart(countdown);
      assert.equal(start.iso, FAR_START);
      assert.equal(start.day, LOCAL_DAY);
      assert.match(start.time, LOCAL_TIME);
      await countingDown(page);
      const values = await countdownValues(countdown);
      assert.deepEqual(Object.keys(values), ["Days", "Hours", "Minutes", "Seconds"]);
      assert.ok(Number(values.Days) > 365, `${values.Days} days to 2030`);
      await page.evaluate(() => document.fonts.ready);
      await screenshot(page, `event-start-home-countdown-${viewport.width}`);
    },
    options,
  );

  app.browserTest(
    `at the start the landing page stops counting and says the event is live, with the way in ${at}`,
    async ({ page, context }) => {
      const api = await theAdmin();
      // The stream's player is set: at the start, with the doors open, it is on air.
      await routePlayer(context);
      await api.updateSettings({ startDate: new Date(Date.now() + 4000).toISOString(), isActive: true, embedUrl: PLAYER_URL });
      await page.goto("/");
      await page.getByRole("heading", { name: "EVENT BEGINS IN" }).waitFor();
      // No reload: the page turns over by itself when the start comes.
      const live = page.getByRole("region", { name: "The event is live" });
      await live.waitFor({ timeout: 10_000 });
      assert.equal(await page.locator(".countdown-box").count(), 0, "no 00 00 00 00 after the start");
      await live.getByText("LIVE NOW").waitFor();
      await live.getByText("It has already begun. Get a pass below, or enter the code you were given, and join everyone watching.").waitFor();
      assert.match(await live.locator(".event-date-time").textContent(), /^\d\d:\d\d (GMT|EST|EDT)/);
      // A visitor can still buy, or enter a code.
      await page.getByRole("button", { name: /BUY NOW/ }).waitFor();
      await page.getByRole("button", { name: "ENTER THE DARKNESS" }).waitFor();
      assert.equal(await live.getByRole("link", { name: "WATCH NOW" }).count(), 0);
      assert.deepEqual(await accessibilityViolations(page), []);
      await page.evaluate(() => document.fonts.ready);
      await screenshot(page, `event-start-home-live-${viewport.width}`);

      // The switch off after the start: due any moment, not live.
      await api.updateSettings({ isActive: false });
      await page.reload();
      const due = page.getByRole("region", { name: "The event is about to begin" });
      await due.getByText("STARTING ANY MOMENT").waitFor();
      await api.updateSettings({ isActive: true });

      // A viewer holding a code goes straight to the stream.
      await storeCode(page, await testCode(page), `Early${viewport.width}`);
      await page.reload();
      const watch = page.getByRole("region", { name: "The event is live" }).getByRole("link", { name: "WATCH NOW" });
      await watch.waitFor();
      await page.evaluate(() => document.fonts.ready);
      await screenshot(page, `event-start-home-live-with-code-${viewport.width}`);
      await watch.click();
      await waitForPath(page, "/livestream");
      await connected(page);
      await api.updateSettings({ embedUrl: "" });
    },
    options,
  );

  app.browserTest(
    `before the stream exists /livestream shows the loading card with the start and no LIVE badge; the badge comes with the stream ${at}`,
    async ({ page, context }) => {
      await routePlayer(context);
      const api = await theAdmin();
      await api.updateSettings({ startDate: FAR_START, isActive: true, embedUrl: "" });
      await enterStream(page, `Waiting${viewport.width}`);
      const stage = page.getByRole("region", { name: "Stream" });
      await stage.getByText("Loading Stream").waitFor();
      await stage.getByText("Please wait...").waitFor();
      const countdown = stage.getByRole("region", { name: "EVENT BEGINS IN" });
      const start = await shownStart(countdown);
      assert.equal(start.day, LOCAL_DAY);
      assert.match(start.time, LOCAL_TIME);
      await countingDown(page);
      assert.ok(Number((await countdownValues(countdown)).Days) > 365);
      assert.equal(await page.locator(".stream-live").count(), 0, "no LIVE badge before there is a stream");
      assert.ok(await stage.getByRole("region", { name: "EVENT BEGINS IN" }).isVisible(), "the countdown fits in the player");
      assert.deepEqual(await accessibilityViolations(page), []);
      await page.evaluate(() => document.fonts.ready);
      await screenshot(page, `event-start-livestream-waiting-${viewport.width}`);

      try {
        // Past the start, still no stream: due any moment, without a reload.
        await api.updateSettings({ startDate: new Date(Date.now() - 60_000).toISOString() });
        await stage.getByRole("region", { name: "STARTING ANY MOMENT" }).waitFor();
        assert.equal(await stage.locator(".countdown-box").count(), 0);
        assert.equal(await page.locator(".stream-live").count(), 0);
        await page.evaluate(() => document.fonts.ready);
        await screenshot(page, `event-start-livestream-due-${viewport.width}`);

        // The stream is set up: the player and the LIVE badge.
        await api.updateSettings({ embedUrl: PLAYER_URL });
        await page.locator(".stream-live").getByText("LIVE").waitFor();
        await stage.locator(`iframe[src="${PLAYER_URL}"]`).waitFor();
        assert.equal(await stage.getByText("Loading Stream").count(), 0);
      } finally {
        await api.updateSettings({ embedUrl: "", startDate: FAR_START });
      }
    },
    options,
  );

  app.browserTest(
    `one failed access check is tried again by itself: the chat connects and no error stays ${at}`,
    async ({ page }) => {
      await page.goto("/design");
      await storeCode(page, await (await theAdmin()).generateCode("SKP"), `Flaky${viewport.width}`);
      let checks = 0;
      await page.route("**/api/verify-stream-access", (route) => {
        checks += 1;
        return checks === 1 ? route.fulfill({ status: 503, contentType: "text/plain", body: "Service Unavailable" }) : route.continue();
      });
      await page.goto("/livestream");
      await connected(page);
      assert.equal(checks, 2);
      assert.equal(await page.getByText("Connection error. Please reload the page.").count(), 0);
      assert.equal(await toastWith(page, "Verification Error").count(), 0);
      assert.equal(await page.getByRole("textbox", { name: "Chat message" }).getAttribute("placeholder"), "Type a message...");
      await page.waitForFunction(() => Number(document.querySelector(".stream-stat-value")?.textContent) >= 1);
      assert.equal(await page.getByRole("button", { name: "Donate" }).isDisabled(), false);
      await page.evaluate(() => document.fonts.ready);
      await screenshot(page, `event-start-access-retried-${viewport.width}`);
    },
    options,
  );

  app.browserTest(
    `after a streak of failed access checks the viewer is told, and RECONNECT asks again at once ${at}`,
    async ({ page }) => {
      await page.goto("/design");
      await storeCode(page, await (await theAdmin()).generateCode("SKP"), `Stuck${viewport.width}`);
      let down = true;
      const checks = [];
      await page.route("**/api/verify-stream-access", (route) => {
        checks.push(Date.now());
        return down ? route.fulfill({ status: 503, contentType: "text/plain", body: "Service Unavailable" }) : route.continue();
      });
      await page.goto("/livestream");
      await page.getByText("Connection error. Please reload the page.").waitFor({ timeout: 20_000 });
      await toastWith(page, "Verification Error").getByText("There was a problem verifying your access. Please try again.").waitFor();
      assert.equal(checks.length, 5, "told after five tries");
      // 1 s, then 1.5× longer each time: 1 + 1.5 + 2.25 + 3.375 s between the five.
      const gaps = checks.slice(1).map((t, i) => t - checks[i]);
      [1000, 1500, 2250, 3375].forEach((expected, i) => assert.ok(gaps[i] >= expected - 50 && gaps[i] < expected + 1500, `gap ${i + 1}: ${gaps[i]} ms`));
      const reconnect = page.getByRole("button", { name: "RECONNECT" });
      assert.equal(await reconnect.isDisabled(), false, "RECONNECT stays usable");
      await page.evaluate(() => document.fonts.ready);
      await screenshot(page, `event-start-access-failing-${viewport.width}`);

      down = false;
      const clicked = Date.now();
      await reconnect.click();
      // The next try by itself would be 5 s away: RECONNECT asked at once.
      await connected(page, 3000);
      assert.ok(checks.at(-1) - clicked < 1000);
      await page.getByText("Connection error. Please reload the page.").waitFor({ state: "detached" });
    },
    options,
  );
}
