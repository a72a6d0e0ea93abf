import type { ClusterMessage } from "./messages.ts";

/**
 * How an instance shares the live event with the others serving it. Alone (the default) nothing is sent
 * and everything is local; in a cluster, messages go through one Redis channel per event (every instance
 * publishes each change once and fans it out to its own sockets itself, as Socket.IO's Redis adapter and
 * Centrifugo's Redis engine do), rate limits are counted in Redis, and single-owner jobs hold a lease there.
 * Each part is an interface of its own, so that a consumer can depend on just the part it uses.
 */

/** Which instance this is, and whether others serve the event with it. */
export interface ClusterMember {
  readonly name: string;
  readonly clustered: boolean;
}

/** Messages between the instances: each change is sent once, and every instance applies it to its own sockets. */
export interface Broker {
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
}

/** Rate limits and lock-outs counted for the whole cluster. */
export interface SharedLimits {
  limiter(name: string, limit: number, windowMs: number): Limiter;
  /** An escalating lock-out after failures, counted for the whole cluster. */
  backoff(name: string, freeFailures: number, maxDelayMs?: number, forgetMs?: number): Backoff;
}

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

/** The sockets each instance holds, per person and per address, so that the caps on them hold across instances. */
export interface SocketCensus {
  /** A socket of this person from this address opened (+1) or closed (-1) on this instance. */
  holding(person: string, address: string, change: 1 | -1): void;
  /** The sockets the other instances hold for this person and from this address (none alone, or while Redis is away). */
  heldElsewhere(person: string, address: string): Promise<Held>;
}

/** Sockets held for one person and from one address. */
export interface Held {
  person: number;
  address: number;
}

/** Cool-downs that outlast a lost message. */
export interface CooldownMarks {
  /**
   * Records a cool-down (a kick) until `until` where an instance that was cut off when it was made finds it
   * once it is back (`marks`); alone, or while Redis is away, nothing is kept.
   */
  mark(kind: string, name: string, until: number): void;
  /** The cool-downs of a kind still running, by name. */
  marks(kind: string): Promise<Map<string, number>>;
}

/** What one instance at a time holds: the single-owner jobs, and named leases. */
export interface Leases {
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
}

/** A lease is this long; its owner renews it every LEASE_RENEW_MS, so a dead owner's jobs move within seconds. */
export const LEASE_MS = 5000;
export const LEASE_RENEW_MS = 1000;

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

/** What the health page and metrics show of the cluster. */
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

/** The whole of it, as the app's context holds it: alone (SoloCluster) or through Redis (RedisCluster). */
export interface Cluster extends ClusterMember, Broker, SharedLimits, SocketCensus, CooldownMarks, Leases {
  status(): ClusterStatus;
  start(): Promise<void>;
  stop(): Promise<void>;
}
