/**
 * Requests held until the window holds what they ask for (LL-HLS blocking playlist reload, preload-hinted
 * parts): each waiter is checked when a part or segment completes, never by polling, and gives up after its
 * bound or when its request is aborted.
 */

interface Waiter {
  ready: () => boolean;
  settle: (ready: boolean) => void;
}

export class Waiters {
  private readonly waiting = new Set<Waiter>();

  get size(): number {
    return this.waiting.size;
  }

  /** Resolves true as soon as `ready()` holds (at once if it already does), false after `timeoutMs` or on abort. */
  wait(ready: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    if (signal?.aborted || timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => waiter.settle(false);
      const timer = setTimeout(() => waiter.settle(false), timeoutMs);
      const waiter: Waiter = {
        ready,
        settle: (value) => {
          if (!this.waiting.delete(waiter)) return;
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        },
      };
      this.waiting.add(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Called when the window changed: answers every waiter whose request it now satisfies. */
  notify(): void {
    for (const waiter of [...this.waiting]) if (waiter.ready()) waiter.settle(true);
  }

  /** Answers every waiter "not satisfied" (the stream was dropped). */
  cancelAll(): void {
    for (const waiter of [...this.waiting]) waiter.settle(false);
  }
}
