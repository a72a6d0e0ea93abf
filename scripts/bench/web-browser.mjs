/**
 * Page weight and Lighthouse against a running dreadcast (node scripts/bench/web-browser.mjs <base-url> [--no-lighthouse] [--reports DIR]
 * [--lighthouse-runs N]).
 * Runs under Node: playwright-core, chrome-launcher and lighthouse are Node libraries. Prints one JSON
 * result on stdout, progress on stderr.
 *
 * Page weight: what a real Chromium loads for the page on first load (scripts and stylesheets, Stripe.js
 * excluded), each measured as the server sends it with `accept-encoding: gzip`. The first load ends where the
 * page turns to code for later (its idle mark); what it fetches after that, until the network is idle, is
 * reported apart (`idleGzipBytes`). The measure waits for that mark before it waits for network idle.
 * /livestream is opened as a viewer who has just been let in: a test code, POST /api/validate-access
 * from the page (so the session cookie is the browser's) and the code and name in localStorage.
 *
 * Slow network: /livestream's largest paint with Chromium's own network throttling (600 ms round trip, 1.6
 * Mbit/s), as served (the stream screen's files named in the page) and with those tags taken out, in turn.
 *
 * Lighthouse: default (mobile) settings — a moto g power-sized screen, simulated slow 4G and a 4× slower
 * CPU — with performance and accessibility only. / runs as a first visit; /livestream in a profile seeded
 * as above with `disableStorageReset`, so the stored code survives into the audited load. Each page is
 * audited N times (3), each round in a fresh profile, and the median run is the figure.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { firstLoadAssets, measureAssets, recordAssets, settled } from "../../tests/e2e/support/page-weight.mjs";

const baseUrl = process.argv[2];
const runLighthouse = !process.argv.includes("--no-lighthouse");
const reportsDir = process.argv.includes("--reports") ? process.argv[process.argv.indexOf("--reports") + 1] : null;
/** How many times each page is audited (--lighthouse-runs N): the median run is the figure. */
const lighthouseRunCount = process.argv.includes("--lighthouse-runs") ? Number(process.argv[process.argv.indexOf("--lighthouse-runs") + 1]) : 3;
if (!Number.isInteger(lighthouseRunCount) || lighthouseRunCount < 1) throw new Error("--lighthouse-runs takes a whole number of runs, at least 1");
if (reportsDir) mkdirSync(reportsDir, { recursive: true });
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];
const log = (text) => process.stderr.write(`    [web] ${text}\n`);

/** Lets this browser context in as a viewer, the way the access page does: code, session cookie, storage. */
async function becomeViewer(page, username) {
  await page.goto(`${baseUrl}/`);
  const ok = await page.evaluate(async (name) => {
    const { accessCode } = await (await fetch("/api/test/generate-access-code")).json();
    const hex = (n) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, "0")).join("");
    const deviceFingerprint = {
      userAgent: navigator.userAgent,
      screenResolution: `${screen.width}x${screen.height}`,
      colorDepth: screen.colorDepth,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      language: navigator.language,
      platform: navigator.platform,
      webglVendor: "unknown",
      webglRenderer: "unknown",
      deviceToken: hex(24),
      createdAt: new Date().toISOString(),
      fingerprint: hex(32),
    };
    const response = await fetch("/api/validate-access", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ accessCode, username: name, deviceFingerprint, isTestCode: true }),
    });
    const body = await response.json();
    if (!body.valid) return body.message;
    localStorage.setItem("accessCode", accessCode);
    localStorage.setItem("username", name);
    localStorage.setItem("device_token", deviceFingerprint.deviceToken);
    localStorage.setItem("device_fingerprint", JSON.stringify(deviceFingerprint));
    return true;
  }, username);
  if (ok !== true) throw new Error(`could not let the browser in: ${ok}`);
}

async function pageWeights() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  const results = {};
  try {
    for (const path of ["/", "/livestream", "/admin/login"]) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      if (path === "/livestream") await becomeViewer(page, "weighed");
      const assets = recordAssets(page);
      await page.goto(`${baseUrl}${path}`, { waitUntil: "load" });
      await settled(page);
      const finalPath = new URL(page.url()).pathname;
      const own = [...assets].filter((url) => url.startsWith(baseUrl));
      const stripe = [...assets].filter((url) => /stripe\.com/.test(url));
      const firstLoad = new Set(await firstLoadAssets(page, assets));
      const { files, total } = await measureAssets(own.filter((url) => firstLoad.has(url)));
      const later = await measureAssets(own.filter((url) => !firstLoad.has(url)));
      results[path] = {
        finalPath,
        gzipBytes: total,
        files,
        stripeLoaded: stripe.length > 0,
        adminChunks: [...files, ...later.files].filter((f) => /\/admin[^/]*$/.test(f.file)).map((f) => f.file),
        idleGzipBytes: later.total,
      };
      log(`${path}: ${(results[path].gzipBytes / 1024).toFixed(1)} KiB gzip in ${files.length} files (ended on ${finalPath})`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

/** One round of Lighthouse: / as a first visit, then /livestream as a viewer, in a fresh browser profile. */
async function lighthouseRound(round) {
  const profile = mkdtempSync(join(tmpdir(), "dreadcast-lighthouse-"));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS, userDataDir: profile });
  const results = {};
  try {
    const audit = async (path, options) => {
      const started = Date.now();
      const runner = await lighthouse(`${baseUrl}${path}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility"],
        ...options,
      });
      const { lhr } = runner;
      // The whole report, for a look at its network and main-thread timelines (--reports DIR).
      if (reportsDir) writeFileSync(join(reportsDir, `${path.replace(/\W+/g, "_") || "_"}-${round + 1}.json`), JSON.stringify(lhr));
      const score = (id) => Math.round((lhr.categories[id]?.score ?? NaN) * 100);
      const metric = (id) => lhr.audits[id]?.numericValue;
      results[path] = {
        performance: score("performance"),
        accessibility: score("accessibility"),
        finalUrl: lhr.finalDisplayedUrl,
        fcpMs: Math.round(metric("first-contentful-paint")),
        lcpMs: Math.round(metric("largest-contentful-paint")),
        tbtMs: Math.round(metric("total-blocking-time")),
        cls: Math.round(metric("cumulative-layout-shift") * 1000) / 1000,
        runtimeError: lhr.runtimeError?.message,
        failedAccessibility: Object.values(lhr.audits)
          .filter((a) => lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0) && a.score !== null && a.score < 1)
          .map((a) => a.id),
      };
      log(
        `lighthouse ${path} (run ${round + 1} of ${lighthouseRunCount}): performance ${results[path].performance}, accessibility ${results[path].accessibility} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
      // What to work on: the element that was the largest paint, its phases, and what moved.
      const lcpElement = lhr.audits["largest-contentful-paint-element"]?.details?.items ?? [];
      for (const table of lcpElement) {
        for (const item of table.items ?? []) {
          if (item.node) log(`  LCP element: ${item.node.selector}`);
          else if (item.phase) log(`  LCP ${item.phase}: ${Math.round(item.timing)} ms`);
        }
      }
      for (const item of lhr.audits["layout-shifts"]?.details?.items ?? []) {
        log(
          `  layout shift ${item.score.toFixed(3)}: ${item.node?.selector ?? "?"}${item.subItems?.items?.length ? ` (${item.subItems.items.map((c) => c.cause ?? c.extra?.value ?? "").join(", ")})` : ""}`,
        );
      }
    };
    await audit("/", {});
    // Seed the profile's storage and cookie as a viewer, then audit /livestream without clearing them.
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = await browser.contexts()[0].newPage();
    await becomeViewer(page, `lighthouse${round + 1}`);
    await page.close();
    await browser.close().catch(() => {});
    await audit("/livestream", { disableStorageReset: true });
  } finally {
    await chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  }
  return results;
}

/**
 * Lighthouse's scores move from run to run on the same build (its own guidance: take the median of several
 * runs), most of all its total blocking time on a shared machine: each page is audited `lighthouseRunCount`
 * times, a fresh profile each round, and the run with the median performance score is the figure, with the
 * spread of the scores and blocking times beside it.
 */
async function lighthouseRuns() {
  const rounds = [];
  for (let round = 0; round < lighthouseRunCount; round++) rounds.push(await lighthouseRound(round));
  const results = {};
  for (const path of Object.keys(rounds[0])) {
    const runs = rounds.map((r) => r[path]).sort((a, b) => a.performance - b.performance || b.tbtMs - a.tbtMs);
    results[path] = {
      ...runs[Math.floor((runs.length - 1) / 2)],
      runs: runs.length,
      performanceRange: [runs[0].performance, runs.at(-1).performance],
      tbtRange: [Math.min(...runs.map((r) => r.tbtMs)), Math.max(...runs.map((r) => r.tbtMs))],
    };
  }
  return results;
}

/** A slow phone's network, applied in the browser (not simulated): this round trip and 1.6 Mbit/s down. */
const SLOW_ROUND_TRIP_MS = 600;
/** The preload tags the server writes into /livestream (src/http/web-app.ts). */
const PRELOAD_TAG = /<link rel="(?:modulepreload|preload)"[^>]*href="\/assets\/[^"]*"[^>]*\/>/g;

/**
 * The stream screen's largest paint for a viewer on a slow network, with the screen's files named in the page
 * as the server sends it, and side by side the same page with those tags taken out (the baseline): three
 * rounds in turn, each in a fresh context with the cache off.
 */
async function slowNetworkPaints() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  const runs = { named: [], baseline: [] };
  try {
    for (let round = 0; round < 3; round++) {
      for (const kind of ["named", "baseline"]) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        await becomeViewer(page, `slow${round}${kind}`);
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
        await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: SLOW_ROUND_TRIP_MS, downloadThroughput: 200_000, uploadThroughput: 94_000 });
        // The page's HTML is held as it arrives (through the throttled network, both kinds alike) and passed on
        // as it came, or for the baseline without the preload tags.
        await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*/livestream", requestStage: "Response" }] });
        cdp.on("Fetch.requestPaused", async ({ requestId, responseStatusCode, responseHeaders }) => {
          const { body, base64Encoded } = await cdp.send("Fetch.getResponseBody", { requestId });
          const html = base64Encoded ? Buffer.from(body, "base64").toString("utf8") : body;
          const served = kind === "baseline" ? html.replace(PRELOAD_TAG, "") : html;
          const headers = (responseHeaders ?? []).filter((h) => !/^(content-encoding|content-length)$/i.test(h.name));
          await cdp.send("Fetch.fulfillRequest", {
            requestId,
            responseCode: responseStatusCode ?? 200,
            responseHeaders: headers,
            body: Buffer.from(served, "utf8").toString("base64"),
          });
        });
        await page.addInitScript(() => {
          window.largestPaintAt = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) window.largestPaintAt = entry.startTime;
          }).observe({ type: "largest-contentful-paint", buffered: true });
        });
        await page.goto(`${baseUrl}/livestream`);
        await page.locator(".stream-player-title, .stream-chat-status-connected").first().waitFor({ timeout: 60_000 });
        // The largest paint is final once nothing larger comes; the screen is complete well within this.
        await page.waitForTimeout(3_000);
        const figures = await page.evaluate(() => ({
          lcpMs: Math.round(window.largestPaintAt),
          fcpMs: Math.round(performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0),
          path: location.pathname,
          preloads: document.querySelectorAll('link[rel="modulepreload"][fetchpriority="low"]').length,
        }));
        if (figures.path !== "/livestream") throw new Error(`the slow-network run ended on ${figures.path}`);
        runs[kind].push(figures);
        log(`slow network (${SLOW_ROUND_TRIP_MS} ms round trip), ${kind}: LCP ${figures.lcpMs} ms, FCP ${figures.fcpMs} ms, ${figures.preloads} files named in the page`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  const median = (list, key) => list.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return {
    roundTripMs: SLOW_ROUND_TRIP_MS,
    named: { lcpMs: median(runs.named, "lcpMs"), fcpMs: median(runs.named, "fcpMs") },
    baseline: { lcpMs: median(runs.baseline, "lcpMs"), fcpMs: median(runs.baseline, "fcpMs") },
  };
}

const weights = await pageWeights();
const slowNetwork = await slowNetworkPaints();
const scores = runLighthouse ? await lighthouseRuns() : null;
process.stdout.write(JSON.stringify({ weights, slowNetwork, lighthouse: scores }) + "\n");
process.exit(0);
