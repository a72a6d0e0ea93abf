/**
 * `npm run bench`: dreadcast measured against baselines in the same run. Each benchmark (a file of its own
 * beside this one) prints its figures and its ratio or target on a line; a summary table follows, and the
 * results go to test-results/bench/results.json. The flags are in flags.ts (`npm run bench -- --help`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { adminBench } from "./admin.ts";
import { chatBench } from "./chat.ts";
import { clusterBench } from "./cluster.ts";
import { crowdBench } from "./crowd.ts";
import { filterBench } from "./filter.ts";
import { BENCHMARKS, readFlags, selection, sizes, USAGE, type BenchName } from "./flags.ts";
import { heartsBench } from "./hearts.ts";
import { httpBench } from "./http.ts";
import { idleBench } from "./idle.ts";
import { ingestBench } from "./ingest.ts";
import { buildAt, currentBuild, type BuildId } from "./lib/against.ts";
import { ceilingText, compare, COMPARED, type Comparison } from "./lib/compare.ts";
import type { BenchContext, SummaryRow } from "./lib/context.ts";
import { loadAverage, machine, runToEnd, startServer } from "./lib/proc.ts";
import { fmt } from "./lib/stats.ts";
import type { Job } from "./loadgen.ts";
import { relayBench } from "./relay.ts";
import { replayBench } from "./replay.ts";
import { webBench } from "./web.ts";

const root = resolve(import.meta.dir, "../..");
/** The command line read, or the reason it cannot be (exit code 2, as for a usage error). */
function commandLine() {
  try {
    const flags = readFlags();
    return { flags, opts: sizes(flags), selected: selection(flags) };
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)} (npm run bench -- --help)`);
    process.exit(2);
  }
}
const { flags, opts, selected } = commandLine();
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

const BUN = process.execPath;
const work = mkdtempSync(join(tmpdir(), "dreadcast-bench-"));
const results: Record<string, unknown> = {};
const summary: SummaryRow[] = [];

const line = (label: string, text: string) => console.log(`${label.padEnd(14)} ${text}`);
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

// --- the executable under test ------------------------------------------------------------------------

const bin = join(work, "dreadcast");
{
  const source = resolve(flags.bin ?? join(root, "dist/dreadcast"));
  // dist/dreadcast is copied under the build lock: another build may be replacing it right now.
  if (!flags.bin) console.log("copying dist/dreadcast (waiting for /tmp/dreadcast-build.lock if a build or browser run holds it)");
  const copied = Bun.spawnSync(flags.bin ? ["cp", source, bin] : ["flock", "/tmp/dreadcast-build.lock", "cp", source, bin]);
  if (copied.exitCode !== 0) {
    console.error(`cannot copy ${source}: ${copied.stderr.toString()}Build it first: npm run build`);
    process.exit(1);
  }
}

/** What each benchmark gets for one executable: its own starts, its lines labelled, its own summary rows. */
function contextFor(executable: string, summary: SummaryRow[], label: string | null): BenchContext {
  const say = label ? (what: string, text: string) => line(what, `[${label}] ${text}`) : line;
  return {
    bun: BUN,
    bin: executable,
    work,
    flags,
    opts,
    line: say,
    verdict,
    summary,
    async startDreadcast(extraArgs: string[] = []) {
      const dataDir = mkdtempSync(join(work, "data-"));
      return startServer(
        "dreadcast",
        [executable, "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir, "--trust-proxy", "127.0.0.1", ...extraArgs],
        /dreadcast \S+ listening on (http:\/\/\S+)/,
      );
    },
    async loadgen(job: Job) {
      const file = join(work, `job-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(job));
      const out = await runToEnd([BUN, join(import.meta.dir, "loadgen.ts"), file], { timeoutMs: 300_000 });
      return JSON.parse(out.trim().split("\n").at(-1)!);
    },
  };
}

/** Each benchmark, in the order they run, for one executable; what it returns goes into results.json under its name. */
const benchesFor = (context: BenchContext): Record<BenchName, () => Promise<unknown>> => {
  const report = { line: context.line, verdict, summary: context.summary };
  return {
    chat: () => chatBench(context),
    crowd: () => crowdBench(context),
    idle: () => idleBench(context),
    hearts: () => heartsBench(context),
    http: () => httpBench(context),
    relay: () => relayBench({ ...report, bun: BUN, work, viewers: opts.relayViewers, seconds: opts.relaySeconds, startDreadcast: context.startDreadcast }),
    ingest: () =>
      ingestBench({
        ...report,
        bun: BUN,
        work,
        viewers: opts.ingestViewers,
        loadSeconds: opts.relaySeconds,
        ingestSeconds: opts.ingestSeconds,
        latencySeconds: opts.ingestLatencySeconds,
        startDreadcast: context.startDreadcast,
      }),
    cluster: () =>
      clusterBench({
        ...report,
        bin: context.bin,
        work,
        viewers: opts.viewers,
        senders: opts.senders,
        busyViewers: flags.quick ? 0 : opts.crowd,
        busySenders: opts.crowdSenders,
        rate: opts.rate,
        seconds: opts.seconds,
        warmup: opts.warmup,
        loadgen: context.loadgen,
      }),
    web: () => webBench(context),
    filter: () => filterBench(context),
    replay: () => replayBench({ ...report, work, seconds: flags.quick ? 8 : 30, rounds: flags.quick ? 1 : 5, viewers: flags.quick ? 50 : 500, loadSeconds: flags.quick ? 5 : 10 }),
    admin: () => adminBench({ ...report, work, requests: flags.quick ? 300 : 2000, rounds: flags.quick ? 3 : 5, signIns: flags.quick ? 5 : 30 }),
  };
};

// --- the other build (--against REF) ------------------------------------------------------------------

const builds: { now: BuildId; then?: BuildId } = { now: currentBuild(root, bin) };
let other: { bin: string; id: BuildId } | null = null;
if (flags.against !== undefined) {
  try {
    other = buildAt(root, flags.against, (text) => console.log(text));
    builds.then = other.id;
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exit(2);
  }
}
const thenSummary: SummaryRow[] = [];
const now = benchesFor(contextFor(bin, summary, other ? "now" : null));
const then = other ? benchesFor(contextFor(other.bin, thenSummary, flags.against!)) : null;
const thenResults: Record<string, unknown> = {};
const comparisons: Record<string, Comparison[]> = {};

// --- run -----------------------------------------------------------------------------------------------

if (flags.nice !== undefined) {
  // Children inherit it: servers, load generator, wrk and Chromium all run at this priority.
  try {
    setPriority(Number(flags.nice));
  } catch (error) {
    console.error(`cannot set priority ${flags.nice}: ${(error as Error).message}`);
  }
}
const m = machine();
const started = performance.now();
console.log(
  `dreadcast benchmarks — ${m.cores} cores, ${m.memGiB} GiB, ${m.cpu}; Bun ${m.bun}, Node ${m.node}; load average ${loadAverage()}${flags.nice ? `; nice ${flags.nice}` : ""}`,
);
if (loadAverage() > 1.5) console.log(`  note: the machine is busy (1-minute load ${loadAverage()}); figures will be noisy`);
let failed = false;
let turn = 0;
for (const name of BENCHMARKS) {
  if (!selected.has(name)) continue;
  try {
    if (then && COMPARED.has(name)) {
      // The two builds take turns going first, benchmark by benchmark.
      const order = turn++ % 2 === 0 ? (["then", "now"] as const) : (["now", "then"] as const);
      for (const which of order) {
        if (which === "then") thenResults[name] = await then[name]();
        else results[name] = await now[name]();
      }
      comparisons[name] = compare(name, results[name], thenResults[name]);
      for (const c of comparisons[name]) {
        line(
          "against",
          `${c.name}: ${fmt(c.now, 3)} ${c.unit} now, ${fmt(c.then, 3)} at ${flags.against} → ${fmt(c.ratio, 2)}×` +
            (c.ok === null ? "" : ` (${ceilingText(c)}: ${verdict(c.ok)})`),
        );
      }
    } else {
      results[name] = await now[name]();
    }
  } catch (error) {
    failed = true;
    console.error(`${name}: failed: ${(error as Error).stack ?? error}`);
  }
}

console.log("\n| Benchmark | Figure | Target | |\n| --- | --- | --- | --- |");
for (const row of summary) console.log(`| ${row.benchmark} | ${row.figure} | ${row.target} | ${row.ok === null ? "" : verdict(row.ok)} |`);
if (other) {
  const skipped = [...selected].filter((name) => !COMPARED.has(name));
  console.log(
    `\n| Figure | now (${builds.now.commit.slice(0, 10)}) | ${flags.against} (${other.id.commit.slice(0, 10)}) | now ÷ then | ceiling | |\n| --- | --- | --- | --- | --- | --- |`,
  );
  for (const c of Object.values(comparisons).flat()) {
    console.log(`| ${c.name} | ${fmt(c.now, 3)} ${c.unit} | ${fmt(c.then, 3)} ${c.unit} | ${fmt(c.ratio, 2)}× | ${ceilingText(c)} | ${c.ok === null ? "" : verdict(c.ok)} |`);
  }
  if (skipped.length) console.log(`(run for this build only, having no compared figures: ${skipped.join(", ")})`);
  if (
    Object.values(comparisons)
      .flat()
      .some((c) => c.ok === false)
  )
    failed = true;
}
const seconds = (performance.now() - started) / 1000;
console.log(`\n${m.cores} cores, ${m.memGiB} GiB RAM, ${m.cpu}; Bun ${m.bun}, Node ${m.node}; finished in ${fmt(seconds / 60, 1)} min, load average ${loadAverage()} at the end`);

mkdirSync(join(root, "test-results/bench"), { recursive: true });
writeFileSync(
  join(root, "test-results/bench/results.json"),
  JSON.stringify(
    {
      machine: m,
      options: opts,
      builds,
      results,
      summary,
      ...(other ? { against: { results: thenResults, summary: thenSummary, comparisons } } : {}),
      at: new Date().toISOString(),
    },
    null,
    2,
  ),
);
rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
