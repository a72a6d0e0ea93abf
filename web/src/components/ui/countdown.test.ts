import { describe, expect, test } from "bun:test";
import { timeLeft, twoDigits } from "./countdown";

describe("countdown", () => {
  const start = Date.UTC(2030, 9, 31, 20, 0, 0);

  test("splits the time left into days, hours, minutes and seconds", () => {
    const now = start - (2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5_000 + 999);
    expect(timeLeft(start, now)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
  });

  test("is all zeros at and after the start", () => {
    const zero = { days: 0, hours: 0, minutes: 0, seconds: 0 };
    expect(timeLeft(start, start)).toEqual(zero);
    expect(timeLeft(start, start + 86_400_000)).toEqual(zero);
  });

  test("each box shows at least two digits", () => {
    expect(twoDigits(0)).toBe("00");
    expect(twoDigits(7)).toBe("07");
    expect(twoDigits(42)).toBe("42");
    expect(twoDigits(120)).toBe("120");
  });
});
