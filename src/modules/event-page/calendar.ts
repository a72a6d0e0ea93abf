import { eventStartUtc } from "../mail/templates.ts";
import type { EventFacts } from "./facts.ts";

/** RFC 5545 §3.3.11: backslash, semicolon and comma escaped, a line break as \n; other control characters dropped. */
export function escapeIcsText(value: string): string {
  return value
    .replace(/\r\n?/g, "\n")
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n")
    .replace(/[\p{Cc}]/gu, "");
}

const encoder = new TextEncoder();

/** RFC 5545 §3.1: lines of at most 75 octets, continued after CRLF and a space, never inside a UTF-8 character. */
export function foldIcsLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets, each continuation 74 after its leading space.
    if (octets + size > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

/**
 * RFC 5545 §3.8.4.3: who runs the event, by their contact address, their name as CN (a quoted parameter
 * value, which cannot hold a double quote or a control character); none while no contact address is set.
 */
export function icsOrganizer(name: string, email: string): string | null {
  if (!email) return null;
  const cn = name.replace(/["\p{Cc}]/gu, "").trim();
  return `ORGANIZER${cn ? `;CN="${cn}"` : ""}:mailto:${email}`;
}

/** 2026-10-31T23:30:00.000Z → 20261031T233000Z */
const icsTime = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/**
 * The event's calendar file: one VEVENT, times in UTC, a reminder 15 minutes before; `now` stamps it. A
 * cancelled event's is a cancellation (RFC 5546 §3.2.5: METHOD:CANCEL, STATUS:CANCELLED, the sequence moved
 * on), which takes the entry out of the buyers' calendars.
 */
export function eventCalendar(facts: EventFacts, now = new Date()): string {
  const host = new URL(facts.siteUrl).hostname;
  const description = [
    `${facts.title}, streamed live online.`,
    `Starts ${eventStartUtc(facts.startDate)} (your calendar shows it in your own time zone).`,
    `Enter with your access code and a chat name at ${facts.siteUrl}/access`,
    `Get a pass at ${facts.siteUrl}/`,
  ].join("\n");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//dreadcast//dreadcast//EN",
    "CALSCALE:GREGORIAN",
    facts.cancelled ? "METHOD:CANCEL" : "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${facts.calendarUid}@${host}`,
    `DTSTAMP:${icsTime(now.toISOString())}`,
    `SEQUENCE:${facts.calendarSequence}`,
    `DTSTART:${icsTime(facts.startDate)}`,
    `DTEND:${icsTime(facts.endDate)}`,
    `SUMMARY:${escapeIcsText(facts.title)}`,
    `DESCRIPTION:${escapeIcsText(description)}`,
    `URL:${facts.siteUrl}/`,
    `LOCATION:${escapeIcsText(`${facts.siteUrl}/livestream`)}`,
    ...[icsOrganizer(facts.organizer.organizerName, facts.organizer.contactEmail)].filter((line) => line !== null),
    facts.cancelled ? "STATUS:CANCELLED" : "STATUS:CONFIRMED",
    "TRANSP:OPAQUE",
    ...(facts.cancelled ? [] : ["BEGIN:VALARM", "ACTION:DISPLAY", `DESCRIPTION:${escapeIcsText(`${facts.title} starts in 15 minutes`)}`, "TRIGGER:-PT15M", "END:VALARM"]),
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(foldIcsLine).join("\r\n")}\r\n`;
}
