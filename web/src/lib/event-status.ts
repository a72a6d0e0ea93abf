/**
 * Where the event stands for a viewer: upcoming, live or due, and whether the stream is live. What the
 * admin's "Livestream active" switch (`isActive`) means for these is decided here, and only here.
 */
import type { PublicLivestreamSettings } from "@contracts/settings";

type EventTiming = Pick<PublicLivestreamSettings, "startDate" | "isActive">;

/**
 * Before the start date: "upcoming" (the countdown). After it: "live" while the livestream is switched on,
 * else "due" (it was to have begun and has not, or is off the air for now).
 */
export type EventPhase = "upcoming" | "live" | "due";

/** The start date in epoch ms, or null when the settings hold none that can be read. */
export function eventStart(settings: Pick<PublicLivestreamSettings, "startDate">): number | null {
  const start = Date.parse(settings.startDate);
  return Number.isNaN(start) ? null : start;
}

export function eventPhase(settings: EventTiming, started: boolean): EventPhase {
  if (!started) return "upcoming";
  return settings.isActive ? "live" : "due";
}

/** The stream is live: switched on, and the server gave this viewer something to play. */
export function streamIsLive(settings: EventTiming | undefined, playbackUrl: string | undefined): boolean {
  return !!settings?.isActive && !!playbackUrl;
}
