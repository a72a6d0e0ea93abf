import { describe, expect, test } from "bun:test";
import { frameRate } from "./figures.ts";

describe("the publisher's frame rate", () => {
  test("a whole rate measured over a short stretch, a millisecond out, is still the whole rate", () => {
    // 45 frames of a 30 fps stream whose span reads 1,468 or 1,466 ms instead of 1,466.7.
    expect(frameRate((44 * 1000) / 1468, 1468)).toBe(30);
    expect(frameRate((44 * 1000) / 1466, 1466)).toBe(30);
  });

  test("29.97 is told from 30 once the stretch is long enough", () => {
    // 300 frames at 30000/1001 fps: 10,000.0 ms for 299 intervals.
    const spanMs = Math.round((299 * 1001) / 30);
    expect(frameRate((299 * 1000) / spanMs, spanMs)).toBe(29.97);
    const whole = Math.round((299 * 1000) / 30) + 1;
    expect(frameRate((299 * 1000) / whole, whole)).toBe(30);
  });

  test("the other common rates, and an uncommon one to two decimals", () => {
    expect(frameRate(59.98, 2000)).toBe(60);
    expect(frameRate(59.94, 60_000)).toBe(59.94);
    expect(frameRate(25.01, 4000)).toBe(25);
    expect(frameRate(23.976, 60_000)).toBe(23.976);
    expect(frameRate(15.02, 4000)).toBe(15.02);
  });
});
