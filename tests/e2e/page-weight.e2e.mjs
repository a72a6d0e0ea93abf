import assert from "node:assert/strict";
import { useApp } from "./support/e2e.mjs";
import { DESKTOP, MOBILE } from "./support/browser.mjs";
import { firstLoadAssets, IDLE_MARK, measureAssets, recordAssets, settled } from "./support/page-weight.mjs";
import { connected, enterStream } from "./support/live.mjs";

const app = useApp();
// The first load: what the page asks for before it turns to code for later (fetched once idle, ahead of the
// first tap), about 82 KiB; React DOM, React and the scheduler are about 56 KiB of it (see `npm run bundle-report`).
const BUDGET_KIB = 90;
const QUERY_CACHE_CHUNK = /\/assets\/query-client-[^/]+\.js$/;
/** The public site's frame and landing page, split off the entry the stream screen shares. */
const SITE_PAGES_CHUNK = /\/assets\/site-pages-[^/]+\.js$/;
// The stream screen's first load, before the player's own code (about 104 KiB).
const STREAM_BUDGET_KIB = 105;

app.browserTest(`the home page's first load is at most ${BUDGET_KIB} KiB of gzipped JS and CSS, the query cache fetched once idle`, async ({ page }) => {
  const assets = recordAssets(page);
  // Each piece of code for later waits for an idle moment of its own: on a busy machine the cache's can come
  // after the network has first fallen quiet.
  const cacheFetched = page.waitForRequest(QUERY_CACHE_CHUNK, { timeout: 30_000 }).then(
    () => true,
    () => false,
  );
  await page.goto("/");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await settled(page);
  const firstLoad = await firstLoadAssets(page, assets);
  const { total, report } = await measureAssets(firstLoad);
  assert.ok(total <= BUDGET_KIB * 1024, `/ loads ${(total / 1024).toFixed(1)} KiB gzipped (${report})`);
  assert.ok(!firstLoad.some((url) => QUERY_CACHE_CHUNK.test(url)), `the query cache is not part of the first load (${report})`);
  assert.ok(await cacheFetched, "the query cache is fetched once the page is idle");
});

app.browserTest(`the stream screen's first load is at most ${STREAM_BUDGET_KIB} KiB of gzipped JS and CSS, without the site's frame`, async ({ page }) => {
  await enterStream(page, "weighed");
  const assets = recordAssets(page);
  await page.goto("/livestream");
  await page.locator(".stream-title").waitFor();
  await connected(page);
  await settled(page);
  const firstLoad = await firstLoadAssets(page, assets);
  const { total, report } = await measureAssets(firstLoad);
  assert.ok(total <= STREAM_BUDGET_KIB * 1024, `/livestream loads ${(total / 1024).toFixed(1)} KiB gzipped (${report})`);
  assert.ok(!firstLoad.some((url) => SITE_PAGES_CHUNK.test(url)), `the site's frame is not part of the stream screen's first load (${report})`);
  assert.ok(
    firstLoad.some((url) => QUERY_CACHE_CHUNK.test(url)),
    `the stream screen reads the server through the query cache (${report})`,
  );
});

/**
 * Records, from before the page's first script runs, what it shows in turn: the loader (once for each time it
 * comes) and the landing page. Resolves with a reader of that list.
 * @param {import("playwright-core").Page} page
 */
async function recordParts(page) {
  await page.addInitScript(() => {
    const seen = [];
    window["seenParts"] = seen;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          if ((node.matches(".page-loader") || node.querySelector(".page-loader")) && seen.at(-1) !== "loader") seen.push("loader");
          if (node.matches(".home") || node.querySelector(".home")) seen.push("home");
        }
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => window["seenParts"]);
}

app.browserTest("the landing page's frame is named in its HTML, and its first paint is the page itself, never the loader", async ({ page }) => {
  const seenParts = await recordParts(page);
  const html = await (await fetch(`${app.url}/`)).text();
  const named = [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]*href="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  assert.ok(
    named.some((file) => SITE_PAGES_CHUNK.test(file)),
    `the landing page names the site's code: ${named.join(", ")}`,
  );
  assert.ok(
    named.some((file) => /\/assets\/site-pages-[^/]+\.css$/.test(file)),
    `and its stylesheet: ${named.join(", ")}`,
  );
  await page.goto("/");
  await page.getByRole("button", { name: /BUY NOW/ }).waitFor();
  assert.deepEqual(await seenParts(), ["home"]);
  // The stylesheet that came with it applies: the frame's header is laid out as a bar, not as bare links.
  assert.equal(await page.locator(".site-header").evaluate((e) => getComputedStyle(e).position), "sticky");
});

app.browserTest("the landing page's frame cut off on its way: the loader shows, then the page by itself, never the error card", async ({ page, context }) => {
  const seenParts = await recordParts(page);
  // The file is refused twice (the page's own preload of it and its first import), then served.
  let cut = 0;
  await context.route(SITE_PAGES_CHUNK, (route) => {
    if (cut < 2) {
      cut++;
      return route.abort("connectionreset");
    }
    return route.fallback();
  });
  await page.goto("/");
  await page.getByRole("button", { name: /BUY NOW/ }).waitFor({ timeout: 20_000 });
  assert.equal(cut, 2, "the frame's file was cut off twice");
  assert.deepEqual(await seenParts(), ["loader", "home"]);
  assert.equal(await page.getByText("Something went wrong").count(), 0, "the page never gave way to the error card");
  await page.getByRole("heading", { level: 1, name: "DREADCAST: The Night It Streams" }).waitFor();
});

app.browserTest("the landing page's frame slow to come: the loader shows within a few seconds, not a blank page, then the page", async ({ page, context }) => {
  let servedAt = 0;
  await context.route(SITE_PAGES_CHUNK, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 6000));
    servedAt = Date.now();
    return route.fallback();
  });
  const started = Date.now();
  await page.goto("/");
  await page.locator(".page-loader").waitFor({ timeout: 5000 });
  assert.equal(servedAt, 0, "the loader showed before the frame's file came");
  await page.getByRole("button", { name: /BUY NOW/ }).waitFor({ timeout: 20_000 });
  assert.ok(servedAt - started >= 5000, "the file was held back");
});

app.browserTest("the display fonts and the code for later are asked for only once the largest paint is shown", async ({ page }) => {
  await page.addInitScript(() => {
    window["largestPaintAt"] = null;
    new PerformanceObserver((list) => {
      window["largestPaintAt"] ??= list.getEntries()[0]?.startTime ?? null;
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  await page.goto("/");
  await page.getByRole("img", { name: /event banner/ }).waitFor();
  await settled(page);
  const { paintedAt, fonts, idleAt } = await page.evaluate((mark) => {
    const started = (entries) => entries.map((e) => e.startTime);
    return {
      paintedAt: window["largestPaintAt"],
      fonts: started(performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".woff2"))),
      idleAt: performance.getEntriesByName(mark)[0]?.startTime ?? null,
    };
  }, IDLE_MARK);
  assert.ok(paintedAt !== null, "the page had a largest paint");
  assert.equal(fonts.length, 2, "both display fonts were fetched");
  for (const at of fonts) assert.ok(at >= paintedAt, `a font was asked for at ${at.toFixed(0)} ms, before the largest paint at ${paintedAt.toFixed(0)} ms`);
  assert.ok(idleAt !== null && idleAt >= paintedAt, `code for later at ${idleAt} ms, the largest paint at ${paintedAt.toFixed(0)} ms`);
});

/**
 * Counts the page's layout shifts (as CLS does: not those right after input), from before its first paint.
 * @param {import("playwright-core").Page} page
 */
async function recordLayoutShifts(page) {
  await page.addInitScript(() => {
    const shifts = [];
    window["layoutShifts"] = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const shift = entry.toJSON();
        if (shift.hadRecentInput) continue;
        shifts.push({ value: shift.value, nodes: entry["sources"].map((s) => s.node?.className ?? s.node?.nodeName ?? "?") });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  return () => page.evaluate(() => window["layoutShifts"]);
}

/**
 * Holds the display fonts back 1.5 s, as on a slow phone, and records the layout shifts from before the first
 * paint. `settle()` waits for the fonts and a frame after them, then asserts they were held and that the page
 * moved at most 0.02 in all.
 * @param {import("playwright-core").Page} page
 */
async function lateFonts(page) {
  let held = 0;
  await page.route("**/*.woff2", async (route) => {
    held += 1;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const shifts = await recordLayoutShifts(page);
  return {
    async settle() {
      // Both faces registered (they are, after the largest paint) and loaded: `check` alone is true for a
      // family nobody has registered yet.
      await page.waitForFunction(
        () => ["Creepster", "Special Elite"].every((family) => [...document.fonts].some((face) => face.family.replace(/"/g, "") === family && face.status === "loaded")),
        null,
        { timeout: 10_000 },
      );
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      assert.ok(held >= 1, "the fonts were held back");
      const moved = await shifts();
      const total = moved.reduce((sum, s) => sum + s.value, 0);
      assert.ok(total <= 0.02, `layout shift ${total.toFixed(3)}: ${JSON.stringify(moved)}`);
    },
  };
}

for (const viewport of [MOBILE, DESKTOP]) {
  app.browserTest(
    `at ${viewport.width} px the landing page paints from its own HTML, and nothing moves when the fonts come late`,
    async ({ page }) => {
      const asked = [];
      page.on("request", (request) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith("/api/")) asked.push(path);
      });
      // The display fonts arrive well after the first paint, as on a slow phone.
      const fonts = await lateFonts(page);
      await page.goto("/");
      // The first render already has the event's title, the start's date and the countdown, and the price.
      await page.getByRole("heading", { level: 1, name: "DREADCAST: The Night It Streams" }).waitFor();
      const first = await page.evaluate(() => ({
        countdown: [...document.querySelectorAll(".countdown-value")].map((e) => e.textContent),
        date: document.querySelector(".countdown-date")?.textContent ?? "",
        banner: document.querySelector(".home-banner-img")?.getAttribute("srcset") ?? "",
        inline: document.getElementById("dreadcast-settings") !== null,
      }));
      assert.equal(first.countdown.length, 4);
      for (const value of first.countdown) assert.match(value, /^\d{2,}$/);
      assert.match(first.date, /\d{4}/);
      assert.match(first.banner, /default-thumbnail-720\.jpg 720w/);
      assert.equal(first.inline, false, "the settings' block is read once and removed");
      await page.getByRole("button", { name: /BUY NOW\s*£1\.00/ }).waitFor();

      // The fonts come; the page stays where it was.
      await fonts.settle();

      // No request stood between the page and its first paint; the payment config comes on a hint of BUY NOW.
      assert.deepEqual(
        asked.filter((path) => path === "/api/livestream-settings" || path === "/api/payment-config"),
        [],
      );
      await page.getByRole("button", { name: /BUY NOW/ }).hover();
      await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("/api/payment-config")));
    },
    { viewport },
  );
}

for (const viewport of [MOBILE, { width: 412, height: 823 }, DESKTOP]) {
  app.browserTest(
    `at ${viewport.width} px the livestream page paints its title and countdown from its own HTML, and nothing moves as it loads`,
    async ({ page }) => {
      // A viewer let in once; then the page opened fresh, the display fonts arriving well after the first paint.
      await enterStream(page, `weigher${viewport.width}`);
      const fonts = await lateFonts(page);
      const asked = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/api/livestream-settings") asked.push(request.url());
      });
      await page.goto("/livestream");
      // The first render already has the event's title in the header and the countdown under the loading card.
      await page.locator(".stream-title", { hasText: "DREADCAST: The Night It Streams" }).waitFor();
      const first = await page.evaluate(() => ({
        countdown: [...document.querySelectorAll(".stream-player .countdown-value")].map((e) => e.textContent),
        inline: document.getElementById("dreadcast-settings") !== null,
      }));
      assert.equal(first.countdown.length, 4);
      for (const value of first.countdown) assert.match(value, /^\d{2,}$/);
      assert.equal(first.inline, false, "the settings' block is read once and removed");
      await connected(page);

      // The fonts come; the page stays where it was.
      await fonts.settle();
      // The viewer's own settings (with the stream link) are asked for once the pass is checked.
      await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("/api/livestream-settings")));
      assert.ok(asked.length >= 1);
    },
    { viewport },
  );
}
