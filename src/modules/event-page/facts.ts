import type { OrganizerDetails } from "../../contracts/settings.ts";
import { eventStartUtc } from "../mail/templates.ts";
import { oneLine } from "../../lib/one-line.ts";
import { clip } from "./text.ts";

/** The longest title a tag carries (the settings allow 200; rows from before the limit may hold more). */
export const MAX_TITLE = 100;
/** Sharing sites show about this much of a description. */
export const MAX_DESCRIPTION = 300;

export interface EventImage {
  /** Absolute. */
  url: string;
  width: number | null;
  height: number | null;
  type: string | null;
}

/** What the outside world is told of the event: link previews, search engines' event, the calendar file. */
export interface EventFacts {
  /** The site's address, no trailing slash (SiteAddress). */
  siteUrl: string;
  /** One line, clipped to MAX_TITLE. */
  title: string;
  /** One line, clipped to MAX_DESCRIPTION: the title, the start in UTC, the price. */
  description: string;
  /** ISO 8601, UTC. */
  startDate: string;
  endDate: string;
  image: EventImage;
  /** "1.00" in `currency` (ISO 4217, upper case). */
  price: string;
  priceText: string;
  currency: string;
  organizer: OrganizerDetails;
  /** The calendar entry's UID and SEQUENCE (RFC 5545). */
  calendarUid: string;
  calendarSequence: number;
  /** ISO 8601: the start passes were sold for before the owner moved it; null if never moved after a sale. */
  previousStartDate: string | null;
  /** Passes are sold now (the night's phase). */
  onSale: boolean;
  /** The owner cancelled the event. */
  cancelled: boolean;
}

/** "Hollow Farm — live online Saturday 31 October 2026, 23:30 UTC. Get your pass for £1.00, …". */
export function eventDescription(title: string, startDate: string, priceText: string): string {
  return clip(`${title} — live online ${eventStartUtc(startDate)}. Get your pass for ${priceText}, join the chat and watch it unfold live.`, MAX_DESCRIPTION);
}

export function eventTitle(raw: string): string {
  return clip(oneLine(raw), MAX_TITLE) || "DREADCAST";
}
