import { describe, expect, test } from "bun:test";
import { rejoinPosition } from "./live-hls";

/** Buffered ranges as a video element reports them. */
const ranges = (...spans: [number, number][]) => ({ length: spans.length, start: (i: number) => spans[i]?.[0] ?? NaN, end: (i: number) => spans[i]?.[1] ?? NaN });

/** A player on a stream with 1 s segments and a PART-HOLD-BACK of 1.002 s, its buffer 100–110 s, the live edge at 110 s. */
const player = (currentTime: number, overrides: Partial<Parameters<typeof rejoinPosition>[0]> = {}) => ({
  latency: 110 - currentTime,
  targetLatency: 1.002,
  targetDuration: 1,
  liveSyncPosition: 108.998,
  currentTime,
  buffered: ranges([100, 110]),
  ...overrides,
});

describe("rejoinPosition", () => {
  test("a player near its target is left to hls.js, which catches up by playing faster", () => {
    expect(rejoinPosition(player(109))).toBeNull();
    expect(rejoinPosition(player(107.5))).toBeNull();
  });

  test("a player further behind than hls.js catches up jumps to the live position in its buffer", () => {
    // hls.js's reach ends 3.004 s behind: one target latency and one target duration past its target.
    expect(rejoinPosition(player(107))).toBeNull();
    expect(rejoinPosition(player(106.99))).toBe(108.998);
    expect(rejoinPosition(player(104.5))).toBe(108.998);
  });

  test("after stalls raised the target, the reach of hls.js's own catching up grows with it", () => {
    expect(rejoinPosition(player(106, { targetLatency: 2.002, liveSyncPosition: 107.998 }))).toBeNull();
    expect(rejoinPosition(player(104, { targetLatency: 2.002, liveSyncPosition: 107.998 }))).toBe(107.998);
  });

  test("no jump to a position not yet buffered, or out of the range being played", () => {
    expect(rejoinPosition(player(104.5, { buffered: ranges([100, 108]) }))).toBeNull();
    expect(rejoinPosition(player(104.5, { buffered: ranges([100, 105], [106, 110]) }))).toBeNull();
    expect(rejoinPosition(player(104.5, { buffered: ranges() }))).toBeNull();
  });

  test("nothing to go by, nothing done: no playlist yet, no live position, or a position behind the player", () => {
    expect(rejoinPosition(player(104.5, { targetLatency: null }))).toBeNull();
    expect(rejoinPosition(player(104.5, { targetDuration: undefined }))).toBeNull();
    expect(rejoinPosition(player(104.5, { liveSyncPosition: null }))).toBeNull();
    expect(rejoinPosition(player(104.5, { liveSyncPosition: 104 }))).toBeNull();
  });
});
