/**
 * The night's phase: one answer, derived on the server from the settings, the clock and the publisher,
 * that every page, the payment dialog, the mails and the panel read. Shared by the server and the web app.
 *
 * - `upcoming`: the doors are not open (before the start, or after it while the streamer has not opened
 *   them): nothing is shown to pass holders; a publish is a rehearsal.
 * - `preshow`: the streamer opened the doors before the start (or publishes through doors left open): live
 *   to pass holders.
 * - `live`: the doors are open and the start has come (or the stream went live early).
 * - `break`: the night went live and its publisher is gone, before the night is ended: the stream will be
 *   right back, the chat, hearts and donations stay open.
 * - `ended`: the owner ended the night (or its latest end passed); the replay is being prepared, or is off.
 * - `replay`: the replay's window is open and there is something to play.
 * - `closed`: after the replay's window (or the night's last day without one), or the owner cancelled the
 *   event (`cancelledAt`): nothing is sold.
 */
export const EVENT_PHASES = ["upcoming", "preshow", "live", "break", "ended", "replay", "closed"] as const;
export type EventPhase = (typeof EVENT_PHASES)[number];

/** The phases in which the live night is on (pages show the stream, the chat, hearts and donations). */
export const LIVE_PHASES: readonly EventPhase[] = ["preshow", "live", "break"];
/** The phases after the night. */
export const AFTER_PHASES: readonly EventPhase[] = ["ended", "replay", "closed"];

/** The phase and the times that matter, as GET /api/livestream-settings and the settings pushed to pages carry them. */
export interface EventPhaseView {
  phase: EventPhase;
  /** The stream is playing now: a publisher is sending (or the source is a provider's player, which cannot tell). */
  onAir: boolean;
  /** ISO 8601: when the doors were opened, when the night first went live, when it was ended; null before. */
  openedAt: string | null;
  wentLiveAt: string | null;
  endedAt: string | null;
  /** ISO 8601: the latest end the owner set (the night ends by itself then), null for none. */
  latestEnd: string | null;
  /** Whether passes are sold now (never in `closed`; after the night only while the owner sells the replay). */
  onSale: boolean;
  /** ISO 8601: the owner cancelled the event (its phase is then `closed`), null unless cancelled. */
  cancelledAt: string | null;
  /** The owner's words about the cancellation ("" for none). */
  cancelNote: string;
}

/** What the phase is derived from. Times in ms since the epoch. */
export interface PhaseInputs {
  now: number;
  start: number;
  /** The streamer opened the doors ("Livestream active"). */
  doorsOpen: boolean;
  openedAt: number | null;
  wentLiveAt: number | null;
  endedAt: number | null;
  latestEnd: number | null;
  /** "on": a publisher is sending; "off": none; "unknown": a provider's player, which cannot tell. */
  publisher: "on" | "off" | "unknown";
  /** Pass holders may watch the recordings after the night, and there are some to watch. */
  replayOffered: boolean;
  /** When the replay's window closes (the night's last day when there is no replay). */
  replayUntil: number;
  /** The owner sells passes to the replay after the night. */
  sellAfterNight: boolean;
  /** The owner cancelled the event. */
  cancelledAt: number | null;
}

/** When the night ended: as the owner ended it, or at the latest end they set once it has passed. */
export function endOf(input: Pick<PhaseInputs, "now" | "endedAt" | "latestEnd">): number | null {
  if (input.endedAt !== null) return input.endedAt;
  return input.latestEnd !== null && input.now >= input.latestEnd ? input.latestEnd : null;
}

export function derivePhase(input: PhaseInputs): EventPhase {
  // A cancelled event is over before it began: nothing is shown, nothing is sold.
  if (input.cancelledAt !== null) return "closed";
  const ended = endOf(input);
  if (ended !== null) {
    if (input.now >= input.replayUntil) return "closed";
    return input.replayOffered ? "replay" : "ended";
  }
  if (!input.doorsOpen) return "upcoming";
  // Before the start, the doors are open early only when the streamer opened them (or a publisher is live through them).
  if (input.now < input.start && input.wentLiveAt === null && input.openedAt === null && input.publisher !== "on") return "upcoming";
  if (input.publisher === "off" && input.wentLiveAt !== null) return "break";
  return input.now < input.start ? "preshow" : "live";
}

/**
 * Whether a pass is sold in this phase: after the night only a pass to the replay while it is open and the
 * owner sells it; nothing while it is being prepared (or there is none), nothing once closed.
 */
export function phaseOnSale(phase: EventPhase, sellAfterNight: boolean): boolean {
  if (phase === "ended" || phase === "closed") return false;
  if (phase === "replay") return sellAfterNight;
  return true;
}

/** The answers of a purchase refused because nothing is sold now. */
export const NOT_ON_SALE = "Passes are no longer sold: the night is over.";
export const CANCELLED_NOT_ON_SALE = "Passes are no longer sold: the event has been cancelled.";
export const REPLAY_NOT_READY = "The night has just ended. Passes to its replay are sold once it is ready.";
