/**
 * Fixed-window counters in memory, keyed by whatever the caller chooses (IP, IP+username, e-mail).
 * One process serves the whole event, so memory is the right place; the map is swept as windows expire.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit. Returns 0 when allowed, or the seconds until the key may try again. */
  hit(key: string): number {
    const now = this.now();
    this.sweep(now);
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      return 0;
    }
    entry.count++;
    return entry.count > this.limit ? (entry.resetAt - now) / 1000 : 0;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * Failed attempts lock a key out for a delay that doubles with each failure past `freeFailures`
 * (1 s, 2 s, 4 s … capped), and are forgotten after a success or `forgetMs` of quiet.
 */
export class FailureBackoff {
  private readonly failures = new Map<string, { count: number; lockedUntil: number; lastAt: number }>();

  constructor(
    private readonly freeFailures = 5,
    private readonly maxDelayMs = 15 * 60_000,
    private readonly forgetMs = 60 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds the key must still wait, or 0. */
  retryAfter(key: string): number {
    const entry = this.failures.get(key);
    if (!entry) return 0;
    const now = this.now();
    if (now - entry.lastAt > this.forgetMs) {
      this.failures.delete(key);
      return 0;
    }
    return entry.lockedUntil > now ? (entry.lockedUntil - now) / 1000 : 0;
  }

  fail(key: string): void {
    const now = this.now();
    const entry = this.failures.get(key) ?? { count: 0, lockedUntil: 0, lastAt: now };
    entry.count++;
    entry.lastAt = now;
    const over = entry.count - this.freeFailures;
    if (over >= 0) entry.lockedUntil = now + Math.min(this.maxDelayMs, 1000 * 2 ** over);
    this.failures.set(key, entry);
    if (this.failures.size > 100_000) this.prune(now);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.failures) if (now - entry.lastAt > this.forgetMs) this.failures.delete(key);
  }
}
