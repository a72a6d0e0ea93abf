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
  let cancel = () => {};
  const stopWaiting = afterLargestPaint(() => {
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
      cancel = () => window.cancelIdleCallback(id);
    } else {
      const id = window.setTimeout(run, IDLE_TIMEOUT_MS / 4);
      cancel = () => window.clearTimeout(id);
    }
  });
  return () => {
    stopWaiting();
    cancel();
  };
}

/** How long the page waits for its largest paint before it goes on anyway (a browser that does not report it). */
const LARGEST_PAINT_TIMEOUT_MS = 1_500;
/**
 * Where the browser reports it, the wait is only a bound for a page that paints nothing it counts (one
 * opened in a background tab is not reported until shown): a slow phone's first paint can take longer than
 * the short wait, and the fonts would then take bandwidth from the banner after all.
 */
const REPORTED_PAINT_TIMEOUT_MS = 5_000;

/**
 * Runs `work` once the browser has shown the page's largest paint so far (the banner on the landing page), so
 * what is not needed for it (the display fonts, code for later) does not take bandwidth from its image and
 * script on a slow connection. Where the browser does not report it (Safari), after a short wait. Returns a
 * cancel.
 */
export function afterLargestPaint(work: () => void): () => void {
  let done = false;
  let observer: PerformanceObserver | null = null;
  const stop = () => {
    done = true;
    observer?.disconnect();
    window.clearTimeout(timer);
  };
  const run = () => {
    if (done) return;
    stop();
    work();
  };
  const reported = typeof PerformanceObserver !== "undefined" && PerformanceObserver.supportedEntryTypes?.includes("largest-contentful-paint");
  const timer = window.setTimeout(run, reported ? REPORTED_PAINT_TIMEOUT_MS : LARGEST_PAINT_TIMEOUT_MS);
  if (reported) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().length > 0) run();
    });
    observer.observe({ type: "largest-contentful-paint", buffered: true });
  }
  return stop;
}
