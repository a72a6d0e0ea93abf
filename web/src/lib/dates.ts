const dateTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
const date = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit" });

function format(formatter: Intl.DateTimeFormat, iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : formatter.format(d);
}

/** "12 Oct 2025, 21:30" in the admin's own time zone. */
export const formatDateTime = (iso: string) => format(dateTime, iso);
/** "12 Oct 2025". */
export const formatDate = (iso: string) => format(date, iso);
/** "21:30". */
export const formatTime = (iso: string) => format(time, iso);

const eventDay = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric" });
const eventTime = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZoneName: "short" });

/** "Saturday 31 October 2026": the event's day in the viewer's own time zone (put together from its parts, as browsers differ on the comma). */
export function formatEventDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  const part = (type: Intl.DateTimeFormatPartTypes) => eventDay.formatToParts(d).find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")} ${part("month")} ${part("year")}`;
}
/** "21:00 GMT": the event's time in the viewer's own time zone, the zone named. */
export const formatEventTime = (iso: string) => format(eventTime, iso);
