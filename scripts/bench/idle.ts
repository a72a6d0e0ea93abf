/**
 * Idle: an idle server's CPU over a quiet minute beside a bare Bun.serve's (no viewer, no publisher, no
 * reminder due: what runs all night whether or not anyone comes), then the server's memory per
 * authenticated socket that sends nothing (100 sockets, RSS, N more, RSS after 5 s).
 */
import { join } from "node:path";
import type { BenchContext } from "./lib/context.ts";
import { cpuTimes, startServer, wsUrl } from "./lib/proc.ts";
import { fmt, mib } from "./lib/stats.ts";
import { createViewers } from "./lib/viewers.ts";

/** CPU ticks are 10 ms: what an idle process may spend beyond the bare server's and still cost "nothing measurable" (0.1% of a core). */
const IDLE_EXTRA_PERCENT = 0.1;

/** Both servers measured over the same stretch, after they have settled. */
async function quietMinute(c: BenchContext): Promise<{ seconds: number; cpuPercent: number; barePercent: number; ok: boolean }> {
  const server = await c.startDreadcast();
  const bare = await startServer("bare", [c.bun, join(import.meta.dir, "servers/bare-http.ts"), "{}"], /bare listening on (http:\/\/\S+)/);
  try {
    // The start's own work (migrations, the first ticks of each job) is not the night's.
    await Bun.sleep(5000);
    const total = (pid: number) => {
      const t = cpuTimes(pid);
      return t.user + t.system;
    };
    const [d0, b0] = [total(server.pid), total(bare.pid)];
    const t0 = performance.now();
    await Bun.sleep(c.opts.idleSeconds * 1000);
    const seconds = (performance.now() - t0) / 1000;
    const cpuPercent = ((total(server.pid) - d0) / seconds) * 100;
    const barePercent = ((total(bare.pid) - b0) / seconds) * 100;
    return { seconds, cpuPercent, barePercent, ok: cpuPercent <= barePercent + IDLE_EXTRA_PERCENT };
  } finally {
    await bare.stop();
    await server.stop();
  }
}

export async function idleBench(c: BenchContext): Promise<Record<string, any>> {
  const quiet = await quietMinute(c);
  c.line(
    "idle server",
    `no viewer, no publisher, ${fmt(quiet.seconds, 0)} s: dreadcast ${fmt(quiet.cpuPercent, 2)}% of a core, bare Bun.serve ${fmt(quiet.barePercent, 2)}% (≤ bare + ${IDLE_EXTRA_PERCENT}: ${c.verdict(quiet.ok)})`,
  );
  c.summary.push({
    benchmark: `Idle server: CPU over ${fmt(quiet.seconds, 0)} s with nobody on`,
    figure: `${fmt(quiet.cpuPercent, 2)}% of a core (bare Bun.serve ${fmt(quiet.barePercent, 2)}%)`,
    target: `≤ bare + ${IDLE_EXTRA_PERCENT}%`,
    ok: quiet.ok,
  });
  const server = await c.startDreadcast();
  try {
    const warm = 100;
    const t0 = performance.now();
    const sessions = await createViewers(server.url, c.opts.idle + warm);
    c.line("idle viewers", `${c.opts.idle + warm} viewer sessions made through the API in ${fmt((performance.now() - t0) / 1000, 1)} s`);
    const r = await c.loadgen({
      mode: "idle",
      protocol: "dreadcast",
      url: wsUrl(server, "/ws"),
      origin: server.url,
      serverPid: server.pid,
      viewers: sessions,
      sockets: c.opts.idle,
      idleWarm: warm,
      senders: 0,
      rate: 0,
      seconds: 0,
      warmup: 0,
      settle: 5,
    });
    const ok = r.perSocketKiB <= 6;
    c.line(
      "idle viewers",
      `${c.opts.idle} authenticated idle sockets: RSS ${mib(r.rssBeforeKiB)} → ${mib(r.rssAfterKiB)}, ${fmt(r.perSocketKiB, 2)} KiB per socket (≤ 6 KiB: ${c.verdict(ok)})`,
    );
    c.summary.push({
      benchmark: `Idle viewers: server memory per authenticated socket (${c.opts.idle})`,
      figure: `${fmt(r.perSocketKiB, 2)} KiB (RSS ${mib(r.rssBeforeKiB)} → ${mib(r.rssAfterKiB)})`,
      target: "≤ 6 KiB",
      ok,
    });
    return { ...r, quiet };
  } finally {
    await server.stop();
  }
}
