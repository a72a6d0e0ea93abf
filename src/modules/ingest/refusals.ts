import type { IngestRefusal } from "../../contracts/stream.ts";

/** A refusal again from the same address for the same reason within this long is the same burst. */
const BURST_MS = 60_000;
/** How far back the panel's list reaches, and how many entries it keeps. */
const KEPT_MS = 30 * 60_000;
const KEPT = 8;

interface Burst {
  address: string;
  reason: string;
  firstAt: number;
  lastAt: number;
  count: number;
}

/**
 * Publishes the ingest refused lately, for the panel: when, from which address and why, one entry per
 * burst (a publisher retrying every second is one line with its count, not sixty). Bounded in size, and
 * pruned when written or read: nothing runs while nothing is refused.
 */
export class RefusalLog {
  private bursts: Burst[] = [];

  add(address: string, reason: string, now = Date.now()): void {
    this.prune(now);
    const burst = this.bursts.find((b) => b.address === address && b.reason === reason && now - b.lastAt < BURST_MS);
    if (burst) {
      burst.count++;
      burst.lastAt = now;
      return;
    }
    this.bursts.push({ address, reason, firstAt: now, lastAt: now, count: 1 });
    if (this.bursts.length > KEPT) this.bursts.shift();
  }

  /** The newest first. */
  recent(now = Date.now()): IngestRefusal[] {
    this.prune(now);
    return this.bursts
      .map((b) => ({ address: b.address, reason: b.reason, at: new Date(b.firstAt).toISOString(), lastAt: new Date(b.lastAt).toISOString(), count: b.count }))
      .reverse();
  }

  private prune(now: number): void {
    if (this.bursts.length > 0 && now - this.bursts[0]!.lastAt > KEPT_MS) this.bursts = this.bursts.filter((b) => now - b.lastAt <= KEPT_MS);
  }
}
