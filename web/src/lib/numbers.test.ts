import { describe, expect, test } from "bun:test";
import { formatCount } from "./numbers";

describe("formatCount", () => {
  test("groups thousands with commas, as the site writes counts", () => {
    expect(formatCount(2500)).toBe("2,500");
    expect(formatCount(0)).toBe("0");
    expect(formatCount(1_234_567)).toBe("1,234,567");
  });
});
