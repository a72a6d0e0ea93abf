import { useId, useState, type PointerEvent } from "react";
import { formatMoney } from "@contracts/money";
import { useElementWidth } from "@/hooks/use-element-width";
import { formatCount } from "@/lib/numbers";
import { areaPath, axisTicks, linePath, nearestIndex, stepPath, timeTicks, type Point } from "./chart-geometry";

/** The x axis always spans at least this long, so the first minutes of an event are not stretched flat. */
const MIN_SPAN_MS = 10 * 60_000;
const DIVISIONS = 4;
const MARGIN = { top: 28, right: 58, bottom: 30, left: 46 };

const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit" });
const dayAndClock = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short" });
const compact = new Intl.NumberFormat("en-GB", { notation: "compact", maximumFractionDigits: 1 });

/** One moment of the chart: a count (area, left axis) and a running money total (staircase, right axis). */
export interface ChartPoint {
  /** epoch ms */
  at: number;
  count: number;
  /** minor units */
  money: number;
}

/** What the two series are called: the dashboard's viewers and donations, the ledger's sales and net revenue. */
export interface ChartLabels {
  title: string;
  /** The title in words, for the chart's text summary. */
  summary: string;
  count: string;
  /** "42 viewers", "42 payments" */
  countUnit: string;
  money: string;
  /** "£12.00 donated", "£12.00 net" */
  moneyUnit: string;
  /** The count is of things in the chart's currency only (payments), not of all of them (viewers). */
  countInCurrency?: boolean;
}

export const VIEWERS_AND_DONATIONS: ChartLabels = {
  title: "Viewers & donations",
  summary: "Viewers and donations",
  count: "Viewers",
  countUnit: "viewers",
  money: "Donations",
  moneyUnit: "donated",
};

/** A count (area, left axis) and money so far (staircase, right axis, in `currency`) over the event. */
export function StatsChart({ points, currency, labels = VIEWERS_AND_DONATIONS }: { points: ChartPoint[]; currency: string; labels?: ChartLabels }) {
  const [frameRef, width] = useElementWidth<HTMLDivElement>();
  const [hovered, setHovered] = useState<number | null>(null);
  const gradientId = useId();
  const summaryId = useId();
  const symbol = formatMoney(0, currency).replace(/[\d.,\s]/g, "");
  const code = currency.toUpperCase();
  const countUnit = labels.countInCurrency ? `${labels.countUnit} in ${code}` : labels.countUnit;

  const data = points.filter((s) => Number.isFinite(s.at)).sort((a, b) => a.at - b.at);
  const last = data[data.length - 1];
  const end = last?.at ?? Date.now();
  const start = Math.min(data[0]?.at ?? end, end - MIN_SPAN_MS);

  const height = width < 640 ? 230 : 300;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const baseline = MARGIN.top + innerHeight;

  const peakViewers = Math.max(0, ...data.map((d) => d.count));
  const topPounds = Math.max(0, ...data.map((d) => d.money)) / 100;
  const viewerTicks = axisTicks(peakViewers, DIVISIONS, 1);
  const poundTicks = axisTicks(topPounds, DIVISIONS, 1);
  const viewerTop = viewerTicks[DIVISIONS]!;
  const poundTop = poundTicks[DIVISIONS]!;

  const x = (t: number) => MARGIN.left + ((t - start) / (end - start)) * innerWidth;
  const yViewers = (v: number) => baseline - (v / viewerTop) * innerHeight;
  const yPounds = (p: number) => baseline - (p / poundTop) * innerHeight;

  const viewerPoints: Point[] = data.map((d) => ({ x: x(d.at), y: yViewers(d.count) }));
  const donationPoints: Point[] = data.map((d) => ({ x: x(d.at), y: yPounds(d.money / 100) }));
  const spansDays = end - start > 86_400_000;
  const ticks = timeTicks(start, end, width < 640 ? 3 : 6);
  const tickLabel = (t: number) => (end - start >= 3 * 86_400_000 ? day.format(t) : spansDays ? dayAndClock.format(t) : clock.format(t));

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (data.length === 0) return;
    const left = event.currentTarget.getBoundingClientRect().left;
    setHovered(
      nearestIndex(
        viewerPoints.map((p) => p.x),
        event.clientX - left,
      ),
    );
  };
  const active = hovered !== null ? data[hovered] : undefined;
  const activeX = active ? x(active.at) : 0;

  const summary = last
    ? `${labels.summary} from ${dayAndClock.format(data[0]!.at)} to ${dayAndClock.format(last.at)}: ${countUnit} peaked at ${peakViewers} and are ${last.count} now; ${labels.money.toLowerCase()} total ${formatMoney(last.money, currency)} (${code}).`
    : "No samples yet.";

  return (
    <figure className="stats-chart">
      <figcaption className="stats-chart-head">
        <span className="stats-chart-title">{labels.title}</span>
        <span className="stats-chart-legend" aria-hidden="true">
          <span className="legend-item legend-viewers">{labels.countInCurrency ? `${labels.count} in ${code}` : labels.count}</span>
          <span className="legend-item legend-donations">
            {labels.money} ({code})
          </span>
        </span>
      </figcaption>
      <p id={summaryId} className="sr-only">
        {summary}
      </p>
      <div ref={frameRef} className="stats-chart-frame" style={{ height }} onPointerMove={onPointerMove} onPointerLeave={() => setHovered(null)}>
        {width > 0 ? (
          <svg width={width} height={height} role="img" aria-labelledby={summaryId} className="stats-chart-svg">
            <defs>
              <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor="var(--blood-500)" stopOpacity="0.45" />
                <stop offset="100%" stopColor="var(--blood-500)" stopOpacity="0.02" />
              </linearGradient>
            </defs>
            <text x={0} y={12} className="axis-title axis-title-viewers" textAnchor="start">
              {labels.count}
            </text>
            <text x={width} y={12} className="axis-title axis-title-donations" textAnchor="end">
              {labels.money} {symbol}
            </text>
            {viewerTicks.map((tick, i) => {
              const y = yViewers(tick);
              return (
                <g key={tick}>
                  <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y} y2={y} className={i === 0 ? "chart-baseline" : "chart-grid"} />
                  <text x={MARGIN.left - 8} y={y} dy="0.32em" textAnchor="end" className="axis-label axis-label-viewers">
                    {compact.format(tick)}
                  </text>
                  <text x={width - MARGIN.right + 8} y={y} dy="0.32em" textAnchor="start" className="axis-label axis-label-donations">
                    {compact.format(poundTicks[i]!)}
                  </text>
                </g>
              );
            })}
            {ticks.map((t) => (
              <g key={t}>
                <line x1={x(t)} x2={x(t)} y1={baseline} y2={baseline + 5} className="chart-baseline" />
                <text x={x(t)} y={baseline + 20} textAnchor="middle" className="axis-label">
                  {tickLabel(t)}
                </text>
              </g>
            ))}
            {data.length > 0 ? (
              <>
                <path d={areaPath(viewerPoints, baseline)} fill={`url(#${gradientId})`} />
                <path d={linePath(viewerPoints)} className="series-viewers" />
                <path d={stepPath(donationPoints)} className="series-donations" />
                <circle cx={viewerPoints.at(-1)!.x} cy={viewerPoints.at(-1)!.y} r={4} className="dot-viewers" />
                <circle cx={donationPoints.at(-1)!.x} cy={donationPoints.at(-1)!.y} r={3.5} className="dot-donations" />
              </>
            ) : null}
            {active ? (
              <g>
                <line x1={activeX} x2={activeX} y1={MARGIN.top} y2={baseline} className="chart-crosshair" />
                <circle cx={activeX} cy={yViewers(active.count)} r={5} className="dot-viewers" />
                <circle cx={activeX} cy={yPounds(active.money / 100)} r={4.5} className="dot-donations" />
              </g>
            ) : null}
          </svg>
        ) : null}
        {active ? (
          <div className="stats-chart-tooltip" style={{ left: Math.min(Math.max(activeX, 80), width - 80), top: MARGIN.top }} aria-hidden="true">
            <span className="tooltip-time">{dayAndClock.format(active.at)}</span>
            <span className="tooltip-row legend-viewers">
              {formatCount(active.count)} {countUnit}
            </span>
            <span className="tooltip-row legend-donations">
              {formatMoney(active.money, currency)} {labels.moneyUnit}
            </span>
          </div>
        ) : null}
      </div>
      {data.length < 3 && labels === VIEWERS_AND_DONATIONS ? (
        <p className="stats-chart-note">The server records a sample every minute, so the chart fills in as the event runs.</p>
      ) : null}
    </figure>
  );
}
