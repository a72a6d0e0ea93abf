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
