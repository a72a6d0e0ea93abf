/**
 * Where the event stands for a viewer, read from the night's phase the server derives (GET
 * /api/livestream-settings → `phase`, contracts/event-phase.ts) and the viewer's own clock for the start.
 * What each phase means for the pages is decided here, and only here.
 */
import type { PublicLivestreamSettings } from "@contracts/settings";

type EventTiming = Pick<PublicLivestreamSettings, "startDate" | "isActive"> & Partial<Pick<PublicLivestreamSettings, "phase" | "night">>;

/**
 * What the home page shows: the countdown; "due" (the start has come, nothing is on yet); the stream on air;
 * a break; the night over (its replay being prepared, or none); the replay; closed.
 */
export type EventMoment = "countdown" | "due" | "live" | "break" | "ended" | "replay" | "closed";

/** The start date in epoch ms, or null when the settings hold none that can be read. */
export function eventStart(settings: Pick<PublicLivestreamSettings, "startDate">): number | null {
  const start = Date.parse(settings.startDate);
  return Number.isNaN(start) ? null : start;
}

/** What the home page shows, from the phase and whether the start has come on the viewer's clock. */
export function eventMoment(settings: EventTiming, started: boolean): EventMoment {
  const waiting: EventMoment = started ? "due" : "countdown";
  switch (settings.phase) {
    case undefined:
      // Settings from before phases (an older server): the switch alone.
      return !started ? "countdown" : settings.isActive ? "live" : "due";
    case "upcoming":
      return waiting;
    case "preshow":
    case "live":
      return settings.night?.onAir ? "live" : waiting;
    default:
      return settings.phase;
  }
}

/** The night is over: its replay, word that it is being prepared, or that it has closed. */
export function nightIsOver(settings: EventTiming | undefined): boolean {
  return settings?.phase === "ended" || settings?.phase === "replay" || settings?.phase === "closed";
}
