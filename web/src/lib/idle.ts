/** How long a first load waits for the browser to be idle before it fetches code for later anyway. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * The performance mark set when the page first turns to code for later: what loaded before it is the first
 * load (the page-weight budgets count that), what loads after it is fetched ahead of the first tap.
 */
export const IDLE_MARK = "dreadcast:idle";

function markIdle(): void {
  if (performance.getEntriesByName(IDLE_MARK).length === 0) performance.mark(IDLE_MARK);
}

/**
 * Runs `work` once the page is idle after its first paint (or after a short timeout where the browser has no
 * idle callback): how code that is not needed for the first paint but soon after is fetched. Returns a cancel.
 */
export function whenIdle(work: () => void): () => void {
  const run = () => {
    markIdle();
    work();
  };
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, IDLE_TIMEOUT_MS / 4);
  return () => window.clearTimeout(id);
}
