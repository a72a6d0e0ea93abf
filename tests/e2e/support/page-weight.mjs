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
 * Each file's gzipped size, the total, and a one-line report.
 * @param {Iterable<string>} urls
 */
export async function measureAssets(urls) {
  const files = await Promise.all([...urls].map(async (url) => ({ file: new URL(url).pathname, gzipBytes: await gzippedSize(url) })));
  const total = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  const report = files.map((f) => `${f.file} ${(f.gzipBytes / 1024).toFixed(1)} KiB`).join(", ");
  return { files, total, report };
}
