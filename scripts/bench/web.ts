/**
 * Page weight and Lighthouse: `web-browser.mjs` (under Node) loads the viewer pages and the admin login of a
 * fresh dreadcast in Chromium; here each page's first load is held to its budget (/ 90 KiB, /livestream
 * 105 KiB), with no admin chunk and no Stripe.js on a viewer page; /livestream's largest paint on a slow
 * network with and without its screen's files named in the page; and Lighthouse mobile to performance ≥ 98
 * and accessibility 100.
 */
import { join } from "node:path";
import type { BenchContext } from "./lib/context.ts";
import { runToEnd } from "./lib/proc.ts";
import { fmt } from "./lib/stats.ts";

export async function webBench(c: BenchContext): Promise<Record<string, any>> {
  const server = await c.startDreadcast();
  try {
    const args = [
      "node",
      join(import.meta.dir, "web-browser.mjs"),
      server.url,
      ...(c.flags["no-lighthouse"] ? ["--no-lighthouse"] : []),
      ...(c.flags["lighthouse-reports"] ? ["--reports", String(c.flags["lighthouse-reports"])] : []),
      "--lighthouse-runs",
      String(c.opts.lighthouseRuns),
    ];
    const r = JSON.parse((await runToEnd(args, { timeoutMs: 300_000 })).trim().split("\n").at(-1)!);
    const budgets: Record<string, number | null> = { "/": 90, "/livestream": 105, "/admin/login": null };
    for (const [path, w] of Object.entries<any>(r.weights)) {
      const kib = w.gzipBytes / 1024;
      const budget = budgets[path] ?? null;
      const viewerPage = path !== "/admin/login";
      const clean = !viewerPage || (w.adminChunks.length === 0 && !w.stripeLoaded);
      const ok = (budget === null || kib <= budget) && clean && w.finalPath === path;
      const notes = [
        budget !== null ? `≤ ${budget} KiB: ${c.verdict(kib <= budget)}` : "no budget",
        `then ${fmt(w.idleGzipBytes / 1024, 1)} KiB fetched once idle`,
        viewerPage ? `admin chunks: ${w.adminChunks.length ? w.adminChunks.join(" ") : "none"}` : null,
        `Stripe.js ${w.stripeLoaded ? "LOADED" : "not loaded"}`,
        w.finalPath !== path ? `ended on ${w.finalPath}!` : null,
      ].filter(Boolean);
      c.line("page weight", `${path.padEnd(12)} ${fmt(kib, 1)} KiB gzip JS + CSS on first load in ${w.files.length} files (${notes.join("; ")})`);
      c.summary.push({
        benchmark: `Page weight ${path} (gzip JS + CSS)`,
        figure: `${fmt(kib, 1)} KiB${viewerPage ? `, admin chunks ${w.adminChunks.length}, Stripe.js ${w.stripeLoaded ? "loaded" : "not loaded"}` : ""}`,
        target: budget === null ? "—" : `≤ ${budget} KiB`,
        ok: budget === null ? null : ok,
      });
    }
    if (r.slowNetwork) {
      const { roundTripMs, named, baseline } = r.slowNetwork;
      const ratio = named.lcpMs / baseline.lcpMs;
      c.line(
        "slow network",
        `/livestream at a ${roundTripMs} ms round trip: LCP ${fmt(named.lcpMs / 1000, 2)} s with its screen's files named in the page, ${fmt(baseline.lcpMs / 1000, 2)} s without (${fmt(ratio, 2)}×); FCP ${fmt(named.fcpMs / 1000, 2)} s against ${fmt(baseline.fcpMs / 1000, 2)} s (medians of 3)`,
      );
      c.summary.push({
        benchmark: `/livestream LCP at a ${roundTripMs} ms round trip`,
        figure: `${fmt(named.lcpMs / 1000, 2)} s against ${fmt(baseline.lcpMs / 1000, 2)} s without the preloads (${fmt(ratio, 2)}×)`,
        target: "< 1×",
        ok: ratio < 1,
      });
    }
    if (r.lighthouse) {
      for (const [path, l] of Object.entries<any>(r.lighthouse)) {
        const ok = l.performance >= 98 && l.accessibility >= 100;
        c.line(
          "lighthouse",
          `${path.padEnd(12)} mobile: performance ${l.performance}, accessibility ${l.accessibility} (≥ 98 / 100: ${c.verdict(ok)}); FCP ${fmt(l.fcpMs / 1000, 1)} s, LCP ${fmt(l.lcpMs / 1000, 1)} s, TBT ${l.tbtMs} ms, CLS ${l.cls}` +
            `; the median of ${l.runs} runs (performance ${l.performanceRange.join("–")}, TBT ${l.tbtRange.join("–")} ms)` +
            (l.failedAccessibility.length ? `; failing: ${l.failedAccessibility.join(", ")}` : "") +
            (new URL(l.finalUrl).pathname !== path ? `; ended on ${l.finalUrl}!` : ""),
        );
        c.summary.push({
          benchmark: `Lighthouse mobile ${path}`,
          figure: `performance ${l.performance} (${l.performanceRange.join("–")} over ${l.runs} runs), accessibility ${l.accessibility}`,
          target: "≥ 98 / 100",
          ok,
        });
      }
    }
    return r;
  } finally {
    await server.stop();
  }
}
