import type { RedisClient } from "bun";
import { describeError } from "../lib/lasting-failure.ts";
import type { Logger } from "../lib/logger.ts";
import { LEASE_MS, LEASE_RENEW_MS, type Backoff, type Cluster, type ClusterStatus, type Held, type Limiter, type SingleJob } from "./cluster.ts";
import { LEASE_SCRIPT, RELEASE_SCRIPT } from "./lua.ts";
import { readClusterEnvelope, type ClusterEnvelope, type ClusterMessage } from "./messages.ts";
import { RedisSocketCensus } from "./redis-census.ts";
import { SharedBackoff, SharedLimiter, type RedisCommands } from "./redis-limits.ts";
import { RedisLink } from "./redis-link.ts";
import { PING_EVERY_MS, PING_TIMEOUT_MS, within, WROTE_COALESCE_MS } from "./redis-timing.ts";

/** Redis did not answer at start-up: the instance does not start, and says why. */
export class RedisUnavailableError extends Error {}

interface Lease {
  name: string;
  job: SingleJob;
  owned: boolean;
}

/** A cluster member: messages, limits, the socket census, cool-downs and leases through Redis. */
export class RedisCluster implements Cluster, RedisCommands {
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
  private readonly census: RedisSocketCensus;

  constructor(
    private readonly url: string,
    readonly name: string,
    /** Keys and the channel start with it: one per event, so several events may share a Redis. */
    private readonly namespace: string,
    private readonly log: Logger,
  ) {
    this.channel = `${namespace}:live`;
    this.commands = new RedisLink(url, async () => {}, { down: () => {}, up: () => {} });
    this.census = new RedisSocketCensus(this.commands, namespace, name);
    this.subscriber = new RedisLink(url, (client) => client.subscribe(this.channel, (raw) => this.receive(raw)).then(() => {}), {
      down: (error) => {
        this.down = true;
        this.log.warn(`[${this.name}] Redis connection lost (${describeError(error)}); chat from other instances is paused until it is back`);
      },
      up: () => {
        this.down = false;
        this.log.info(`[${this.name}] Redis connection back; resubscribed, reading what may have been missed`);
        void this.census.write();
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
    this.census.holding(person, address, change);
  }

  heldElsewhere(person: string, address: string): Promise<Held> {
    return this.census.heldElsewhere(person, address);
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
    await this.census.drop();
    this.subscriber.stop();
    this.commands.stop();
  }

  private receive(raw: string): void {
    const envelope = readClusterEnvelope(raw);
    if (!envelope || envelope.f === this.name) return;
    this.counts.received++;
    this.census.heardFrom(envelope.f);
    for (const handler of this.handlers) {
      try {
        handler(envelope.m, envelope.f);
      } catch (error) {
        this.log.error(`[${this.name}] cluster message '${envelope.m.k}' failed`, error);
      }
    }
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
      await within(this.census.renew(client), PING_TIMEOUT_MS).catch(() => {});
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
