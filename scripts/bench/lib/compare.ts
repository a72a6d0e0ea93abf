/**
 * The figures `--against REF` compares: for each benchmark that has them, how to read one figure from its
 * result, which way is better, and the worst ratio (this build ÷ the other) a release may ship with.
 */
import type { BenchName } from "../flags.ts";
import { fmt } from "./stats.ts";

export interface KeyFigure {
  bench: BenchName;
  name: string;
  unit: string;
  /** The figure from one benchmark result, or undefined where that run did not measure it. */
  read: (result: any) => number | undefined;
  better: "lower" | "higher";
  /** The worst new ÷ old allowed: at most this for a lower-is-better figure, at least its inverse otherwise; null for none. */
  ceiling: number | null;
}

const median = (values: number[] | undefined) => {
  if (!values?.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kib = (bytes: unknown) => (typeof bytes === "number" ? bytes / 1024 : undefined);

export const KEY_FIGURES: KeyFigure[] = [
  { bench: "chat", name: "Quiet chat: server CPU per 100k deliveries", unit: "s", read: (r) => r?.dreadcast?.cpuSecondsPer100k, better: "lower", ceiling: 1.1 },
  {
    bench: "chat",
    name: "Quiet chat: CPU per delivery ÷ the floor's (same round)",
    unit: "×",
    read: (r) => (r?.dreadcast && r?.floor ? r.dreadcast.cpuSecondsPer100k / r.floor.cpuSecondsPer100k : undefined),
    better: "lower",
    ceiling: 1.1,
  },
  { bench: "chat", name: "Quiet chat: p99 delivery", unit: "ms", read: (r) => r?.dreadcast?.latencyMs?.p99, better: "lower", ceiling: null },
  { bench: "crowd", name: "Busy chat: server CPU (median round)", unit: "% of a core", read: (r) => r?.batched?.serverCpuPercent, better: "lower", ceiling: 1.1 },
  {
    bench: "crowd",
    name: "Busy chat: CPU ÷ the batched floor's",
    unit: "×",
    read: (r) => (r?.batched && r?.batchedFloor ? r.batched.serverCpuPercent / r.batchedFloor.serverCpuPercent : undefined),
    better: "lower",
    ceiling: 1.1,
  },
  { bench: "idle", name: "Idle viewer: server memory per socket", unit: "KiB", read: (r) => r?.perSocketKiB, better: "lower", ceiling: 1.1 },
  { bench: "idle", name: "Idle server: CPU with nobody on", unit: "% of a core", read: (r) => r?.quiet?.cpuPercent, better: "lower", ceiling: null },
  { bench: "http", name: "HTTP: GET /api/livestream-settings", unit: "req/s", read: (r) => r?.dreadcast, better: "higher", ceiling: 1.1 },
  { bench: "http", name: "HTTP: server CPU per request", unit: "µs", read: (r) => r?.cpuUsPerRequest?.dreadcast, better: "lower", ceiling: 1.1 },
  { bench: "ingest", name: "Ingest: server CPU, 720p30", unit: "% of a core", read: (r) => r?.cpu?.dreadcast, better: "lower", ceiling: 1.15 },
  { bench: "ingest", name: "Ingest: glass-to-glass p50 in hls.js", unit: "s", read: (r) => median(r?.latency?.dreadcast), better: "lower", ceiling: 1.15 },
  { bench: "web", name: "Page weight /", unit: "KiB", read: (r) => kib(r?.weights?.["/"]?.gzipBytes), better: "lower", ceiling: 1.05 },
  { bench: "web", name: "Page weight /livestream", unit: "KiB", read: (r) => kib(r?.weights?.["/livestream"]?.gzipBytes), better: "lower", ceiling: 1.05 },
];

/** The benchmarks `--against` runs for both builds. */
export const COMPARED = new Set(KEY_FIGURES.map((f) => f.bench));

export interface Comparison {
  name: string;
  unit: string;
  now: number;
  then: number;
  /** now ÷ then. */
  ratio: number;
  better: "lower" | "higher";
  ceiling: number | null;
  /** Within the ceiling; null where there is none. */
  ok: boolean | null;
}

/** Each key figure of `bench` read from both builds' results (those both runs measured). */
export function compare(bench: BenchName, now: unknown, then: unknown): Comparison[] {
  const out: Comparison[] = [];
  for (const figure of KEY_FIGURES) {
    if (figure.bench !== bench) continue;
    const a = figure.read(now),
      b = figure.read(then);
    if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) continue;
    const ratio = a / b;
    const ok = figure.ceiling === null ? null : figure.better === "lower" ? ratio <= figure.ceiling : ratio >= 1 / figure.ceiling;
    out.push({ name: figure.name, unit: figure.unit, now: a, then: b, ratio, better: figure.better, ceiling: figure.ceiling, ok });
  }
  return out;
}

/** The ceiling as a target: "≤ 1.10×" or "≥ 0.91×". */
export function ceilingText(c: Pick<Comparison, "ceiling" | "better">): string {
  if (c.ceiling === null) return "—";
  return c.better === "lower" ? `≤ ${fmt(c.ceiling, 2)}×` : `≥ ${fmt(1 / c.ceiling, 2)}×`;
}
