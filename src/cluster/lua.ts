import { CENSUS_TTL_MS } from "./redis-timing.ts";

/**
 * The scripts the Redis cluster runs with EVAL: each reads and writes its keys in one step, so no other
 * instance's command lands between its read and its write.
 */

/** Counts a hit in a fixed window: answers the count and the window's time left (ms). */
export const HIT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/** Renews the caller's lease, or takes it when nobody holds it: 1 when the caller holds it now. */
export const LEASE_SCRIPT = `local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if owner then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** Gives the lease up if the caller holds it. */
export const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Records a failure (see FailureBackoff): the count, and the lock from the free failures on; forgotten after a quiet spell. */
export const FAIL_SCRIPT = `local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
local over = n - tonumber(ARGV[1])
if over >= 0 then
  local delay = tonumber(ARGV[3])
  if over < 40 then delay = math.min(delay, 1000 * 2 ^ over) end
  redis.call('HSET', KEYS[1], 'u', string.format('%d', tonumber(ARGV[2]) + delay))
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return n`;

/** Adds ARGV[1] (1 or -1) to the census fields ARGV[3…] and renews it; answers 0, changing nothing, if a census that should exist (ARGV[2] '1') has gone. */
export const HOLD_SCRIPT = `if ARGV[2] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 3, #ARGV do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[1]) <= 0 then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
redis.call('PEXPIRE', KEYS[1], ${CENSUS_TTL_MS})
return 1`;

/** Writes an instance's whole census anew (field, count, field, count …). */
export const CENSUS_SCRIPT = `redis.call('DEL', KEYS[1])
for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if #ARGV > 0 then redis.call('PEXPIRE', KEYS[1], ${CENSUS_TTL_MS}) end
return 1`;

/** The sockets held in the given instances' censuses for one person (ARGV[1]) and one address (ARGV[2]). */
export const HELD_SCRIPT = `local p, a = 0, 0
for i = 1, #KEYS do
  local v = redis.call('HMGET', KEYS[i], ARGV[1], ARGV[2])
  p = p + (tonumber(v[1]) or 0)
  a = a + (tonumber(v[2]) or 0)
end
return {p, a}`;
