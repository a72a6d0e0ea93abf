import { BANNER_SIZES, DEFAULT_THUMBNAIL_SRCSET, DEFAULT_THUMBNAIL_URL, INLINE_SETTINGS_ID } from "../../contracts/event-defaults.ts";
import { SOCIAL_NETWORKS, type PublicLivestreamSettings } from "../../contracts/settings.ts";
import type { EventFacts } from "./facts.ts";
import { escapeHtml } from "../../lib/html.ts";
import { oneLine } from "../../lib/one-line.ts";
import { clip, scriptSafeJson, scriptSafeText } from "./text.ts";

/** The pages a shared link leads to, each with its own title; the landing page also carries the event for search engines. */
export const PREVIEW_PAGES: Record<string, { title: (event: string) => string; canonical: string; jsonLd: boolean; firstPaint?: FirstPaint }> = {
  // The landing and livestream pages also carry what their first paint shows (firstPaint), so it needs no
  // request before it: the landing page its banner too.
  "/": { title: (event) => event, canonical: "/", jsonLd: true, firstPaint: "settings-and-banner" },
  "/access": { title: (event) => `Enter The Nightmare · ${event}`, canonical: "/access", jsonLd: false },
  "/livestream": { title: (event) => `Livestream · ${event}`, canonical: "/livestream", jsonLd: false, firstPaint: "settings" },
  "/livestream-new": { title: (event) => `Livestream · ${event}`, canonical: "/livestream", jsonLd: false, firstPaint: "settings" },
  "/livestream-fixed": { title: (event) => `Livestream · ${event}`, canonical: "/livestream", jsonLd: false, firstPaint: "settings" },
};

/** What a page's HTML carries for its first paint: the public settings, and for the landing page its banner asked for at once. */
export type FirstPaint = "settings" | "settings-and-banner";

const SITE_NAME = "DREADCAST";

/** The organiser as schema.org has it, or null while no name is set. */
function organizerLd(facts: EventFacts) {
  const o = facts.organizer;
  const name = clip(oneLine(o.organizerName), 200);
  if (!name) return null;
  const sameAs = SOCIAL_NETWORKS.map((n) => o.socialLinks[n]).filter(Boolean);
  return {
    "@type": "Organization",
    name,
    url: sameAs[0] ?? `${facts.siteUrl}/`,
    ...(o.contactEmail ? { email: o.contactEmail } : {}),
    ...(sameAs.length ? { sameAs } : {}),
  };
}

/** A schema.org Event as Google's event rich results read it: online, at the site, with the pass as its offer. */
export function eventJsonLd(facts: EventFacts): Record<string, unknown> {
  const home = `${facts.siteUrl}/`;
  const organizer = organizerLd(facts);
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: facts.title,
    description: facts.description,
    startDate: facts.startDate.replace(/\.\d{3}Z$|Z$/, "+00:00"),
    endDate: facts.endDate.replace(/\.\d{3}Z$|Z$/, "+00:00"),
    eventStatus: facts.cancelled ? "https://schema.org/EventCancelled" : facts.previousStartDate ? "https://schema.org/EventRescheduled" : "https://schema.org/EventScheduled",
    ...(facts.previousStartDate ? { previousStartDate: facts.previousStartDate.replace(/\.\d{3}Z$|Z$/, "+00:00") } : {}),
    eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
    location: { "@type": "VirtualLocation", url: home },
    image: [facts.image.url],
    ...(organizer ? { organizer } : {}),
    offers: {
      "@type": "Offer",
      name: "Access pass",
      price: facts.price,
      priceCurrency: facts.currency,
      // After the night nothing, or only the replay, is sold.
      availability: facts.onSale ? "https://schema.org/InStock" : "https://schema.org/SoldOut",
      url: home,
    },
  };
}

const meta = (attribute: "name" | "property", key: string, value: string | number) => `<meta ${attribute}="${key}" content="${escapeHtml(String(value))}" />`;

/**
 * The head of a page a link leads to: its title and description, Open Graph and Twitter card tags for
 * link previews, and on the landing page the event as JSON-LD. Every value escaped; null for other pages.
 */
export function pageHead(facts: EventFacts, path: string): string | null {
  const page = PREVIEW_PAGES[path];
  if (!page) return null;
  const title = page.title(facts.title);
  const url = `${facts.siteUrl}${page.canonical}`;
  const image = facts.image;
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    meta("name", "description", facts.description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta("property", "og:type", "website"),
    meta("property", "og:site_name", SITE_NAME),
    meta("property", "og:locale", "en_GB"),
    meta("property", "og:title", title),
    meta("property", "og:description", facts.description),
    meta("property", "og:url", url),
    meta("property", "og:image", image.url),
    ...(image.type ? [meta("property", "og:image:type", image.type)] : []),
    ...(image.width && image.height ? [meta("property", "og:image:width", image.width), meta("property", "og:image:height", image.height)] : []),
    meta("property", "og:image:alt", facts.title),
    meta("name", "twitter:card", "summary_large_image"),
    meta("name", "twitter:title", title),
    meta("name", "twitter:description", facts.description),
    meta("name", "twitter:image", image.url),
    meta("name", "twitter:image:alt", facts.title),
  ];
  if (page.jsonLd) tags.push(`<script type="application/ld+json">${scriptSafeJson(eventJsonLd(facts))}</script>`);
  return tags.join("");
}

/**
 * What a page paints first, in its HTML: the public settings (as anyone may read them, without a viewer's
 * stream link), and for the landing page the banner's image asked for at once, the same width the page will
 * choose.
 */
export function firstPaintTags(publicJson: string, settings: Pick<PublicLivestreamSettings, "displayThumbnail">): Record<FirstPaint, string> {
  const image = settings.displayThumbnail || DEFAULT_THUMBNAIL_URL;
  const preload =
    image === DEFAULT_THUMBNAIL_URL
      ? `<link rel="preload" as="image" href="${DEFAULT_THUMBNAIL_URL}" imagesrcset="${DEFAULT_THUMBNAIL_SRCSET}" imagesizes="${BANNER_SIZES}" fetchpriority="high" />`
      : `<link rel="preload" as="image" href="${escapeHtml(image)}" fetchpriority="high" />`;
  const inline = `<script type="application/json" id="${INLINE_SETTINGS_ID}">${scriptSafeText(publicJson)}</script>`;
  return { settings: inline, "settings-and-banner": preload + inline };
}
