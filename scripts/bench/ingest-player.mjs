/**
 * The ingest benchmark's player: hls.js in headless Chromium (the e2e tests' flags) plays each stream of a
 * job (a JSON file, argv[2]: { hlsJs, hlsOptions (the stream page's, for every player), seconds, warmup, pages: [{ name, origin, url, cookie?, lowLatency }] })
 * side by side, and samples twice a second: the page clock (Date.now()), hls.playingDate (the
 * EXT-X-PROGRAM-DATE-TIME of the playing position, where the playlist has one), hls.latency (the distance
 * from the playlist's live edge) and the video's position. Prints one JSON line: samples per page.
 */
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--autoplay-policy=no-user-gesture-required",
  ],
});
const out = {};
try {
  const pages = await Promise.all(
    job.pages.map(async (p) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, bypassCSP: true });
      if (p.cookie) {
        const [name, ...rest] = p.cookie.split("=");
        await context.addCookies([{ name, value: rest.join("="), url: p.origin }]);
      }
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${p.origin}/bench-player-not-found`).catch(() => {});
      await page.setContent('<video id="v" muted playsinline style="width:640px"></video>');
      await page.addScriptTag({ path: job.hlsJs });
      await page.evaluate(
        ([url, lowLatency, options]) => {
          const video = document.getElementById("v");
          const hls = new window.Hls({ ...options, lowLatencyMode: lowLatency, xhrSetup: (xhr) => (xhr.withCredentials = true) });
          window.__hls = hls;
          window.__errors = [];
          hls.on(window.Hls.Events.ERROR, (_e, d) => d.fatal && window.__errors.push(d.details));
          hls.loadSource(url);
          hls.attachMedia(video);
          video.play().catch(() => {});
        },
        [p.url, p.lowLatency, job.hlsOptions ?? {}],
      );
      return { p, page, errors };
    }),
  );
  await new Promise((r) => setTimeout(r, job.warmup * 1000));
  for (const { p } of pages) out[p.name] = { samples: [], errors: [] };
  const until = Date.now() + job.seconds * 1000;
  while (Date.now() < until) {
    for (const { p, page } of pages) {
      const s = await page.evaluate(() => {
        const hls = window.__hls;
        const video = document.getElementById("v");
        return { now: Date.now(), playingDate: hls.playingDate ? hls.playingDate.getTime() : null, latency: hls.latency, position: video.currentTime, paused: video.paused };
      });
      out[p.name].samples.push(s);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  for (const { p, page, errors } of pages) out[p.name].errors = [...errors, ...(await page.evaluate(() => window.__errors))];
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
