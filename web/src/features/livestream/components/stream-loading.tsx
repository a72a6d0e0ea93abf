import { Countdown, EventDate } from "@/components/ui/countdown";
import { useReached } from "@/hooks/use-now";

/** The 'Loading Stream' card: before there is a stream to play, or over the video while it (re)loads. */
export function StreamLoading({ overlay = false }: { overlay?: boolean }) {
  return (
    <div className={overlay ? "stream-player-loading stream-player-loading-overlay" : "stream-player-loading"} role="status">
      <div className="spinner" aria-hidden="true" />
      <p className="stream-player-title">Loading Stream</p>
      <p className="stream-player-text">Please wait...</p>
    </div>
  );
}

/** The stream is switched off by the admin, or its publisher is away (then over the player): nothing to play. */
export function StreamOffline({ overlay = false }: { overlay?: boolean }) {
  return (
    <div className={overlay ? "stream-player-loading stream-player-offline stream-player-loading-overlay" : "stream-player-loading stream-player-offline"} role="status">
      <p className="stream-player-title">Stream Offline</p>
      <p className="stream-player-text">The event will begin soon...</p>
    </div>
  );
}

/** A break in the night: the publisher is gone for now and the player comes back by itself. */
export function StreamBreak() {
  return (
    <div className="stream-player-loading stream-player-offline stream-player-break" role="status">
      <div className="spinner" aria-hidden="true" />
      <p className="stream-player-title">The Stream Will Be Right Back</p>
      <p className="stream-player-text">A short break in the night. Stay with us: it comes back here by itself, and the chat is still open.</p>
    </div>
  );
}

/**
 * Before there is a stream to play: the loading card (or the offline one), and when the event starts (its
 * day and time in the viewer's zone, and the countdown), or once the start has passed, that it is due. On a
 * break in the night: that the stream will be right back.
 */
export function StreamWaiting({ startDate, offline, onBreak = false }: { startDate: string | undefined; offline: boolean; onBreak?: boolean }) {
  const start = startDate ? Date.parse(startDate) : Number.NaN;
  const known = !Number.isNaN(start);
  const started = useReached(known ? start : null);
  if (onBreak) {
    return (
      <div className="stream-player-waiting">
        <StreamBreak />
      </div>
    );
  }
  return (
    <div className="stream-player-waiting">
      {offline ? <StreamOffline /> : <StreamLoading />}
      {!known ? null : started ? (
        <section className="stream-player-due" aria-label="STARTING ANY MOMENT">
          <h2 className="countdown-heading">STARTING ANY MOMENT</h2>
          <EventDate iso={new Date(start).toISOString()} className="countdown-date" />
        </section>
      ) : (
        <Countdown target={start} showDate compact />
      )}
    </div>
  );
}
