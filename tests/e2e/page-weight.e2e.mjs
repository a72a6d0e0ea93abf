import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { useApp } from "./support/e2e.mjs";

const app = useApp();
const BUDGET_BYTES = 130 * 1024;

/** The size of a response body as sent with `accept-encoding: gzip` (not decompressed). */
function gzippedSize(url) {
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

app.browserTest("the home page loads at most 130 KiB of gzipped JS and CSS", async ({ page }) => {
  const assets = new Set();
  page.on("request", (request) => {
    if (["script", "stylesheet"].includes(request.resourceType())) assets.add(request.url());
  });
  await page.goto("/");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await page.waitForLoadState("networkidle");
  const sizes = await Promise.all([...assets].map(async (url) => [new URL(url).pathname, await gzippedSize(url)]));
  const total = sizes.reduce((sum, [, bytes]) => sum + bytes, 0);
  const report = sizes.map(([path, bytes]) => `${path} ${(bytes / 1024).toFixed(1)} KiB`).join(", ");
  assert.ok(total <= BUDGET_BYTES, `/ loads ${(total / 1024).toFixed(1)} KiB gzipped (${report})`);
});
