/** What a page loads at first paint, as the server sends it: used by the budget tests and the benchmark. */
import { request as httpRequest } from "node:http";

/** The size of a response body as sent with `accept-encoding: gzip` (not decompressed). */
export function gzippedSize(url) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk) => (bytes += chunk.length));
      res.on("end", () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The mark the web app sets when it first turns to code for later (web/src/lib/idle.ts). */
export const IDLE_MARK = "dreadcast:idle";

/**
 * Waits until the page has turned to code for later (its idle mark), then until the network is quiet: on a
 * busy machine the network can fall quiet while the page's code still runs, before the screen's own code
 * is asked for, so network idle alone can end a measure too early.
 * @param {import("playwright-core").Page} page
 */
export async function settled(page, timeout = 30_000) {
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, IDLE_MARK, { timeout, polling: 100 });
  try {
    await page.waitForLoadState("networkidle", { timeout: timeout / 3 });
  } catch {
    // A page whose network does not fall quiet (a player reloading its playlist on a slow machine): settled
    // once it has asked for no script or stylesheet for two seconds, by its own resource timings.
    await page.waitForFunction(
      () => {
        const code = performance.getEntriesByType("resource").filter((e) => ["script", "link", "css"].includes(/** @type {PerformanceResourceTiming} */ (e).initiatorType));
        const last = Math.max(0, ...code.map((e) => /** @type {PerformanceResourceTiming} */ (e).responseEnd || Infinity));
        return performance.now() - last > 2_000;
      },
      undefined,
      { timeout, polling: 250 },
    );
  }
}

/**
 * Starts recording the scripts and stylesheets the page requests; returns the live set of their URLs.
 * @param {import("playwright-core").Page} page
 */
export function recordAssets(page) {
  const assets = new Set();
  page.on("request", (request) => {
    if (["script", "stylesheet"].includes(request.resourceType())) assets.add(request.url());
  });
  return assets;
}

/**
 * The page's first load: the recorded assets it asked for before it turned to code for later — what it
 * fetches once idle, ahead of the first tap (the payment dialog, the toast area, the query cache), is not
 * counted. All of them for a page that never turned idle. Both times are read off the page's own clock (its
 * resource timings and the mark): a request's time as the test process saw it could be late by however long
 * the event took to reach it, and on a busy machine that put files on the wrong side of the mark. A file's
 * timing is written when its response ends, so the measure waits for those still on their way (up to 10 s);
 * a file the page still has no timing for counts as first load.
 * @param {import("playwright-core").Page} page
 * @param {Set<string>} assets from recordAssets
 */
export async function firstLoadAssets(page, assets) {
  const timings = () =>
    page.evaluate((name) => {
      const mark = performance.getEntriesByName(name)[0];
      /** @type {Record<string, number>} */
      const started = {};
      for (const entry of performance.getEntriesByType("resource")) started[entry.name] = Math.min(started[entry.name] ?? Infinity, entry.startTime);
      return { idleAt: mark ? mark.startTime : null, startedAt: started };
    }, IDLE_MARK);
  let { idleAt, startedAt } = await timings();
  for (const giveUpAt = Date.now() + 10_000; [...assets].some((url) => !(url in startedAt)) && Date.now() < giveUpAt;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    ({ idleAt, startedAt } = await timings());
  }
  return [...assets].filter((url) => idleAt === null || !(url in startedAt) || startedAt[url] < idleAt);
}

/**
 * Each file's gzipped size, the total, and a one-line report.
 * @param {Iterable<string>} urls
 */
export async function measureAssets(urls) {
  const files = await Promise.all([...urls].map(async (url) => ({ file: new URL(url).pathname, gzipBytes: await gzippedSize(url) })));
  const total = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  const report = files.map((f) => `${f.file} ${(f.gzipBytes / 1024).toFixed(1)} KiB`).join(", ");
  return { files, total, report };
}
