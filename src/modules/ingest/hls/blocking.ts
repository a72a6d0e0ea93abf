/**
 * Requests held until the window holds what they ask for (LL-HLS blocking playlist reload, preload-hinted
 * parts): each waiter is checked when a part or segment completes, never by polling, and gives up after its
 * bound. Every viewer holds one of these several times a second, so a waiter costs no timer and no abort
 * listener of its own: one sweep, running only while someone waits, answers those past their bound; a
 * viewer who left is answered (into a closed connection) with the next part or at its bound, a few seconds
 * at most.
 */

interface Waiter {
  ready: () => boolean;
  resolve: (ready: boolean) => void;
  /** `Date.now()` after which the waiter is answered false. */
  deadline: number;
}

/** How often waiters past their bound are looked for: a waiter is answered at most this late. */
export const SWEEP_MS = 100;

export class Waiters {
  private readonly waiting = new Set<Waiter>();
  private sweep: ReturnType<typeof setInterval> | null = null;

  get size(): number {
    return this.waiting.size;
  }

  /** Resolves true as soon as `ready()` holds (at once if it already does), false once `timeoutMs` has passed. */
  wait(ready: () => boolean, timeoutMs: number): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    const { promise, resolve } = Promise.withResolvers<boolean>();
    this.waiting.add({ ready, resolve, deadline: Date.now() + timeoutMs });
    if (!this.sweep) {
      this.sweep = setInterval(() => this.expire(), SWEEP_MS);
      this.sweep.unref();
    }
    return promise;
  }

  /** Called when the window changed: answers every waiter whose request it now satisfies. */
  notify(): void {
    // Resolving runs nothing at once (promise reactions wait for the microtask queue), so the set is
    // only changed here, by deleting the entry being visited, which iteration allows.
    for (const waiter of this.waiting) {
      if (!waiter.ready()) continue;
      this.waiting.delete(waiter);
      waiter.resolve(true);
    }
    this.stopIfIdle();
  }

  /** Answers every waiter "not satisfied" (the stream was dropped). */
  cancelAll(): void {
    for (const waiter of this.waiting) waiter.resolve(false);
    this.waiting.clear();
    this.stopIfIdle();
  }

  private expire(): void {
    const now = Date.now();
    for (const waiter of this.waiting) {
      if (now < waiter.deadline) continue;
      this.waiting.delete(waiter);
      waiter.resolve(false);
    }
    this.stopIfIdle();
  }

  private stopIfIdle(): void {
    if (this.waiting.size > 0 || !this.sweep) return;
    clearInterval(this.sweep);
    this.sweep = null;
  }
}
