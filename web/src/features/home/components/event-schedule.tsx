import { useEffect, useState } from "react";
import { Link } from "wouter";
import { Countdown, EventDate } from "@/components/ui/countdown";
import { paths } from "@/config/paths";
import { useReached } from "@/hooks/use-now";
import { useStoredValue } from "@/hooks/use-stored-value";
import { eventMoment, eventStart, type EventMoment } from "@/lib/event-status";
import { formatEventDay, formatEventTime } from "@/lib/dates";
import type { PublicLivestreamSettings } from "@contracts/settings";
import { livestreamSettingsQueryKey, useLivestreamSettings } from "@/lib/livestream-settings";
import { loadQueryCache } from "@/lib/query-cache";
import { LOCAL_KEYS } from "@/lib/storage";

/** When the settings cannot be loaded, the event is taken to start this far ahead. */
const FALLBACK_START_MS = 5 * 24 * 60 * 60 * 1000;

/** The start to count down to, and whether it is the event's own (not the fallback). `null` while loading. */
function useEventStart(): { target: number; known: boolean } | null {
  const settings = useLivestreamSettings();
  const [fallback] = useState(() => Date.now() + FALLBACK_START_MS);
  // Settings already shown are kept when a later fetch fails.
  if (!settings.data) return settings.isError ? { target: fallback, known: false } : null;
  const start = eventStart(settings.data);
  return start === null ? { target: fallback, known: false } : { target: start, known: true };
}

/** The card's words for a moment of the night (the countdown aside). */
interface NowCard {
  badge: string;
  title: string;
  /** For a visitor with a code: what waits behind WATCH NOW (null: no way in now). */
  withCode: { lead: string; watch: string } | null;
  /** For anyone else. */
  lead: string;
}

/** "Saturday 31 October 2026 at 21:00 GMT", in the viewer's own time zone. */
const dayAndTime = (iso: string) => `${formatEventDay(iso)} at ${formatEventTime(iso)}`;

function nowCard(moment: Exclude<EventMoment, "countdown">, settings: PublicLivestreamSettings): NowCard {
  const early = settings.phase === "preshow";
  const onSale = settings.night?.onSale !== false;
  switch (moment) {
    case "live":
      return {
        badge: "LIVE NOW",
        title: early ? "The doors are open early" : "The event is live",
        withCode: { lead: "Your pass is ready. The stream and the chat are waiting.", watch: "WATCH NOW" },
        lead: `${early ? "It has begun ahead of time." : "It has already begun."} Get a pass below, or enter the code you were given, and join everyone watching.`,
      };
    case "due":
      return {
        badge: "STARTING ANY MOMENT",
        title: "The event is about to begin",
        withCode: { lead: "Your pass is ready. The stream starts on the next screen as soon as it goes live.", watch: "WATCH NOW" },
        lead: "It was due to begin at this time. Get a pass below, or enter the code you were given, and join everyone watching.",
      };
    case "break":
      return {
        badge: "BACK IN A MOMENT",
        title: "The stream will be right back",
        withCode: { lead: "Your pass is ready. The chat is still open, and the stream comes back on the next screen by itself.", watch: "WATCH NOW" },
        lead: "The night is under way and paused for a moment. Get a pass below, or enter the code you were given, and join everyone waiting.",
      };
    case "ended":
      return {
        badge: "THE NIGHT IS OVER",
        title: "The night has ended",
        withCode: null,
        lead: settings.replayEnabled
          ? "Its replay is being prepared: pass holders can watch it here soon."
          : "There is no replay of this night. Thank you to everyone who watched.",
      };
    case "replay":
      return {
        badge: "REPLAY",
        title: "Watch the night again",
        withCode: { lead: `Your pass is ready. The replay, with its chat as it happened, is yours until ${dayAndTime(settings.replayUntil)}.`, watch: "WATCH THE REPLAY" },
        lead: onSale
          ? `The live night is over. A pass below is for its replay, with the chat as it happened, until ${dayAndTime(settings.replayUntil)}.`
          : `The live night is over. Pass holders can watch its replay until ${dayAndTime(settings.replayUntil)}; passes are no longer sold.`,
      };
    case "closed":
      if (settings.night?.cancelledAt)
        return {
          badge: "CANCELLED",
          title: "This event has been cancelled",
          withCode: null,
          lead: "The organiser has called it off: it will not be streamed, and no passes are sold.",
        };
      return {
        badge: "THE NIGHT IS OVER",
        title: "Thank you for watching",
        withCode: null,
        lead: "This night has ended and its replay is no longer available.",
      };
  }
}

/**
 * The countdown with the event's day and time until the start; from then on, where the night stands (live,
 * due any moment, on a break, over, its replay) and the way in: straight to the stream for a viewer with a
 * code, the pass for anyone else.
 */
export function EventSchedule() {
  const settings = useLivestreamSettings();
  const start = useEventStart();
  const started = useReached(start?.known ? start.target : null);
  const accessCode = useStoredValue(LOCAL_KEYS.accessCode);
  const moment = settings.data ? eventMoment(settings.data, started) : "countdown";
  // The start has come on this clock: the server's phase moves with it (the doors open, the stream on air or not).
  const waitingPhase = settings.data?.phase === "upcoming" || settings.data?.phase === "preshow";
  useEffect(() => {
    if (!started || !waitingPhase) return;
    void loadQueryCache()
      .then(({ client }) => client.invalidateQueries({ queryKey: livestreamSettingsQueryKey, refetchType: "all" }))
      .catch(() => {});
  }, [started, waitingPhase]);

  if (moment === "countdown" || !settings.data) return <Countdown target={start?.target ?? null} showDate={start?.known ?? false} />;
  const card = nowCard(moment, settings.data);
  const live = moment === "live";
  const cancelled = moment === "closed" && Boolean(settings.data.night?.cancelledAt);
  const contact = settings.data.organizer.contactEmail;
  return (
    <section className={`card card-blood home-event-now home-event-now-${cancelled ? "cancelled" : moment}${live ? " home-event-now-live" : ""}`} aria-labelledby="event-now-title">
      <p className="home-event-now-badge">
        <span className="home-event-now-dot" aria-hidden="true" />
        {card.badge}
      </p>
      <h2 id="event-now-title" className="home-event-now-title">
        {card.title}
      </h2>
      <EventDate iso={settings.data.night?.wentLiveAt ?? settings.data.startDate} className="home-event-now-date" />
      {accessCode && card.withCode ? (
        <>
          <p className="home-event-now-lead">{card.withCode.lead}</p>
          <Link href={paths.livestream} className="btn btn-primary home-event-now-watch">
            {card.withCode.watch}
          </Link>
        </>
      ) : (
        <p className="home-event-now-lead">{card.lead}</p>
      )}
      {moment === "closed" && settings.data.night?.cancelNote ? (
        <blockquote className="home-event-now-note">
          <p>{settings.data.night.cancelNote}</p>
          <footer>— {settings.data.organizer.organizerName || "The organiser"}</footer>
        </blockquote>
      ) : null}
      {moment === "closed" && contact ? (
        <p className="home-event-now-lead">
          {cancelled ? "Bought a pass? Write to" : "Questions? Write to"} <a href={`mailto:${contact}`}>{contact}</a>
          {cancelled ? ", quoting your access code." : "."}
        </p>
      ) : null}
    </section>
  );
}
