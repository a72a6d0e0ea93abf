import type { RedisClient } from "bun";
import { describeError } from "../lib/lasting-failure.ts";
import type { Logger } from "../lib/logger.ts";
import { FailureBackoff, RateLimiter } from "../lib/rate-limit.ts";
import { CENSUS_SCRIPT, FAIL_SCRIPT, HELD_SCRIPT, HIT_SCRIPT, HOLD_SCRIPT, LEASE_SCRIPT, RELEASE_SCRIPT } from "./lua.ts";
import { readClusterEnvelope, type ClusterEnvelope, type ClusterMessage } from "./messages.ts";
import { RedisLink } from "./redis-link.ts";
import { CENSUS_TTL_MS, HEARD_WITHIN_MS, LIMIT_TIMEOUT_MS, PING_EVERY_MS, PING_TIMEOUT_MS, within, WROTE_COALESCE_MS } from "./redis-timing.ts";

/** A rate limit: `hit` counts one and answers 0 (allowed) or the seconds until the key may try again. */
export interface Limiter {
  hit(key: string): number | Promise<number>;
  reset(key: string): void;
}

/** The escalating lock-out after failed attempts (see FailureBackoff): 0 or the seconds a key must still wait. */
export interface Backoff {
  retryAfter(key: string): number | Promise<number>;
  fail(key: string): void | Promise<void>;
  succeed(key: string): void;
}

/** Sockets held for one person and from one address. */
export interface Held {
  person: number;
  address: number;
}

/** Periodic work that must run on one instance of the cluster at a time. */
export interface SingleJob {
  start(): void;
  stop(): void | Promise<void>;
}

/** A single-owner job that runs `tick` every `everyMs` while this instance owns it (and once as it takes it, if `atStart`). */
export function intervalJob(tick: () => void, everyMs: number, hooks: { atStart?: boolean; owned?: (owned: boolean) => void } = {}): SingleJob {
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    start: () => {
      hooks.owned?.(true);
      if (timer) return;
      if (hooks.atStart) tick();
      timer = setInterval(tick, everyMs);
    },
    stop: () => {
      hooks.owned?.(false);
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export interface ClusterStatus {
  name: string;
  clustered: boolean;
  redis: "off" | "up" | "down";
  /** The last health ping's round trip to Redis, in milliseconds. */
  roundTripMs: number | null;
  /** The single-owner jobs this instance runs now. */
  owns: string[];
  published: number;
  received: number;
  /** Messages that could not be published (Redis away). */
  dropped: number;
}

/**
 * How an instance shares the live event with the others serving it. Alone (the default) nothing is sent
 * and everything is local; in a cluster, messages go through one Redis channel per event (every instance
 * publishes each change once and fans it out to its own sockets itself, as Socket.IO's Redis adapter and
 * Centrifugo's Redis engine do), rate limits are counted in Redis, and single-owner jobs hold a lease there.
 */
export interface Cluster {
  readonly name: string;
  readonly clustered: boolean;
  send(message: ClusterMessage): void;
  /**
   * A write others may have cached was committed here: they are told (`wrote`), a few writes at a time,
   * and always before any message sent after it, so no instance answers from a stale cache after it got
   * an event that followed the write.
   */
  noteWrite(): void;
  listen(handler: (message: ClusterMessage, from: string) => void): void;
  /** After a gap in the messages (Redis lost and back): whatever may have been missed is read again. */
  onResync(handler: () => void): void;
  limiter(name: string, limit: number, windowMs: number): Limiter;
  /** An escalating lock-out after failures, counted for the whole cluster. */
  backoff(name: string, freeFailures: number, maxDelayMs?: number, forgetMs?: number): Backoff;
  /** A socket of this person from this address opened (+1) or closed (-1) on this instance. */
  holding(person: string, address: string, change: 1 | -1): void;
  /** The sockets the other instances hold for this person and from this address (none alone, or while Redis is away). */
  heldElsewhere(person: string, address: string): Promise<Held>;
  /**
   * Records a cool-down (a kick) until `until` where an instance that was cut off when it was made finds it
   * once it is back (`marks`); alone, or while Redis is away, nothing is kept.
   */
  mark(kind: string, name: string, until: number): void;
  /** The cool-downs of a kind still running, by name. */
  marks(kind: string): Promise<Map<string, number>>;
  single(name: string, job: SingleJob): void;
  /**
   * Takes a lease named `name` with `value` (or renews it, when `value` holds it already) for LEASE_MS:
   * true when `value` holds it now, false when another value does, null while Redis cannot be asked.
   * Alone it is always true.
   */
  claim(name: string, value: string): Promise<boolean | null>;
  /** Gives up the lease if `value` holds it. */
  release(name: string, value: string): Promise<void>;
  /** The value holding the lease, or null (nobody, alone, or Redis away). */
  holder(name: string): Promise<string | null>;
  status(): ClusterStatus;
  start(): Promise<void>;
  stop(): Promise<void>;
}

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

export class RedisUnavailableError extends Error {}

/** A lease is this long; its owner renews it every LEASE_RENEW_MS, so a dead owner's jobs move within seconds. */
export const LEASE_MS = 5000;
export const LEASE_RENEW_MS = 1000;

/** A limit counted in Redis for the whole cluster; the instance's own count first (it can only be lower), and alone while Redis is away. */
class SharedLimiter implements Limiter {
  private readonly local: RateLimiter;

  constructor(
    private readonly cluster: RedisCluster,
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
class SharedBackoff implements Backoff {
  private readonly local: FailureBackoff;

  constructor(
    private readonly cluster: RedisCluster,
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

interface Lease {
  name: string;
  job: SingleJob;
  owned: boolean;
}

/** A cluster member: messages, limits and leases through Redis. */
export class RedisCluster implements Cluster {
  readonly clustered = true;
  private readonly channel: string;
  private readonly commands: RedisLink;
  private readonly subscriber: RedisLink;
  private readonly handlers: ((message: ClusterMessage, from: string) => void)[] = [];
  private readonly resyncs: (() => void)[] = [];
  private readonly leases: Lease[] = [];
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private started = false;
  private stopped = false;
  private roundTripMs: number | null = null;
  private missedPings = 0;
  private down = false;
  private readonly counts = { published: 0, received: 0, dropped: 0 };
  private wroteTimer: ReturnType<typeof setTimeout> | null = null;
  /** When each other instance was last heard from. */
  private readonly heard = new Map<string, number>();
  /** This instance's sockets per census field ('p:' person, 'a:' address), as Redis should have them. */
  private readonly census = new Map<string, number>();
  /** The census in Redis: a hash that expires unless this instance keeps renewing it, so a dead instance's sockets stop counting within seconds. */
  private readonly censusKey: string;

  constructor(
    private readonly url: string,
    readonly name: string,
    /** Keys and the channel start with it: one per event, so several events may share a Redis. */
    private readonly namespace: string,
    private readonly log: Logger,
  ) {
    this.channel = `${namespace}:live`;
    this.censusKey = this.censusKeyOf(name);
    this.commands = new RedisLink(url, async () => {}, { down: () => {}, up: () => {} });
    this.subscriber = new RedisLink(url, (client) => client.subscribe(this.channel, (raw) => this.receive(raw)).then(() => {}), {
      down: (error) => {
        this.down = true;
        this.log.warn(`[${this.name}] Redis connection lost (${describeError(error)}); chat from other instances is paused until it is back`);
      },
      up: () => {
        this.down = false;
        this.log.info(`[${this.name}] Redis connection back; resubscribed, reading what may have been missed`);
        void this.writeCensus();
        for (const resync of this.resyncs) resync();
      },
    });
  }

  /** The connection for commands, or null while Redis is away. */
  command(): RedisClient | null {
    return this.commands.client;
  }

  /** Deletes a shared count (a limit reset, a lock-out lifted) in the background; while Redis is away it runs out on its own. */
  forget(key: string): void {
    this.commands.client?.del(key).catch(() => {});
  }

  async start(): Promise<void> {
    try {
      await this.commands.start();
      await this.subscriber.start();
    } catch (error) {
      this.commands.stop();
      this.subscriber.stop();
      throw new RedisUnavailableError(`cannot reach Redis at ${new URL(this.url).host} (${describeError(error)})`);
    }
    this.started = true;
    this.timers.push(setInterval(() => void this.ping(), PING_EVERY_MS));
    this.timers.push(setInterval(() => void this.renewLeases(), LEASE_RENEW_MS));
    await this.renewLeases();
  }

  noteWrite(): void {
    this.wroteTimer ??= setTimeout(() => this.flushWrote(), WROTE_COALESCE_MS);
  }

  private flushWrote(): void {
    if (this.wroteTimer === null) return;
    clearTimeout(this.wroteTimer);
    this.wroteTimer = null;
    this.publish({ k: "wrote" });
  }

  send(message: ClusterMessage): void {
    this.flushWrote();
    this.publish(message);
  }

  private publish(message: ClusterMessage): void {
    const client = this.commands.client;
    if (!client) {
      this.counts.dropped++;
      return;
    }
    this.counts.published++;
    const envelope: ClusterEnvelope = { f: this.name, m: message };
    client.publish(this.channel, JSON.stringify(envelope)).catch(() => {
      this.counts.dropped++;
    });
  }

  listen(handler: (message: ClusterMessage, from: string) => void): void {
    this.handlers.push(handler);
  }

  onResync(handler: () => void): void {
    this.resyncs.push(handler);
  }

  limiter(name: string, limit: number, windowMs: number): Limiter {
    return new SharedLimiter(this, `${this.namespace}:rl:${name}:`, limit, windowMs);
  }

  backoff(name: string, freeFailures: number, maxDelayMs = 15 * 60_000, forgetMs = 60 * 60_000): Backoff {
    return new SharedBackoff(this, `${this.namespace}:bo:${name}:`, freeFailures, maxDelayMs, forgetMs);
  }

  holding(person: string, address: string, change: 1 | -1): void {
    const fields = [`p:${person}`, `a:${address}`];
    const heldBefore = this.census.size > 0;
    for (const field of fields) {
      const count = (this.census.get(field) ?? 0) + change;
      if (count > 0) this.census.set(field, count);
      else this.census.delete(field);
    }
    const client = this.commands.client;
    if (!client) return;
    void client.send("EVAL", [HOLD_SCRIPT, "1", this.censusKey, String(change), heldBefore ? "1" : "0", ...fields]).then(
      (applied) => {
        if (applied === 0) void this.writeCensus();
      },
      () => {},
    );
  }

  async heldElsewhere(person: string, address: string): Promise<Held> {
    const client = this.commands.client;
    const now = Date.now();
    const others = [...this.heard].filter(([, at]) => now - at <= HEARD_WITHIN_MS).map(([name]) => this.censusKeyOf(name));
    if (!client || others.length === 0) return { person: 0, address: 0 };
    try {
      const [p, a] = (await within(client.send("EVAL", [HELD_SCRIPT, String(others.length), ...others, `p:${person}`, `a:${address}`]), LIMIT_TIMEOUT_MS)) as [number, number];
      return { person: p, address: a };
    } catch {
      return { person: 0, address: 0 };
    }
  }

  mark(kind: string, name: string, until: number): void {
    const client = this.commands.client;
    if (!client) return;
    const key = this.marksKey(kind);
    client.send("ZADD", [key, String(until), name]).catch(() => {});
    // Those run out go as new ones come, so the set holds only what still runs.
    client.send("ZREMRANGEBYSCORE", [key, "-inf", String(Date.now())]).catch(() => {});
  }

  async marks(kind: string): Promise<Map<string, number>> {
    const client = await this.commandWithin(PING_EVERY_MS);
    const found = new Map<string, number>();
    if (!client) return found;
    try {
      // Those still running (the run-out ones go as new ones are marked).
      const flat = (await within(client.send("ZRANGEBYSCORE", [this.marksKey(kind), `(${Date.now()}`, "+inf", "WITHSCORES"]), PING_TIMEOUT_MS)) as (string | [string, number])[];
      // RESP3 answers pairs, RESP2 a flat list.
      for (let i = 0; i < flat.length; i++) {
        const item = flat[i]!;
        if (Array.isArray(item)) found.set(item[0], Number(item[1]));
        else found.set(item, Number(flat[++i]));
      }
    } catch {
      // Redis went away again: what was found so far is all there is.
    }
    return found;
  }

  single(name: string, job: SingleJob): void {
    this.leases.push({ name, job, owned: false });
    if (this.started) void this.renewLeases();
  }

  async claim(name: string, value: string): Promise<boolean | null> {
    const client = this.commands.client;
    if (!client || this.stopped) return null;
    try {
      return (await within(client.send("EVAL", [LEASE_SCRIPT, "1", this.claimKey(name), value, String(LEASE_MS)]), PING_TIMEOUT_MS)) === 1;
    } catch {
      return null;
    }
  }

  async release(name: string, value: string): Promise<void> {
    await within(this.commands.client?.send("EVAL", [RELEASE_SCRIPT, "1", this.claimKey(name), value]) ?? Promise.resolve(), PING_TIMEOUT_MS).catch(() => {});
  }

  async holder(name: string): Promise<string | null> {
    const client = this.commands.client;
    if (!client) return null;
    try {
      return ((await within(client.get(this.claimKey(name)), PING_TIMEOUT_MS)) as string | null) ?? null;
    } catch {
      return null;
    }
  }

  private claimKey(name: string): string {
    return `${this.namespace}:claim:${name}`;
  }

  status(): ClusterStatus {
    return {
      name: this.name,
      clustered: true,
      redis: this.down || !this.commands.client ? "down" : "up",
      roundTripMs: this.roundTripMs,
      owns: this.leases.filter((l) => l.owned).map((l) => l.name),
      ...this.counts,
    };
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.flushWrote();
    for (const timer of this.timers) clearInterval(timer);
    for (const lease of this.leases) {
      if (!lease.owned) continue;
      lease.owned = false;
      await lease.job.stop();
      // Handed over at once rather than when the lease runs out.
      await this.commands.client?.send("EVAL", [RELEASE_SCRIPT, "1", this.leaseKey(lease), this.name]).catch(() => {});
    }
    // Its sockets stop counting at once rather than when the census runs out.
    await this.commands.client?.del(this.censusKey).catch(() => {});
    this.subscriber.stop();
    this.commands.stop();
  }

  private receive(raw: string): void {
    const envelope = readClusterEnvelope(raw);
    if (!envelope || envelope.f === this.name) return;
    this.counts.received++;
    this.heard.set(envelope.f, Date.now());
    for (const handler of this.handlers) {
      try {
        handler(envelope.m, envelope.f);
      } catch (error) {
        this.log.error(`[${this.name}] cluster message '${envelope.m.k}' failed`, error);
      }
    }
  }

  private censusKeyOf(instance: string): string {
    return `${this.namespace}:sockets:${instance}`;
  }

  private marksKey(kind: string): string {
    return `${this.namespace}:marks:${kind}`;
  }

  /** The command connection, waiting up to `ms` for it to come back. */
  private async commandWithin(ms: number): Promise<RedisClient | null> {
    const until = Date.now() + ms;
    while (!this.commands.client && !this.stopped && Date.now() < until) await Bun.sleep(50);
    return this.commands.client;
  }

  /** Writes this instance's census anew: after Redis was away (it may have restarted empty) or the hash expired (the instance was frozen). */
  private async writeCensus(): Promise<void> {
    const client = this.commands.client;
    if (!client) return;
    const pairs = [...this.census].flatMap(([field, count]) => [field, String(count)]);
    await client.send("EVAL", [CENSUS_SCRIPT, "1", this.censusKey, ...pairs]).catch(() => {});
  }

  /** Keeps the census alive; if it had gone, it is written anew. */
  private async renewCensus(client: RedisClient): Promise<void> {
    if (this.census.size === 0) return;
    if ((await client.send("PEXPIRE", [this.censusKey, String(CENSUS_TTL_MS)])) === 0) await this.writeCensus();
  }

  private leaseKey(lease: Lease): string {
    return `${this.namespace}:lease:${lease.name}`;
  }

  /** Keeps the leases this instance holds and takes any nobody holds. While Redis is away, nothing changes hands. */
  private async renewLeases(): Promise<void> {
    const client = this.commands.client;
    if (!client || this.stopped) return;
    for (const lease of this.leases) {
      let held: boolean;
      try {
        held = (await within(client.send("EVAL", [LEASE_SCRIPT, "1", this.leaseKey(lease), this.name, String(LEASE_MS)]), PING_TIMEOUT_MS)) === 1;
      } catch {
        continue;
      }
      if (this.stopped) return;
      if (held && !lease.owned) {
        lease.owned = true;
        this.log.info(`[${this.name}] now runs ${lease.name}`);
        lease.job.start();
      } else if (!held && lease.owned) {
        lease.owned = false;
        this.log.info(`[${this.name}] no longer runs ${lease.name} (another instance took it over)`);
        await lease.job.stop();
      }
    }
  }

  private async ping(): Promise<void> {
    const client = this.commands.client;
    if (!client) return;
    const started = performance.now();
    try {
      await within(client.send("PING", []), PING_TIMEOUT_MS);
      this.roundTripMs = performance.now() - started;
      this.missedPings = 0;
      await within(this.renewCensus(client), PING_TIMEOUT_MS).catch(() => {});
    } catch (error) {
      if (++this.missedPings >= 2) {
        this.missedPings = 0;
        this.commands.reset(error);
        this.subscriber.reset(error);
      }
    }
  }
}

/** The Redis keys of one event: named after its database, so two events sharing a Redis never mix. */
export function clusterNamespace(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const database = url.pathname.replace(/^\//, "") || url.username || "postgres";
  const place = `${url.hostname || url.searchParams.get("host") || ""}:${url.port || "5432"}/${database}`;
  return `dreadcast:${Bun.hash(place).toString(36)}`;
}
