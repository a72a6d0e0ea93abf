/** How long the Redis cluster waits for Redis, and how often it checks on it. */

/** The health ping: a Redis that does not answer within PING_TIMEOUT_MS twice in a row is given up and reconnected. */
export const PING_EVERY_MS = 2000;
export const PING_TIMEOUT_MS = 1000;
/** How long local writes are gathered before the others are told to empty their caches. */
export const WROTE_COALESCE_MS = 5;
/** A rate limit asked of Redis waits this long at most, then the instance's own count decides. */
export const LIMIT_TIMEOUT_MS = 250;
/** An instance's socket census lives this long unless renewed (it is, with every health ping). */
export const CENSUS_TTL_MS = 3 * PING_EVERY_MS;
/** Another instance heard from within this long is alive, and its sockets count. */
export const HEARD_WITHIN_MS = 3000;

/** The answer to a Redis command, or a rejection once it has taken longer than `ms`. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
