/**
 * What one address may do at the RTMP door before it publishes. Anyone on the internet reaches the RTMP
 * port without a key, so what a connection costs before its publish is bounded per connection and per
 * address: connections opened per second, connections pending at once (a full allowance drops the oldest
 * pending connection of the address holding the most, never the newcomer: a broadcaster reconnecting
 * after a blip always gets in), messages and bytes per second, and wrong stream keys — after a burst of
 * them an address waits, longer each time, and the log says so once per burst rather than once per try.
 * Sans-IO like the connection: the server hands it addresses, connections and the time.
 */

import type { Logger } from "../../../lib/logger.ts";
import type { RtmpLimits } from "./limits.ts";

/** A rate with a burst: `take` succeeds while tokens are left; they come back at `rate` a second. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  take(n: number, now: number): boolean {
    this.refill(now);
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  /** Nothing taken that has not come back: the bucket can be forgotten. */
  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.burst;
  }

  private refill(now: number): void {
    if (now > this.at) this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
  }
}

/** The address a limit is kept for: IPv4 as it is (IPv4-mapped IPv6 too), IPv6 by its /64 (what one host is given). */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(":")) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** A connection as the door sees it: it can be told to go. */
export interface DoorConnection {
  close(reason: string): void;
}

interface Address {
  readonly key: string;
  /** Pending connections, oldest first (a Set keeps insertion order). */
  readonly pending: Set<DoorConnection>;
  readonly opened: TokenBucket;
  readonly messages: TokenBucket;
  readonly bytes: TokenBucket;
  /** Times of the wrong keys within the window. */
  wrongKeys: number[];
  /** Wrong keys in the last report window (for the panel). */
  recentWrongKeys: number[];
  backoffMs: number;
  waitUntil: number;
  /** Wrong keys since the last line logged for this address, and when that was. */
  unlogged: number;
  loggedAt: number;
  /** Other lines about its connections in the minute since `since`, and those held back. */
  lines: { count: number; since: number; held: number };
}

/** What the panel is told: an address refused for wrong keys, and how long it waits now. */
export interface WrongKeyReport {
  address: string;
  /** Wrong keys in the last `WRONG_KEY_REPORT_MS`. */
  attempts: number;
  /** Ms until it may try again; 0 when it is not waiting. */
  waitMs: number;
}

/** How far back the panel's count of wrong keys reaches. */
export const WRONG_KEY_REPORT_MS = 10 * 60_000;
/** At most one line a minute per address about wrong keys, and one a minute about connections shed. */
const LOG_EVERY_MS = 60_000;
/** Other lines about an address's connections not publishing, at most this many a minute; the rest are counted. */
const SETUP_LINES_PER_MINUTE = 10;

/** A pending connection's allowance of messages and bytes, its own and its address's. */
export interface SetupAllowance {
  /** False once the connection or its address has sent more than it may. */
  spend(bytes: number, messages: number, now: number): boolean;
}

export class RtmpDoor {
  private readonly addresses = new Map<string, Address>();
  private shed = 0;
  private shedLoggedAt = -Infinity;

  constructor(
    private readonly limits: RtmpLimits,
    private readonly logger: Logger,
  ) {}

  /** Pending connections, all addresses together. */
  get pendingCount(): number {
    let count = 0;
    for (const address of this.addresses.values()) count += address.pending.size;
    return count;
  }

  /**
   * A new connection from `remote`: null when its address opens connections faster than it may (the
   * socket is closed at once); otherwise its address, after room was made for it among the pending ones.
   */
  arrive(remote: string, now: number): string | null {
    const address = this.address(addressKey(remote), now);
    if (!address.opened.take(1, now)) {
      this.noteShed(now, `${address.key} opens connections faster than ${this.limits.connectionsPerAddressPerSecond} a second`);
      return null;
    }
    // The address's own oldest first, then whoever holds the most.
    if (address.pending.size >= this.limits.maxPendingPerAddress) this.evictOldest(address, now);
    if (this.pendingCount >= this.limits.maxPendingConnections) {
      let most: Address | null = null;
      for (const candidate of this.addresses.values()) if (!most || candidate.pending.size > most.pending.size) most = candidate;
      if (most) this.evictOldest(most, now);
    }
    return address.key;
  }

  /** The connection waits for its publish (from its arrival, and again after an unpublish). */
  pend(key: string, connection: DoorConnection, now: number): SetupAllowance {
    this.address(key, now).pending.add(connection);
    const messages = new TokenBucket(this.limits.setupMessagesPerSecond, this.limits.setupMessagesPerSecond * 2, now);
    const bytes = new TokenBucket(this.limits.setupBytesPerSecond, this.limits.setupBytesPerSecond * 2, now);
    return {
      spend: (n, m, at) => {
        const address = this.addresses.get(key);
        if (!address) return true;
        return bytes.take(n, at) && messages.take(m, at) && address.bytes.take(n, at) && address.messages.take(m, at);
      },
    };
  }

  /** The connection publishes now, or has closed: it no longer counts as pending. */
  leave(key: string, connection: DoorConnection): void {
    this.addresses.get(key)?.pending.delete(connection);
  }

  /** Ms the address must still wait before a publish is looked at (after a burst of wrong keys); 0 when none. */
  waitMs(key: string, now: number): number {
    const address = this.addresses.get(key);
    return address ? Math.max(0, address.waitUntil - now) : 0;
  }

  /** A publish from the address had a wrong key: counted, logged once per burst, and a burst makes it wait. */
  wrongKey(key: string, now: number): void {
    const address = this.address(key, now);
    const { wrongKeyWindowMs, wrongKeysBeforeBackoff, firstBackoffMs, maxBackoffMs } = this.limits;
    address.wrongKeys = address.wrongKeys.filter((at) => now - at < wrongKeyWindowMs);
    address.wrongKeys.push(now);
    address.recentWrongKeys = address.recentWrongKeys.filter((at) => now - at < WRONG_KEY_REPORT_MS);
    address.recentWrongKeys.push(now);
    let started = "";
    if (address.wrongKeys.length >= wrongKeysBeforeBackoff) {
      // A burst: the address waits, twice as long as the last time (forgotten after a quiet window).
      address.backoffMs = address.waitUntil + wrongKeyWindowMs > now && address.backoffMs ? Math.min(maxBackoffMs, address.backoffMs * 2) : firstBackoffMs;
      // The window's wrong keys are kept: one more after the wait starts the next, longer one at once.
      address.waitUntil = now + address.backoffMs;
      started = `; it waits ${Math.round(address.backoffMs / 1000)} s before its next try is looked at`;
    }
    if (address.unlogged === 0 && now - address.loggedAt >= LOG_EVERY_MS) {
      this.logger.warn(`rtmp ${key}: publish refused: wrong stream key${started}`);
      address.loggedAt = now;
    } else {
      address.unlogged++;
      if (started) this.flush(address, now, started);
    }
  }

  /** A line about one of the address's connections not publishing: logged, unless it has had its few this minute. */
  log(key: string, level: "info" | "warn", line: string, now: number): void {
    const { lines } = this.address(key, now);
    if (now - lines.since >= LOG_EVERY_MS) this.flushLines(key, now);
    if (lines.count++ < SETUP_LINES_PER_MINUTE) this.logger[level](line);
    else lines.held++;
  }

  /** What the panel shows: addresses with wrong keys in the last ten minutes, the most first. */
  wrongKeyReport(now: number): WrongKeyReport[] {
    const report: WrongKeyReport[] = [];
    for (const address of this.addresses.values()) {
      const attempts = address.recentWrongKeys.filter((at) => now - at < WRONG_KEY_REPORT_MS).length;
      if (attempts > 0) report.push({ address: address.key, attempts, waitMs: Math.max(0, address.waitUntil - now) });
    }
    return report.sort((a, b) => b.attempts - a.attempts);
  }

  /** Logs what was held back for a minute, and forgets addresses with nothing left to remember. */
  sweep(now: number): void {
    for (const address of this.addresses.values()) {
      if (address.unlogged > 0 && now - address.loggedAt >= LOG_EVERY_MS) this.flush(address, now, "");
      if (now - address.lines.since >= LOG_EVERY_MS) this.flushLines(address.key, now);
      const quiet =
        address.pending.size === 0 &&
        address.unlogged === 0 &&
        address.lines.count === 0 &&
        now >= address.waitUntil + this.limits.wrongKeyWindowMs &&
        address.recentWrongKeys.every((at) => now - at >= WRONG_KEY_REPORT_MS) &&
        address.opened.full(now) &&
        address.messages.full(now) &&
        address.bytes.full(now);
      if (quiet) this.addresses.delete(address.key);
    }
    if (this.shed > 0 && now - this.shedLoggedAt >= LOG_EVERY_MS) this.logShed(now, "");
  }

  private flush(address: Address, now: number, started: string): void {
    const since = Number.isFinite(address.loggedAt) ? ` in the last ${Math.max(1, Math.round((now - address.loggedAt) / 1000))} s` : "";
    this.logger.warn(`rtmp ${address.key}: ${address.unlogged} more publish(es) refused for a wrong stream key${since}${started}`);
    address.unlogged = 0;
    address.loggedAt = now;
  }

  /** Says how many lines were held back in the minute gone, and starts the next minute. */
  private flushLines(key: string, now: number): void {
    const address = this.addresses.get(key);
    if (!address) return;
    if (address.lines.held) this.logger.warn(`rtmp ${key}: ${address.lines.held} more line(s) about connections not publishing were not logged`);
    address.lines = { count: 0, since: now, held: 0 };
  }

  private evictOldest(address: Address, now: number): void {
    const oldest = address.pending.values().next().value;
    if (!oldest) return;
    address.pending.delete(oldest);
    this.noteShed(now, "the allowance for connections not publishing was full");
    oldest.close("dropped for a newer connection: too many connections not publishing");
  }

  private noteShed(now: number, why: string): void {
    this.shed++;
    if (now - this.shedLoggedAt >= LOG_EVERY_MS) this.logShed(now, why);
  }

  private logShed(now: number, why: string): void {
    this.logger.warn(`rtmp: shed ${this.shed} connection(s) not publishing${why ? ` (${why})` : ""} in the last minute at most`);
    this.shed = 0;
    this.shedLoggedAt = now;
  }

  private address(key: string, now: number): Address {
    let address = this.addresses.get(key);
    if (!address) {
      const l = this.limits;
      address = {
        key,
        pending: new Set(),
        opened: new TokenBucket(l.connectionsPerAddressPerSecond, l.connectionsPerAddressPerSecond * 2, now),
        messages: new TokenBucket(l.addressMessagesPerSecond, l.addressMessagesPerSecond * 2, now),
        bytes: new TokenBucket(l.addressBytesPerSecond, l.addressBytesPerSecond * 2, now),
        wrongKeys: [],
        recentWrongKeys: [],
        backoffMs: 0,
        waitUntil: 0,
        unlogged: 0,
        loggedAt: -Infinity,
        lines: { count: 0, since: now, held: 0 },
      };
      this.addresses.set(key, address);
    }
    return address;
  }
}
