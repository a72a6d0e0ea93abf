/**
 * The benchmark runner's flags: which benchmarks run, and at what size. `--quick` scales every size down
 * to check the scripts; a size given as a flag wins over both.
 */
import { parseArgs } from "node:util";

export const BENCHMARKS = ["chat", "crowd", "idle", "hearts", "http", "relay", "ingest", "cluster", "web", "filter", "admin", "replay"] as const;
export type BenchName = (typeof BENCHMARKS)[number];

export const USAGE = `npm run bench -- [flags]: dreadcast measured against baselines in the same run

  npm run bench                                   everything at full size (about 20 minutes)
  npm run bench -- --only chat,http               some benchmarks (${BENCHMARKS.join(", ")})
  npm run bench -- --quick                        everything, scaled down (a quick check of the scripts)
  npm run bench -- --viewers 500 --seconds 5      scale one dimension

Flags: --viewers N (2000) --senders S (25) --rate R msg/s per sender (0.8) --seconds T (20) --warmup W (3)
--chat-rounds R (3: turns dreadcast and the floor take in the quiet chat, the CPU figure being the median round's ratio)
--idle N (5000) --storm N (1000) --heart-rate H per viewer (10) --http-seconds T (10, per server, over all rounds)
--http-rounds R (5) --connections C (64) --relay-viewers N (500) --relay-seconds T (20, also the ingest's viewer load)
--ingest-viewers N (500) --ingest-seconds T (180: the quiet ingest measured for CPU and RSS) --long (600 of them)
--ingest-latency-seconds T (60: hls.js played side by side)
--crowd N viewers (3000) --crowd-senders S (125, at --rate each) --crowd-scan N,N,… (audiences tried for the
largest one a process serves at p99 ≤ 250 ms under half a core; "" skips the scan) --crowd-rounds R (3: turns the batched
server and the batched floor take, the CPU figure being each one's median)
--servers dreadcast,floor,socketio (which chat servers to run) --no-lighthouse --lighthouse-reports DIR (each Lighthouse report, whole, as JSON)
--lighthouse-runs N (3: audits of each page, the median one being the figure)
--nice=N (run the benchmark, its servers and load at this priority, e.g. --nice=-10 on a shared machine)
--bin PATH (default dist/dreadcast; copied first, under the build lock)
--against REF (also build REF — a commit, a tag, HEAD~20, the last release — in a temporary worktree, run
the chosen benchmarks for both executables in turn, and print each key figure's ratio now ÷ then against its
ceiling; a figure past its ceiling fails the run. Builds are kept in test-results/bench/builds/)
--idle-seconds T (60: the idle server's CPU measured beside a bare Bun.serve's)
--help (this text)`;

/** The command line as given (process.argv); throws on a flag it does not know. */
export function readFlags() {
  return parseArgs({
    options: {
      help: { type: "boolean", default: false },
      only: { type: "string" },
      quick: { type: "boolean", default: false },
      viewers: { type: "string" },
      senders: { type: "string" },
      rate: { type: "string" },
      seconds: { type: "string" },
      warmup: { type: "string" },
      idle: { type: "string" },
      storm: { type: "string" },
      "heart-rate": { type: "string" },
      "http-seconds": { type: "string" },
      "http-rounds": { type: "string" },
      connections: { type: "string" },
      crowd: { type: "string" },
      "crowd-senders": { type: "string" },
      "crowd-scan": { type: "string" },
      "crowd-rounds": { type: "string" },
      "chat-rounds": { type: "string" },
      "relay-viewers": { type: "string" },
      "relay-seconds": { type: "string" },
      "ingest-viewers": { type: "string" },
      "ingest-seconds": { type: "string" },
      "ingest-latency-seconds": { type: "string" },
      long: { type: "boolean", default: false },
      "no-lighthouse": { type: "boolean", default: false },
      "lighthouse-reports": { type: "string" },
      "lighthouse-runs": { type: "string" },
      servers: { type: "string", default: "dreadcast,floor,socketio" },
      nice: { type: "string" },
      bin: { type: "string" },
      against: { type: "string" },
      "idle-seconds": { type: "string" },
    },
  }).values;
}

export type Flags = ReturnType<typeof readFlags>;

/** The sizes each benchmark runs at: a flag's value, else the full size, or the quick one with --quick; throws on a size that is not a number ≥ 0. */
export function sizes(flags: Flags) {
  const num = (value: string | undefined, full: number, quick: number) => {
    if (value === undefined) return flags.quick ? quick : full;
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new Error(`a size must be a number of at least 0, not '${value}'`);
    return n;
  };
  return {
    viewers: num(flags.viewers, 2000, 200),
    senders: num(flags.senders, 25, 10),
    rate: num(flags.rate, 0.8, 0.8),
    seconds: num(flags.seconds, 20, 5),
    warmup: num(flags.warmup, 3, 1),
    idle: num(flags.idle, 5000, 500),
    idleSeconds: num(flags["idle-seconds"], 60, 10),
    storm: num(flags.storm, 1000, 100),
    heartRate: num(flags["heart-rate"], 10, 10),
    httpSeconds: num(flags["http-seconds"], 10, 4),
    httpRounds: num(flags["http-rounds"], 5, 2),
    connections: num(flags.connections, 64, 32),
    crowd: num(flags.crowd, 3000, 300),
    crowdSenders: num(flags["crowd-senders"], 125, 125),
    crowdRounds: Math.max(1, num(flags["crowd-rounds"], 3, 1)),
    chatRounds: Math.max(1, num(flags["chat-rounds"], 3, 1)),
    crowdScan: (flags["crowd-scan"] ?? (flags.quick ? "" : "5000,8000,12000")).split(",").filter(Boolean).map(Number),
    relayViewers: num(flags["relay-viewers"], 500, 100),
    relaySeconds: num(flags["relay-seconds"], 20, 6),
    ingestViewers: num(flags["ingest-viewers"], 500, 100),
    ingestSeconds: num(flags["ingest-seconds"], flags.long ? 600 : 180, 30),
    ingestLatencySeconds: num(flags["ingest-latency-seconds"], 60, 20),
    lighthouseRuns: runs(num(flags["lighthouse-runs"], 3, 1)),
  };
}

/** A count of runs: a whole number, at least 1. */
function runs(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--lighthouse-runs takes a whole number of at least 1, not ${n}`);
  return n;
}

export type Sizes = ReturnType<typeof sizes>;

/** The benchmarks --only names (all of them without it); throws on a name it does not know. */
export function selection(flags: Flags): Set<BenchName> {
  const selected = new Set<BenchName>((flags.only?.split(",").map((s) => s.trim()) as BenchName[] | undefined) ?? [...BENCHMARKS]);
  for (const name of selected) if (!BENCHMARKS.includes(name)) throw new Error(`unknown benchmark '${name}' (choose from ${BENCHMARKS.join(", ")})`);
  return selected;
}
