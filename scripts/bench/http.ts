/** HTTP: `GET /api/livestream-settings` under load (wrk, else autocannon) against a bare Bun.serve answering the same body. */
import { join, resolve } from "node:path";
import type { BenchContext } from "./lib/context.ts";
import { cpuSeconds, runToEnd, startServer, type Server } from "./lib/proc.ts";
import { fmt } from "./lib/stats.ts";

const root = resolve(import.meta.dir, "../..");

/** One load run: requests per second, and the server's CPU time per request (µs) over the same run. */
async function loadRun(url: string, seconds: number, pid: number, connectionCount: number): Promise<{ rps: number; cpuUs: number }> {
  const connections = String(connectionCount);
  const cpu0 = cpuSeconds(pid);
  let rps: number;
  let requests: number;
  if (Bun.which("wrk")) {
    const out = await runToEnd(["wrk", "-t1", `-c${connections}`, `-d${seconds}s`, url]);
    rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
    requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  } else {
    const out = JSON.parse(await runToEnd(["node", join(root, "node_modules/autocannon/autocannon.js"), "-j", "-c", connections, "-d", String(seconds), url]));
    rps = out.requests.average;
    requests = out.requests.total;
  }
  return { rps, cpuUs: ((cpuSeconds(pid) - cpu0) * 1e6) / Math.max(1, requests) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * The two servers take turns in short rounds (ABBA order), and the figure is the median of the rounds'
 * ratios: on a shared machine the speed of the whole host drifts by ±20 % from one ten-second stretch to
 * the next, which one long run of each turned into a ratio anywhere from 0.45 to 0.65.
 */
export async function httpBench(c: BenchContext): Promise<Record<string, unknown>> {
  const server = await c.startDreadcast();
  let bare: Server | null = null;
  try {
    const settingsUrl = `${server.url}/api/livestream-settings`;
    const body = await (await fetch(settingsUrl)).text();
    bare = await startServer("bare", [c.bun, join(import.meta.dir, "servers/bare-http.ts"), body], /bare listening on (http:\/\/\S+)/);
    const bareUrl = `${bare.url}/api/livestream-settings`;
    const tool = Bun.which("wrk") ? "wrk" : "autocannon";
    // A short warm-up of each, then the measured rounds.
    await loadRun(settingsUrl, 2, server.pid, c.opts.connections);
    await loadRun(bareUrl, 2, bare.pid, c.opts.connections);
    const rounds = Math.max(2, c.opts.httpRounds);
    const each = Math.max(1, Math.round(c.opts.httpSeconds / rounds));
    const runs: { app: { rps: number; cpuUs: number }; bare: { rps: number; cpuUs: number } }[] = [];
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        const app = await loadRun(settingsUrl, each, server.pid, c.opts.connections);
        runs.push({ app, bare: await loadRun(bareUrl, each, bare.pid, c.opts.connections) });
      } else {
        const b = await loadRun(bareUrl, each, bare.pid, c.opts.connections);
        runs.push({ bare: b, app: await loadRun(settingsUrl, each, server.pid, c.opts.connections) });
      }
    }
    const spread = runs.map((r) => r.app.rps / r.bare.rps).sort((a, b) => a - b);
    const ratio = median(spread);
    const app = median(runs.map((r) => r.app.rps));
    const floor = median(runs.map((r) => r.bare.rps));
    const appCpu = median(runs.map((r) => r.app.cpuUs));
    const bareCpu = median(runs.map((r) => r.bare.cpuUs));
    c.line(
      "http",
      `GET /api/livestream-settings (${tool}, ${c.opts.connections} connections, ${rounds} rounds of ${each} s each): dreadcast ${fmt(app, 0)} req/s, ` +
        `bare Bun.serve ${fmt(floor, 0)} req/s → ${fmt(ratio, 2)}× (median of rounds ${fmt(spread[0]!, 2)}–${fmt(spread.at(-1)!, 2)}; ≥ 0.6×: ${c.verdict(ratio >= 0.6)}); ` +
        `server CPU per request ${fmt(appCpu, 1)} µs vs ${fmt(bareCpu, 1)} µs`,
    );
    c.summary.push({
      benchmark: "HTTP: GET /api/livestream-settings",
      figure: `${fmt(app, 0)} req/s vs bare ${fmt(floor, 0)} → ${fmt(ratio, 2)}× (CPU ${fmt(appCpu, 1)} vs ${fmt(bareCpu, 1)} µs/request)`,
      target: "≥ 0.6× bare",
      ok: ratio >= 0.6,
    });
    return {
      tool,
      connections: c.opts.connections,
      rounds,
      secondsPerRound: each,
      dreadcast: app,
      bare: floor,
      ratio,
      ratios: spread,
      cpuUsPerRequest: { dreadcast: appCpu, bare: bareCpu },
      bodyBytes: body.length,
    };
  } finally {
    await bare?.stop();
    await server.stop();
  }
}
