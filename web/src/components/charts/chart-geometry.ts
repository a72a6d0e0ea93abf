/** Pure helpers of the dashboard chart: rounded axis ticks, time ticks and SVG paths. */

export interface Point {
  x: number;
  y: number;
}

/** The smallest 1/2/5 × 10ⁿ step at or above `raw` (and at least `minStep`). */
export function niceStep(raw: number, minStep = 1): number {
  if (!(raw > 0)) return minStep;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw - 1e-12) ?? 10 * magnitude;
  return Math.max(minStep, step);
}

/**
 * `divisions + 1` evenly spaced ticks from 0 whose top is at or above `max`, on a nice step. Two axes
 * given the same `divisions` share their grid lines. `minStep` keeps counts whole (1) or money to the penny.
 */
export function axisTicks(max: number, divisions = 4, minStep = 1): number[] {
  const step = niceStep(max / divisions, minStep);
  return Array.from({ length: divisions + 1 }, (_, i) => Number((i * step).toFixed(6)));
}

const MINUTE = 60_000;
const TIME_STEPS_MIN = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440];

/** Round times between start and end (ms), at most `maxTicks`, on a 1 min … 1 day step. */
export function timeTicks(start: number, end: number, maxTicks: number): number[] {
  if (!(end > start) || maxTicks < 1) return [start];
  const spanMin = (end - start) / MINUTE;
  const stepMin = TIME_STEPS_MIN.find((s) => spanMin / s <= maxTicks) ?? Math.ceil(spanMin / maxTicks / 1440) * 1440;
  const step = stepMin * MINUTE;
  const ticks: number[] = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) ticks.push(t);
  return ticks;
}

/** A straight polyline through the points. */
export function linePath(points: Point[]): string {
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${round(p.x)},${round(p.y)}`).join("");
}

/** A staircase through the points: a running total holds its value until the next sample. */
export function stepPath(points: Point[]): string {
  return points
    .map((p, i) => {
      if (i === 0) return `M${round(p.x)},${round(p.y)}`;
      return `H${round(p.x)}V${round(p.y)}`;
    })
    .join("");
}

/** The polyline closed down to the baseline, for the filled area under it. */
export function areaPath(points: Point[], baseline: number): string {
  if (points.length === 0) return "";
  const first = points[0]!;
  const last = points[points.length - 1]!;
  return `${linePath(points)}L${round(last.x)},${round(baseline)}L${round(first.x)},${round(baseline)}Z`;
}

/** The index of the x closest to `x` (xs ascending). */
export function nearestIndex(xs: number[], x: number): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (Math.abs(xs[i]! - x) < Math.abs(xs[best]! - x)) best = i;
  return best;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
