import { FailureBackoff, RateLimiter } from "../lib/rate-limit.ts";
import type { Backoff, Cluster, ClusterStatus, Held, Limiter, SingleJob } from "./cluster.ts";

/** One instance serving the event alone: nothing to share. */
export class SoloCluster implements Cluster {
  readonly clustered = false;
  private readonly jobs: { name: string; job: SingleJob }[] = [];
  private started = false;

  constructor(readonly name: string) {}

  send(): void {}
  noteWrite(): void {}
  listen(): void {}
  onResync(): void {}

  limiter(_name: string, limit: number, windowMs: number): Limiter {
    return new RateLimiter(limit, windowMs);
  }

  backoff(_name: string, freeFailures: number, maxDelayMs?: number, forgetMs?: number): Backoff {
    return new FailureBackoff(freeFailures, maxDelayMs, forgetMs);
  }

  holding(): void {}

  async heldElsewhere(): Promise<Held> {
    return { person: 0, address: 0 };
  }

  mark(): void {}

  async marks(): Promise<Map<string, number>> {
    return new Map();
  }

  single(name: string, job: SingleJob): void {
    this.jobs.push({ name, job });
    if (this.started) job.start();
  }

  async claim(): Promise<boolean> {
    return true;
  }

  async release(): Promise<void> {}

  async holder(): Promise<string | null> {
    return null;
  }

  status(): ClusterStatus {
    return { name: this.name, clustered: false, redis: "off", roundTripMs: null, owns: this.started ? this.jobs.map((j) => j.name) : [], published: 0, received: 0, dropped: 0 };
  }

  async start(): Promise<void> {
    this.started = true;
    for (const { job } of this.jobs) job.start();
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const { job } of this.jobs.splice(0).reverse()) await job.stop();
  }
}
