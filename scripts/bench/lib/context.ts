/** What the runner (run.ts) hands each benchmark: the executable under test, the sizes, and the report its figures go to. */
import type { Flags, Sizes } from "../flags.ts";
import type { Job } from "../loadgen.ts";
import type { Server } from "./proc.ts";

/** One row of the summary table printed at the end of the run. */
export interface SummaryRow {
  benchmark: string;
  figure: string;
  target: string;
  /** PASS or MISS against the target; null where there is none. */
  ok: boolean | null;
}

/** Where a benchmark reports: one labelled line per figure as it goes, and its rows of the summary table. */
export interface Report {
  line: (label: string, text: string) => void;
  verdict: (ok: boolean) => string;
  summary: SummaryRow[];
}

export interface BenchContext extends Report {
  /** The Bun running the benchmark, for the load generators and the baselines. */
  bun: string;
  /** The copy of the executable under test. */
  bin: string;
  /** The run's temporary directory. */
  work: string;
  flags: Flags;
  opts: Sizes;
  /** A fresh dreadcast on a free port and a data directory of its own. */
  startDreadcast: (extraArgs?: string[]) => Promise<Server>;
  /** One load generator run (loadgen.ts, its own process); its JSON result. */
  loadgen: (job: Job) => Promise<Record<string, any>>;
}
