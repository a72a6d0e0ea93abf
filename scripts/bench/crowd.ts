/**
 * The busy chat (`--only crowd`): dreadcast batching a busy chat against the floor batching the same load.
 *
 * 100 lines a second (125 senders at 0.8/s, under the per-person limit) to a crowd: dreadcast as shipped
 * (batching a busy chat), the same build with batching off, the floor, and the floor batching per 100 ms
 * (the least any server sending one frame per 100 ms can spend) — then larger audiences, for
 * the largest one process serves at p99 ≤ 250 ms on under half a core.
 */
import type { BenchContext } from "./lib/context.ts";
import { dreadcastFanout, floorFanout } from "./lib/fanout.ts";
import { fmt, plural } from "./lib/stats.ts";

export async function crowdBench(c: BenchContext): Promise<Record<string, unknown>> {
  const viewers = c.opts.crowd,
    senders = Math.min(c.opts.crowdSenders, viewers),
    perSec = senders * c.opts.rate;
  const show = (name: string, r: Record<string, any>) =>
    c.line(
      "crowd",
      `${name.padEnd(12)} ${fmt(r.deliveriesPerSec, 0)} deliveries/s, ${fmt(r.linesPerFrame, 1)} lines per frame, p50 ${fmt(r.latencyMs.p50, 1)} ms, p99 ${fmt(r.latencyMs.p99, 1)} ms, ` +
        `server ${fmt(r.serverCpuPercent, 1)}% of a core (${fmt(r.cpuSecondsPer100k, 3)} s/100k), ${fmt(r.lostPercent, 2)}% lost, load generator ${fmt(r.loadgenCpuPercent, 0)}% of a core`,
    );
  c.line(
    "crowd",
    `${viewers} sockets, ${senders} senders × ${c.opts.rate} msg/s = ${perSec} msg/s for ${c.opts.seconds} s (after ${c.opts.warmup} s warm-up), ${plural(c.opts.crowdRounds, "round")}`,
  );
  // One run of each varies by a few points of a core on a shared machine, so the batched server and the
  // batched floor take turns for a few rounds and the figure is each one's median round.
  const rounds: { batched: Record<string, any>; batchedFloor: Record<string, any> }[] = [];
  for (let round = 1; round <= c.opts.crowdRounds; round++) {
    const b = await dreadcastFanout(c, viewers, senders);
    show(`batched #${round}`, b);
    const f = await floorFanout(c, viewers, senders, ["--batch-ms", "100"]);
    show(`b. floor #${round}`, f);
    rounds.push({ batched: b, batchedFloor: f });
  }
  const median = (runs: Record<string, any>[]) => [...runs].sort((a, b) => a.serverCpuPercent - b.serverCpuPercent)[(runs.length - 1) >> 1]!;
  const batchedRuns = rounds.map((r) => r.batched);
  const batched = median(batchedRuns);
  const batchedFloor = median(rounds.map((r) => r.batchedFloor));
  const unbatched = await dreadcastFanout(c, viewers, senders, ["--chat-batch-ms", "0"]);
  show("batching off", unbatched);
  const floor = await floorFanout(c, viewers, senders);
  show("floor", floor);
  const allDelivered = batchedRuns.every((r) => r.lost === 0 && r.refused === 0);
  const worstP99 = Math.max(...batchedRuns.map((r) => r.latencyMs.p99));
  const latencyOk = worstP99 <= 250;
  const cpuOk = batched.serverCpuPercent <= 20;
  const each = (key: "batched" | "batchedFloor") => rounds.map((r) => fmt(r[key].serverCpuPercent, 1)).join(", ");
  c.line(
    "crowd",
    `median of ${plural(rounds.length, "round")}: batched ${fmt(batched.serverCpuPercent, 1)}% (${each("batched")}), batched floor ${fmt(batchedFloor.serverCpuPercent, 1)}% (${each("batchedFloor")})`,
  );
  const vsFloor = batched.serverCpuPercent / batchedFloor.serverCpuPercent;
  const vsFloorOk = vsFloor <= 1.2;
  c.line("crowd", `ratio: batched server CPU ${fmt(vsFloor, 2)}× the batched floor's (≤ 1.2×: ${c.verdict(vsFloorOk)})`);
  c.summary.push(
    {
      benchmark: "Busy chat: server CPU ÷ the batched floor's",
      figure: `${fmt(vsFloor, 2)}× (${fmt(batched.serverCpuPercent, 1)}% vs ${fmt(batchedFloor.serverCpuPercent, 1)}% of a core, medians of ${plural(rounds.length, "round")})`,
      target: "≤ 1.2×",
      ok: vsFloorOk,
    },
    {
      benchmark: `Busy chat (${viewers} × ${perSec} msg/s): every line delivered`,
      figure: `${fmt(Math.max(...batchedRuns.map((r) => r.lostPercent)), 2)}% lost, ${batchedRuns.reduce((n, r) => n + r.refused, 0)} refused in ${plural(rounds.length, "run")} (${fmt(batched.deliveriesPerSec, 0)} deliveries/s, ${fmt(batched.linesPerFrame, 1)} lines per frame)`,
      target: "none lost",
      ok: allDelivered,
    },
    {
      benchmark: "Busy chat: latency per line",
      figure: `p50 ${fmt(batched.latencyMs.p50, 1)} ms, p99 ${fmt(batched.latencyMs.p99, 1)} ms, worst run's p99 ${fmt(worstP99, 1)} ms (batching off ${fmt(unbatched.latencyMs.p99, 1)}, floor ${fmt(floor.latencyMs.p99, 1)})`,
      target: "p99 ≤ 250 ms",
      ok: latencyOk,
    },
    {
      benchmark: "Busy chat: server CPU",
      figure: `${fmt(batched.serverCpuPercent, 1)}% of a core, median of ${plural(rounds.length, "round")} (${each("batched")}); floor batching per 100 ms ${fmt(batchedFloor.serverCpuPercent, 1)}% (${each("batchedFloor")}); batching off ${fmt(unbatched.serverCpuPercent, 0)}%, floor ${fmt(floor.serverCpuPercent, 0)}%`,
      target: "≤ 20% of a core",
      ok: cpuOk,
    },
  );
  const scan: Record<string, unknown>[] = [];
  let largest = latencyOk && allDelivered && batched.serverCpuPercent <= 50 ? viewers : 0;
  for (const size of c.opts.crowdScan.filter((n) => n > viewers).sort((a, b) => a - b)) {
    const r = await dreadcastFanout(c, size, senders);
    show(`${size} viewers`, r);
    scan.push({ viewers: size, ...r });
    if (r.lost > 0 || r.latencyMs.p99 > 250 || r.serverCpuPercent > 50) break;
    largest = size;
  }
  if (c.opts.crowdScan.length) {
    c.summary.push({
      benchmark: `Busy chat: largest audience tried with p99 ≤ 250 ms under 50% of a core (${perSec} msg/s)`,
      figure: `${fmt(largest, 0)} viewers (tried ${[viewers, ...c.opts.crowdScan.filter((n) => n > viewers)].join(", ")})`,
      target: "—",
      ok: null,
    });
  }
  return { viewers, senders, rate: c.opts.rate, rounds, batched, unbatched, floor, batchedFloor, scan, largest };
}
