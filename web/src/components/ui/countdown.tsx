import { useEffect, useState } from "react";
import "./countdown.css";

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

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

const UNITS = [
  ["days", "Days"],
  ["hours", "Hours"],
  ["minutes", "Minutes"],
  ["seconds", "Seconds"],
] as const;

/** Four boxes (Days, Hours, Minutes, Seconds) counting down to `target`, refreshed every second. `null`: not known yet. */
export function Countdown({ target, heading = "EVENT BEGINS IN" }: { target: number | null; heading?: string }) {
  const now = useNow(SECOND);
  const left = target === null ? null : timeLeft(target, now);
  const summary = left ? `${left.days} days, ${left.hours} hours, ${left.minutes} minutes and ${left.seconds} seconds` : "Loading the start time";
  return (
    <section className="countdown" aria-label={heading}>
      <h2 className="countdown-heading">{heading}</h2>
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
