import { useNow } from "@/hooks/use-now";
import { formatEventDay, formatEventTime } from "@/lib/dates";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface TimeLeft {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Whole days, hours, minutes and seconds until `target`; all zero at or after it. */
export function timeLeft(target: number, now: number): TimeLeft {
  const ms = Math.max(0, target - now);
  return {
    days: Math.floor(ms / DAY),
    hours: Math.floor((ms % DAY) / HOUR),
    minutes: Math.floor((ms % HOUR) / MINUTE),
    seconds: Math.floor((ms % MINUTE) / SECOND),
  };
}

export function twoDigits(value: number): string {
  return String(value).padStart(2, "0");
}

const UNITS = [
  ["days", "Days"],
  ["hours", "Hours"],
  ["minutes", "Minutes"],
  ["seconds", "Seconds"],
] as const;

interface CountdownProps {
  /** epoch ms; `null`: not known yet. */
  target: number | null;
  heading?: string;
  /** Shows the start's day and time (in the viewer's zone) under the heading. */
  showDate?: boolean;
  /** Small boxes, for inside the player. */
  compact?: boolean;
}

/** Four boxes (Days, Hours, Minutes, Seconds) counting down to `target`, refreshed every second. */
export function Countdown({ target, heading = "EVENT BEGINS IN", showDate = false, compact = false }: CountdownProps) {
  const now = useNow(SECOND);
  const left = target === null ? null : timeLeft(target, now);
  const summary = left ? `${left.days} days, ${left.hours} hours, ${left.minutes} minutes and ${left.seconds} seconds` : "Loading the start time";
  return (
    <section className={compact ? "countdown countdown-compact" : "countdown"} aria-label={heading}>
      <h2 className="countdown-heading">{heading}</h2>
      {showDate && target !== null ? <EventDate iso={new Date(target).toISOString()} className="countdown-date" /> : null}
      <div className="countdown-boxes" role="timer" aria-label={summary}>
        {UNITS.map(([key, label]) => (
          <div key={key} className="countdown-box">
            <span className="countdown-value" aria-hidden="true">
              {left ? twoDigits(left[key]) : "--"}
            </span>
            <span className="countdown-label" aria-hidden="true">
              {label}
            </span>
          </div>
        ))}
      </div>
    </section>
  );
}

/** The event's day and time in the viewer's own time zone, the zone named: "Saturday 31 October 2026 · 21:00 GMT". */
export function EventDate({ iso, className }: { iso: string; className?: string }) {
  return (
    <p className={className}>
      <time dateTime={iso}>
        <span className="event-date-day">{formatEventDay(iso)}</span>{" "}
        <span className="event-date-sep" aria-hidden="true">
          ·
        </span>{" "}
        <span className="event-date-time">{formatEventTime(iso)}</span>
      </time>
    </p>
  );
}
