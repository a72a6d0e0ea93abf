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

const requestedAt = new WeakMap();

/**
 * Waits until the page has turned to code for later (its idle mark), then until the network is quiet: on a
 * busy machine the network can fall quiet while the page's code still runs, before the screen's own code
 * is asked for, so network idle alone can end a measure too early.
 * @param {import("playwright-core").Page} page
 */
export async function settled(page, timeout = 30_000) {
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, IDLE_MARK, { timeout, polling: 100 });
  await page.waitForLoadState("networkidle", { timeout });
}

/**
 * Starts recording the scripts and stylesheets the page requests; returns the live set of their URLs.
 * @param {import("playwright-core").Page} page
 */
export function recordAssets(page) {
  const assets = new Set();
  const times = new Map();
  page.on("request", (request) => {
    if (!["script", "stylesheet"].includes(request.resourceType()) || assets.has(request.url())) return;
    const started = request.timing().startTime;
    times.set(request.url(), started > 0 ? started : Date.now());
    assets.add(request.url());
  });
  requestedAt.set(assets, times);
  return assets;
}

/**
 * The page's first load: the recorded assets it asked for before it turned to code for later — what it
 * fetches once idle, ahead of the first tap (the payment dialog, the toast area), is not counted. All of
 * them for a page that never turned idle.
 * @param {import("playwright-core").Page} page
 * @param {Set<string>} assets from recordAssets
 */
export async function firstLoadAssets(page, assets) {
  const idleAt = await page.evaluate((name) => {
    const mark = performance.getEntriesByName(name)[0];
    return mark ? performance.timeOrigin + mark.startTime : null;
  }, IDLE_MARK);
  const times = requestedAt.get(assets);
  return [...assets].filter((url) => idleAt === null || !times || times.get(url) < idleAt);
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
