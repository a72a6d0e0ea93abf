/**
 * The quiet chat's fan-out: N viewer sockets while S senders chat at R lines a second each, against the
 * floor (`servers/floor.ts`: Bun.serve publishing each frame to one topic) and Socket.IO 4 on Node
 * (`servers/socketio.mjs`). Figures: server CPU per delivery against the floor's, deliveries per CPU second
 * against Socket.IO's, latency per line.
 */
import { join } from "node:path";
import type { BenchContext } from "./lib/context.ts";
import { dreadcastFanout, floorFanout } from "./lib/fanout.ts";
import { startServer, wsUrl } from "./lib/proc.ts";
import { fmt, mib, plural } from "./lib/stats.ts";

export async function chatBench(c: BenchContext): Promise<Record<string, unknown>> {
  const { viewers, senders, rate, seconds, warmup } = c.opts;
  const base = { mode: "fanout" as const, sockets: viewers, senders, rate, seconds, warmup };
  const perSec = senders * rate;
  const out: Record<string, Record<string, any>> = {};
  const describe = (name: string, r: Record<string, any>) =>
    c.line(
      "chat fan-out",
      `${name.padEnd(12)} ${fmt(r.deliveriesPerSec, 0)} deliveries/s, p50 ${fmt(r.latencyMs.p50, 2)} ms, p99 ${fmt(r.latencyMs.p99, 2)} ms, ` +
        `CPU ${fmt(r.cpuSecondsPer100k, 3)} s/100k deliveries (${fmt(r.serverCpuPercent, 0)}% of a core, ${fmt(100 * r.serverSystemShare, 0)}% of it in the kernel), RSS ${mib(r.serverRssKiB)}` +
        (r.linesPerFrame > 1.01 ? `, ${fmt(r.linesPerFrame, 1)} lines per frame` : "") +
        (r.lostPercent > 0 ? `, ${fmt(r.lostPercent, 2)}% lost` : "") +
        (r.refused > 0 ? `, ${r.refused} refused` : ""),
    );
  c.line(
    "chat fan-out",
    `${viewers} sockets, ${senders} senders × ${rate} msg/s = ${perSec} msg/s for ${seconds} s (after ${warmup} s warm-up), ${plural(c.opts.chatRounds, "round")}`,
  );

  const servers = new Set(c.flags.servers!.split(","));
  // One run of each moves by a tenth or more on a shared machine, so dreadcast and the floor take turns
  // (ABBA: each goes first in every other round) and the figure is the median round's ratio.
  const rounds: { dreadcast?: Record<string, any>; floor?: Record<string, any> }[] = [];
  for (let round = 1; round <= c.opts.chatRounds; round++) {
    const pair: (typeof rounds)[number] = {};
    const order = round % 2 === 1 ? (["dreadcast", "floor"] as const) : (["floor", "dreadcast"] as const);
    for (const name of order) {
      if (!servers.has(name)) continue;
      pair[name] = name === "dreadcast" ? await dreadcastFanout(c, viewers, senders) : await floorFanout(c, viewers, senders);
      describe(c.opts.chatRounds > 1 ? `${name} #${round}` : name, pair[name]!);
    }
    rounds.push(pair);
  }
  const ratio = (pair: (typeof rounds)[number]) => pair.dreadcast!.cpuSecondsPer100k / pair.floor!.cpuSecondsPer100k;
  const both = rounds.filter((pair) => pair.dreadcast && pair.floor);
  const paired = [...both].sort((a, b) => ratio(a) - ratio(b));
  // The median round (the lower middle of an even count); without both servers, the first round of the one that ran.
  const middle = paired[(paired.length - 1) >> 1] ?? rounds[0];
  if (middle?.dreadcast) out.dreadcast = middle.dreadcast;
  if (middle?.floor) out.floor = middle.floor;
  if (servers.has("socketio")) {
    const server = await startServer("socketio", ["node", join(import.meta.dir, "servers/socketio.mjs")], /socketio listening on (http:\/\/\S+)/);
    try {
      out.socketio = await c.loadgen({ ...base, protocol: "socketio", url: wsUrl(server, "/socket.io/"), origin: server.url, serverPid: server.pid });
      describe("socket.io", out.socketio);
    } finally {
      await server.stop();
    }
  }
  const result = { ...out, rounds };
  if (!out.dreadcast || !out.floor || !out.socketio) return result;
  const d = out.dreadcast,
    f = out.floor,
    s = out.socketio;
  const cpuVsFloor = d.cpuSecondsPer100k / f.cpuSecondsPer100k;
  const ofRounds = both.length > 1 ? `, median of ${both.length} rounds (${both.map((pair) => fmt(ratio(pair), 2) + "×").join(", ")})` : "";
  const perCpuVsSocketIo = d.deliveriesPerCpuSecond / s.deliveriesPerCpuSecond;
  c.line(
    "chat fan-out",
    `ratios: CPU per delivery ${fmt(cpuVsFloor, 2)}× the floor's${ofRounds} (≤ 1.2×: ${c.verdict(cpuVsFloor <= 1.2)}); ` +
      `deliveries per CPU second ${fmt(perCpuVsSocketIo, 2)}× Socket.IO's; ` +
      `p99 ${fmt(d.latencyMs.p99, 1)} ms (≤ 50 ms: ${c.verdict(d.latencyMs.p99 <= 50)})`,
  );
  c.summary.push(
    {
      benchmark: `Quiet chat (${viewers} × ${perSec} msg/s): server CPU per 100k deliveries`,
      figure: `${fmt(d.cpuSecondsPer100k, 3)} s vs floor ${fmt(f.cpuSecondsPer100k, 3)} s → ${fmt(cpuVsFloor, 2)}×${ofRounds}`,
      target: "≤ 1.2× floor",
      ok: cpuVsFloor <= 1.2,
    },
    {
      benchmark: "Quiet chat: deliveries per CPU second",
      figure: `${fmt(d.deliveriesPerCpuSecond, 0)} vs Socket.IO ${fmt(s.deliveriesPerCpuSecond, 0)} → ${fmt(perCpuVsSocketIo, 2)}×`,
      target: "—",
      ok: null,
    },
    {
      benchmark: `Quiet chat: latency at ${viewers} viewers × ${perSec} msg/s`,
      figure: `p50 ${fmt(d.latencyMs.p50, 2)} ms, p99 ${fmt(d.latencyMs.p99, 2)} ms (floor ${fmt(f.latencyMs.p99, 2)}, Socket.IO ${fmt(s.latencyMs.p99, 2)})`,
      target: "p99 ≤ 50 ms",
      ok: d.latencyMs.p99 <= 50,
    },
    {
      benchmark: "Quiet chat: deliveries/s, server RSS",
      figure: `${fmt(d.deliveriesPerSec, 0)}/s, ${mib(d.serverRssKiB)} (floor ${mib(f.serverRssKiB)}, Socket.IO ${mib(s.serverRssKiB)})`,
      target: "—",
      ok: null,
    },
  );
  return result;
}
