/** Latencies in a fixed histogram (0.05 ms buckets up to 30 s): constant memory whatever the sample count. */
export class LatencyHistogram {
  private static readonly BUCKET_MS = 0.05;
  private readonly buckets = new Uint32Array(Math.ceil(30_000 / LatencyHistogram.BUCKET_MS) + 1);
  count = 0;
  max = 0;

  record(ms: number): void {
    const i = Math.min(this.buckets.length - 1, Math.max(0, Math.floor(ms / LatencyHistogram.BUCKET_MS)));
    this.buckets[i]!++;
    this.count++;
    if (ms > this.max) this.max = ms;
  }

  /** The latency at quantile q (0–1), in ms; NaN without samples. */
  quantile(q: number): number {
    if (this.count === 0) return NaN;
    const rank = Math.ceil(q * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i]!;
      if (seen >= rank) return (i + 1) * LatencyHistogram.BUCKET_MS;
    }
    return this.max;
  }

  summary(): { p50: number; p90: number; p99: number; max: number; samples: number } {
    return { p50: this.quantile(0.5), p90: this.quantile(0.9), p99: this.quantile(0.99), max: this.max, samples: this.count };
  }
}

export const round = (n: number, digits = 1): number => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : n);

export function fmt(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return "n/a";
  return n.toLocaleString("en-GB", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** KiB as whole MiB. */
export const mib = (kib: number) => `${fmt(kib / 1024, 0)} MiB`;

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
