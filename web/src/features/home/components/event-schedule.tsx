import { useState } from "react";
import { Link } from "wouter";
import { Countdown, EventDate } from "@/components/ui/countdown";
import { paths } from "@/config/paths";
import { useReached } from "@/hooks/use-now";
import { useStoredValue } from "@/hooks/use-stored-value";
import { eventPhase, eventStart } from "@/lib/event-status";
import { useLivestreamSettings } from "@/lib/livestream-settings";
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

/**
 * The countdown with the event's day and time until the start; from then on, that the event is live (or
 * due any moment) and the way in: straight to the stream for a viewer with a code, the pass for anyone else.
 */
export function EventSchedule() {
  const settings = useLivestreamSettings();
  const start = useEventStart();
  const started = useReached(start?.known ? start.target : null);
  const accessCode = useStoredValue(LOCAL_KEYS.accessCode);

  if (!started || !settings.data) return <Countdown target={start?.target ?? null} showDate={start?.known ?? false} />;
  const live = eventPhase(settings.data, started) === "live";
  return (
    <section className={live ? "card card-blood home-event-now home-event-now-live" : "card card-blood home-event-now"} aria-labelledby="event-now-title">
      <p className="home-event-now-badge">
        <span className="home-event-now-dot" aria-hidden="true" />
        {live ? "LIVE NOW" : "STARTING ANY MOMENT"}
      </p>
      <h2 id="event-now-title" className="home-event-now-title">
        {live ? "The event is live" : "The event is about to begin"}
      </h2>
      <EventDate iso={settings.data.startDate} className="home-event-now-date" />
      {accessCode ? (
        <>
          <p className="home-event-now-lead">
            {live ? "Your pass is ready. The stream and the chat are waiting." : "Your pass is ready. The stream starts on the next screen as soon as it goes live."}
          </p>
          <Link href={paths.livestream} className="btn btn-primary home-event-now-watch">
            WATCH NOW
          </Link>
        </>
      ) : (
        <p className="home-event-now-lead">
          {live ? "It has already begun." : "It was due to begin at this time."} Get a pass below, or enter the code you were given, and join everyone watching.
        </p>
      )}
    </section>
  );
}
