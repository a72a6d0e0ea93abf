import { useLivestreamSettings } from "@/lib/livestream-settings";

/** Where a refused buyer can turn: the organiser's contact address, once it is set in Settings. */
export function ContactOrganiser() {
  const organizer = useLivestreamSettings().data?.organizer;
  if (!organizer?.contactEmail) return null;
  return (
    <span className="contact-organiser">
      {" "}
      A new phone or browser? Write to {organizer.organizerName || "the organiser"} at{" "}
      <a className="alert-link" href={`mailto:${organizer.contactEmail}`}>
        {organizer.contactEmail}
      </a>{" "}
      with your access code.
    </span>
  );
}
