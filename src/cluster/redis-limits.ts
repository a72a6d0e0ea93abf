import type { RedisClient } from "bun";
import { FailureBackoff, RateLimiter } from "../lib/rate-limit.ts";
import type { Backoff, Limiter } from "./cluster.ts";
import { FAIL_SCRIPT, HIT_SCRIPT } from "./lua.ts";
import { LIMIT_TIMEOUT_MS, within } from "./redis-timing.ts";

/** What a count shared in Redis needs of the cluster's connection. */
export interface RedisCommands {
  /** The connection for commands, or null while Redis is away. */
  command(): RedisClient | null;
  /** Deletes a shared count in the background. */
  forget(key: string): void;
}

/** A limit counted in Redis for the whole cluster; the instance's own count first (it can only be lower), and alone while Redis is away. */
export class SharedLimiter implements Limiter {
  private readonly local: RateLimiter;

  constructor(
    private readonly cluster: RedisCommands,
    private readonly prefix: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {
    this.local = new RateLimiter(limit, windowMs);
  }

  hit(key: string): number | Promise<number> {
    const wait = this.local.hit(key);
    if (wait > 0) return wait;
    const client = this.cluster.command();
    if (!client) return 0;
    return within(client.send("EVAL", [HIT_SCRIPT, "1", this.prefix + key, String(this.windowMs)]) as Promise<[number, number]>, LIMIT_TIMEOUT_MS).then(
      ([count, ttl]) => (count > this.limit ? Math.max(ttl, 1) / 1000 : 0),
      () => 0,
    );
  }

  reset(key: string): void {
    this.local.reset(key);
    this.cluster.forget(this.prefix + key);
  }
}

/** Failures counted in Redis for the whole cluster; the instance's own count first (it can only be lower), and alone while Redis is away. */
export class SharedBackoff implements Backoff {
  private readonly local: FailureBackoff;

  constructor(
    private readonly cluster: RedisCommands,
    private readonly prefix: string,
    private readonly freeFailures: number,
    private readonly maxDelayMs: number,
    private readonly forgetMs: number,
  ) {
    this.local = new FailureBackoff(freeFailures, maxDelayMs, forgetMs);
  }

  retryAfter(key: string): number | Promise<number> {
    const wait = this.local.retryAfter(key);
    if (wait > 0) return wait;
    const client = this.cluster.command();
    if (!client) return 0;
    return within(client.send("HGET", [this.prefix + key, "u"]) as Promise<string | null>, LIMIT_TIMEOUT_MS).then(
      (until) => Math.max(0, (Number(until ?? 0) - Date.now()) / 1000),
      () => 0,
    );
  }

  /** Counted before the answer goes out, so the next attempt, wherever it lands, already sees it. */
  async fail(key: string): Promise<void> {
    this.local.fail(key);
    const client = this.cluster.command();
    if (!client) return;
    const args = [FAIL_SCRIPT, "1", this.prefix + key, String(this.freeFailures), String(Date.now()), String(this.maxDelayMs), String(this.forgetMs)];
    await within(client.send("EVAL", args), LIMIT_TIMEOUT_MS).catch(() => {});
  }

  succeed(key: string): void {
    this.local.succeed(key);
    this.cluster.forget(this.prefix + key);
  }
}
