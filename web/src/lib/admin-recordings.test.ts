import { describe, expect, test } from "bun:test";
import { formatBytes, formatClock } from "./admin-recordings";

describe("recordings' sizes and lengths in plain words", () => {
  test("sizes in powers of 1000, one decimal below 100", () => {
    expect(formatBytes(0)).toBe("0 bytes");
    expect(formatBytes(999)).toBe("999 bytes");
    expect(formatBytes(1000)).toBe("1 KB");
    expect(formatBytes(12_400_000)).toBe("12.4 MB");
    expect(formatBytes(512_300_000)).toBe("512 MB");
    expect(formatBytes(48_200_000_000)).toBe("48.2 GB");
    expect(formatBytes(3e15)).toBe("3000 TB");
  });

  test("lengths as a clock reads them", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(7.4)).toBe("0:07");
    expect(formatClock(725)).toBe("12:05");
    expect(formatClock(3725)).toBe("1:02:05");
  });
});
