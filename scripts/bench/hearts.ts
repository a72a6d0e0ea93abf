/** The heart storm: every viewer sends hearts at the per-person limit while some chat; count frames per viewer per second, and chat latency. */
import type { BenchContext } from "./lib/context.ts";
import { wsUrl } from "./lib/proc.ts";
import { fmt } from "./lib/stats.ts";
import { createViewers } from "./lib/viewers.ts";

export async function heartsBench(c: BenchContext): Promise<Record<string, any>> {
  const server = await c.startDreadcast();
  try {
    const sessions = await createViewers(server.url, c.opts.storm);
    const senders = Math.min(c.opts.senders, c.opts.storm);
    const r = await c.loadgen({
      mode: "storm",
      protocol: "dreadcast",
      url: wsUrl(server, "/ws"),
      origin: server.url,
      serverPid: server.pid,
      viewers: sessions,
      sockets: c.opts.storm,
      heartRate: c.opts.heartRate,
      senders,
      rate: c.opts.rate,
      seconds: c.opts.seconds,
      warmup: c.opts.warmup,
    });
    const framesOk = r.countFramesPerViewerPerSec.max <= 5;
    const latencyOk = r.latencyMs.p99 <= 100;
    c.line(
      "heart storm",
      `${c.opts.storm} viewers × ${c.opts.heartRate} hearts/s (${fmt(r.otherSentPerSec / 1000, 1)}k frames/s in) with ${senders} × ${c.opts.rate} chat msg/s: ` +
        `${fmt(r.countFramesPerViewerPerSec.mean, 2)} count frames per viewer per second (max ${fmt(r.countFramesPerViewerPerSec.max, 2)}; ≤ 5: ${c.verdict(framesOk)}), ` +
        `chat p50 ${fmt(r.latencyMs.p50, 2)} ms, p99 ${fmt(r.latencyMs.p99, 2)} ms (≤ 100 ms: ${c.verdict(latencyOk)}), server ${fmt(r.serverCpuPercent, 0)}% of a core`,
    );
    c.summary.push(
      {
        benchmark: `Heart storm: count frames per viewer per second (${c.opts.storm} × ${c.opts.heartRate} hearts/s)`,
        figure: `${fmt(r.countFramesPerViewerPerSec.mean, 2)} (max ${fmt(r.countFramesPerViewerPerSec.max, 2)})`,
        target: "≤ 5",
        ok: framesOk,
      },
      { benchmark: "Heart storm: chat latency", figure: `p50 ${fmt(r.latencyMs.p50, 2)} ms, p99 ${fmt(r.latencyMs.p99, 2)} ms`, target: "p99 ≤ 100 ms", ok: latencyOk },
    );
    return r;
  } finally {
    await server.stop();
  }
}
