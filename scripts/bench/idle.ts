/** Idle viewers: the server's memory per authenticated socket that sends nothing (100 sockets, RSS, N more, RSS after 5 s). */
import type { BenchContext } from "./lib/context.ts";
import { wsUrl } from "./lib/proc.ts";
import { fmt, mib } from "./lib/stats.ts";
import { createViewers } from "./lib/viewers.ts";

export async function idleBench(c: BenchContext): Promise<Record<string, any>> {
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
    const ok = r.perSocketKiB <= 12;
    c.line(
      "idle viewers",
      `${c.opts.idle} authenticated idle sockets: RSS ${mib(r.rssBeforeKiB)} → ${mib(r.rssAfterKiB)}, ${fmt(r.perSocketKiB, 2)} KiB per socket (≤ 12 KiB: ${c.verdict(ok)})`,
    );
    c.summary.push({
      benchmark: `Idle viewers: server memory per authenticated socket (${c.opts.idle})`,
      figure: `${fmt(r.perSocketKiB, 2)} KiB (RSS ${mib(r.rssBeforeKiB)} → ${mib(r.rssAfterKiB)})`,
      target: "≤ 12 KiB",
      ok,
    });
    return r;
  } finally {
    await server.stop();
  }
}
