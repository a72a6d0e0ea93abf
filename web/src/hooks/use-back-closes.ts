import { useEffect, useRef } from "react";

const MARK = "dreadcastDialog";

/** The dialog mark on the current history entry, if an open dialog added it. */
function currentMark(): string | null {
  const state: unknown = window.history.state;
  if (typeof state !== "object" || state === null || !(MARK in state)) return null;
  return String((state as Record<string, unknown>)[MARK]);
}

/** Whether the current history entry is one an open dialog added: leaving from the dialog replaces it. */
export function onDialogEntry(): boolean {
  return currentMark() !== null;
}

/**
 * While `open`, the browser's Back closes the dialog (calls `close`) instead of leaving the page: opening
 * adds a history entry for the dialog, which Back takes off; closing it any other way takes it off too,
 * unless the page has moved on from it.
 */
export function useBackCloses(open: boolean, close: () => void): void {
  const closeRef = useRef(close);
  closeRef.current = close;
  const pushed = useRef<string | null>(null);
  const runs = useRef(0);

  useEffect(() => {
    if (!open) return;
    const run = ++runs.current;
    if (pushed.current === null || currentMark() !== pushed.current) {
      pushed.current = Math.random().toString(36).slice(2);
      const previous: unknown = window.history.state;
      window.history.pushState({ ...(typeof previous === "object" ? previous : {}), [MARK]: pushed.current }, "", window.location.href);
    }
    const id = pushed.current;
    const onPop = () => {
      pushed.current = null;
      closeRef.current();
    };
    window.addEventListener("popstate", onPop);
    return () => {
      window.removeEventListener("popstate", onPop);
      // A turn later: an effect run again at once (development's double run, or opened again) keeps the entry.
      setTimeout(() => {
        if (runs.current !== run || pushed.current !== id) return;
        pushed.current = null;
        if (currentMark() === id) window.history.back();
      }, 0);
    };
  }, [open]);
}
