import { describe, expect, test } from "bun:test";
import { spanOf } from "./server-status";

describe("spans of time on the Server card", () => {
  test("minutes, hours and days, and under a minute as words or seconds", () => {
    expect(spanOf(20_000)).toBe("less than a minute");
    expect(spanOf(2_000, true)).toBe("2 s");
    expect(spanOf(400, true)).toBe("1 s");
    expect(spanOf(90_000)).toBe("2 min");
    expect(spanOf(3_600_000)).toBe("1 h");
    expect(spanOf((3 * 60 + 5) * 60_000)).toBe("3 h 5 min");
    expect(spanOf(50 * 3_600_000)).toBe("2 d 2 h");
    expect(spanOf(72 * 3_600_000)).toBe("3 d");
    expect(spanOf(-5_000)).toBe("less than a minute");
  });
});
