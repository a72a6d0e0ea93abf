import { CalendarIcon, ShareIcon } from "@/components/ui/site-icons";
import { DEFAULT_EVENT_TITLE } from "@/config/event";
import { toast } from "@/hooks/use-toast";
import { nightIsOver } from "@/lib/event-status";
import { useLivestreamSettings } from "@/lib/livestream-settings";
import { shareEventLink } from "@/lib/share-event";

/** The server's calendar file of the event (RFC 5545), the same one the purchase e-mail carries. */
export const EVENT_CALENDAR_PATH = "/event.ics";

/** Add to calendar and Share: the event into the viewer's calendar (until the night is over or called off), its link to their friends. */
export function EventActions() {
  const settings = useLivestreamSettings().data;
  const title = settings?.eventTitle || DEFAULT_EVENT_TITLE;
  const share = async () => {
    const url = `${window.location.origin}/`;
    const outcome = await shareEventLink(title, url);
    if (outcome === "copied") toast({ title: "Copied!", description: "The event's link is on your clipboard. Paste it anywhere." });
    else if (outcome === "failed") toast({ variant: "destructive", title: "Could not copy the link", description: url });
  };
  return (
    <div className="event-actions">
      {nightIsOver(settings) ? null : (
        <a className="btn btn-outline event-action" href={EVENT_CALENDAR_PATH} download="event.ics">
          <CalendarIcon />
          Add to calendar
        </a>
      )}
      <button type="button" className="btn btn-outline event-action" onClick={() => void share()}>
        <ShareIcon />
        Share
      </button>
    </div>
  );
}
