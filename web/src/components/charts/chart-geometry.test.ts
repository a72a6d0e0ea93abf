import { describe, expect, test } from "bun:test";
import { areaPath, axisTicks, linePath, nearestIndex, niceStep, stepPath, timeTicks } from "./chart-geometry";

describe("axisTicks", () => {
  test("rounds the step up to 1, 2 or 5 × 10ⁿ so the top covers the maximum", () => {
    expect(axisTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(axisTicks(1234)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(axisTicks(80)).toEqual([0, 20, 40, 60, 80]);
  });

  test("an empty series still gets a readable scale, in whole steps for counts", () => {
    expect(axisTicks(0)).toEqual([0, 1, 2, 3, 4]);
    expect(axisTicks(3)).toEqual([0, 1, 2, 3, 4]);
  });

  test("money can step in pennies", () => {
    expect(axisTicks(0.5, 4, 0.01)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(axisTicks(125, 4, 0.01)).toEqual([0, 50, 100, 150, 200]);
  });

  test("niceStep", () => {
    expect(niceStep(3)).toBe(5);
    expect(niceStep(20)).toBe(20);
    expect(niceStep(0)).toBe(1);
    expect(niceStep(0.003, 0.01)).toBe(0.01);
  });
});

describe("timeTicks", () => {
  const start = Date.UTC(2025, 9, 31, 20, 3);
  test("picks a round step that fits the number of labels", () => {
    const ticks = timeTicks(start, start + 60 * 60_000, 4);
    expect(ticks.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(["20:15", "20:30", "20:45", "21:00"]);
  });

  test("an empty span gives just the start", () => {
    expect(timeTicks(start, start, 4)).toEqual([start]);
  });

  test("days-long spans step by whole days", () => {
    const ticks = timeTicks(start, start + 10 * 86_400_000, 4);
    expect(ticks.length).toBeLessThanOrEqual(4);
    expect(ticks.every((t) => t % 86_400_000 === 0)).toBe(true);
  });
});

describe("paths", () => {
  const points = [
    { x: 0, y: 10 },
    { x: 5, y: 4 },
    { x: 10, y: 0 },
  ];
  test("a line, a staircase and a filled area", () => {
    expect(linePath(points)).toBe("M0,10L5,4L10,0");
    expect(stepPath(points)).toBe("M0,10H5V4H10V0");
    expect(areaPath(points, 20)).toBe("M0,10L5,4L10,0L10,20L0,20Z");
    expect(areaPath([], 20)).toBe("");
  });

  test("nearestIndex finds the closest sample", () => {
    expect(nearestIndex([0, 10, 20], 14)).toBe(1);
    expect(nearestIndex([0, 10, 20], 16)).toBe(2);
    expect(nearestIndex([0], 99)).toBe(0);
  });
});
