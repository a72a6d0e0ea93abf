/**
 * The HTTP server's own timeout, and the bounds every request that waits for something keeps under it: a
 * request still waiting when the server's idle timeout strikes gets an empty reply instead of its answer
 * (a 503 or the media), which players take for a broken server.
 */

/** Seconds a connection may stay silent — no request, or a request whose answer has not begun — before the server closes it. */
export const HTTP_IDLE_TIMEOUT_S = 10;

/** The longest a request may wait for something before it is answered anyway (a fetch upstream, a blocking reload): well under the idle timeout. */
export const LONGEST_WAIT_MS = 8_000;

/** The longest an LL-HLS blocking reload or preload-hinted part is held (the spec's 3 × target duration, at most this). */
export const BLOCKING_WAIT_MS = 6_000;
