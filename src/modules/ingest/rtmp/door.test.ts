import { describe, expect, test } from "bun:test";
import { recordingLogger } from "../../../../tests/support/logger.ts";
import { addressKey, RtmpDoor, TokenBucket } from "./door.ts";
import { DEFAULT_RTMP_LIMITS, type RtmpLimits } from "./limits.ts";

function door(limits: Partial<RtmpLimits> = {}) {
  const lines: string[] = [];
  return { door: new RtmpDoor({ ...DEFAULT_RTMP_LIMITS, ...limits }, recordingLogger(lines)), lines };
}

/** A pending connection that notes when it is told to go. */
function connection(name: string, closed: string[]) {
  return { close: () => closed.push(name) };
}

describe("the RTMP door", () => {
  test("addresses: IPv4 as it is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  test("a token bucket gives its burst, then its rate", () => {
    const bucket = new TokenBucket(10, 20, 0);
    let taken = 0;
    while (bucket.take(1, 0)) taken++;
    expect(taken).toBe(20);
    expect(bucket.take(1, 50)).toBe(false); // half a token back
    expect(bucket.take(1, 100)).toBe(true);
    expect(bucket.full(100)).toBe(false);
    expect(bucket.full(10_000)).toBe(true);
  });

  test("a full allowance lets the newcomer in and drops the oldest pending connection of the address holding the most", () => {
    const { door: d } = door({ maxPendingConnections: 6, maxPendingPerAddress: 4, connectionsPerAddressPerSecond: 1000 });
    const closed: string[] = [];
    for (let i = 0; i < 4; i++) d.pend(d.arrive("198.51.100.1", i)!, connection(`a${i}`, closed), i);
    // The fifth from the same address: its own oldest goes.
    d.pend(d.arrive("198.51.100.1", 5)!, connection("a4", closed), 5);
    expect(closed).toEqual(["a0"]);
    d.pend(d.arrive("198.51.100.2", 6)!, connection("b0", closed), 6);
    d.pend(d.arrive("198.51.100.3", 7)!, connection("c0", closed), 7);
    expect(d.pendingCount).toBe(6);
    // Full: the broadcaster's address (one connection) is let in, and the flooding address pays.
    d.pend(d.arrive("192.0.2.50", 8)!, connection("obs", closed), 8);
    expect(closed).toEqual(["a0", "a1"]);
    expect(d.pendingCount).toBe(6);
  });

  test("an address opening connections faster than its rate is refused at once; another address is not", () => {
    const { door: d } = door({ connectionsPerAddressPerSecond: 5 });
    const results = Array.from({ length: 12 }, () => d.arrive("198.51.100.9", 1000));
    expect(results.filter((r) => r !== null)).toHaveLength(10); // the burst: twice the rate
    expect(d.arrive("192.0.2.50", 1000)).toBe("192.0.2.50");
    expect(d.arrive("198.51.100.9", 1200)).toBe("198.51.100.9"); // one back after 200 ms
  });

  test("wrong keys: five, then a wait; each one after it doubles the wait; one line a burst; the panel's report", () => {
    const { door: d, lines } = door();
    const key = d.arrive("198.51.100.4", 0)!;
    for (let i = 0; i < 4; i++) d.wrongKey(key, i * 100);
    expect(d.waitMs(key, 400)).toBe(0);
    d.wrongKey(key, 400);
    expect(d.waitMs(key, 400)).toBe(10_000);
    d.wrongKey(key, 10_500); // right after the wait
    expect(d.waitMs(key, 10_500)).toBe(20_000);
    d.wrongKey(key, 31_000);
    expect(d.waitMs(key, 31_000)).toBe(40_000);
    // One line for the first, then one as each wait starts (the waits double: a few lines an hour at most).
    d.sweep(61_000);
    expect(lines.filter((line) => line.includes("wrong stream key"))).toEqual([
      expect.stringContaining("198.51.100.4: publish refused: wrong stream key"),
      expect.stringMatching(/198\.51\.100\.4: 4 more publish\(es\) refused for a wrong stream key in the last 1 s; it waits 10 s/),
      expect.stringMatching(/: 1 more publish\(es\) refused for a wrong stream key in the last 10 s; it waits 20 s/),
      expect.stringMatching(/: 1 more publish\(es\) refused for a wrong stream key in the last 21 s; it waits 40 s/),
    ]);
    expect(d.wrongKeyReport(61_000)).toEqual([{ address: "198.51.100.4", attempts: 7, waitMs: 10_000 }]);
    // Long quiet: forgotten, and the next burst starts at the first wait again.
    d.sweep(20 * 60_000);
    expect(d.wrongKeyReport(20 * 60_000)).toEqual([]);
    for (let i = 0; i < 5; i++) d.wrongKey(key, 20 * 60_000 + i);
    expect(d.waitMs(key, 20 * 60_000 + 4)).toBe(10_000);
  });

  test("lines about an address's connections not publishing: ten a minute, then a count of those held back", () => {
    const { door: d, lines } = door();
    for (let i = 0; i < 25; i++) d.log("198.51.100.6", "warn", `line ${i}`, i);
    expect(lines).toHaveLength(10);
    d.sweep(60_000);
    expect(lines.at(-1)).toContain("198.51.100.6: 15 more line(s) about connections not publishing were not logged");
    d.log("198.51.100.6", "info", "a new minute", 60_001);
    expect(lines.at(-1)).toContain("a new minute");
  });

  test("a connection's allowance before publish: its own and its address's", () => {
    const { door: d } = door({ setupMessagesPerSecond: 10, addressMessagesPerSecond: 15 });
    const key = d.arrive("198.51.100.5", 0)!;
    const first = d.pend(key, { close: () => {} }, 0);
    const second = d.pend(key, { close: () => {} }, 0);
    let one = 0;
    while (first.spend(0, 1, 0)) one++;
    expect(one).toBe(20); // its own burst
    let two = 0;
    while (second.spend(0, 1, 0)) two++;
    expect(two).toBe(10); // what the address has left of its 30
  });
});
