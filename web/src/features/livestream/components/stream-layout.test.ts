import { describe, expect, test } from "bun:test";
import { donationTier, nameColour } from "./stream-layout";

describe("donationTier", () => {
  test("a tier from £10, the accent tier from £20 and the top tier from £50", () => {
    expect([1, 5, 9.99, 10, 19.99, 20, 49.99, 50, 100, 1000].map(donationTier)).toEqual([0, 0, 0, 10, 10, 20, 20, 50, 50, 50]);
  });
});

describe("nameColour", () => {
  test("is the same for a name whatever its case, and differs between names", () => {
    expect(nameColour("Nightjar")).toBe(nameColour("NIGHTJAR"));
    const colours = new Set(["Nightjar", "HollowMoth", "Wraith", "Candlelight", "GraveDigger", "Warden"].map(nameColour));
    expect(colours.size).toBeGreaterThan(2);
  });
});
