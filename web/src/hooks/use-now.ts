import { useEffect, useState } from "react";

/** The time now, refreshed every `intervalMs`. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

/** A timer can wait at most this long (about 24.8 days); a later target is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Whether `target` (epoch ms) has come; re-renders once at that moment. `null`: not known, so not yet. */
export function useReached(target: number | null): boolean {
  const [reached, setReached] = useState(() => target !== null && Date.now() >= target);
  useEffect(() => {
    if (target === null) return setReached(false);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const left = target - Date.now();
      setReached(left <= 0);
      if (left > 0) timer = setTimeout(check, Math.min(left, LONGEST_TIMER_MS));
    };
    check();
    return () => clearTimeout(timer);
  }, [target]);
  return target !== null && (reached || Date.now() >= target);
}
