import type { Store } from "../../db/store.ts";
import { DEFAULT_THUMBNAIL_URL } from "../../contracts/event-defaults.ts";
import { formatMoney } from "../../contracts/money.ts";
import type { PublicLivestreamSettings } from "../../contracts/settings.ts";
import type { SiteAddress } from "../../http/site-address.ts";
import type { SettingsService } from "../settings/service.ts";
import { organizerOf } from "../settings/service.ts";
import { sniffImage, UPLOADS_URL_PREFIX, type UploadService } from "../uploads/service.ts";
import { eventCalendar } from "./calendar.ts";
import { eventDescription, eventTitle, type EventFacts, type EventImage } from "./facts.ts";
import { imageSize } from "./image-size.ts";
import { firstPaintTags, pageHead, PREVIEW_PAGES, type FirstPaint } from "./preview.ts";

/** web/public/assets/default-thumbnail.jpg, as its header says (a test holds the two together). */
export const DEFAULT_THUMBNAIL_SIZE = { width: 1280, height: 720 };

interface Derived {
  key: string;
  heads: Map<string, string | null>;
  calendar: string | null;
}

/**
 * The event as the outside world sees it: the head of the pages a link leads to (link previews, the
 * search engines' Event) and the calendar file. Everything is built from the settings and the site's one
 * address (SiteAddress: --public-url, else where the server listens), never from a request, and kept
 * until a write changes what it was built from (a cluster's other instances included).
 */
export class EventPageService {
  private facts: { writes: number; siteUrl: string; facts: EventFacts } | null = null;
  private derived: Derived = { key: "", heads: new Map(), calendar: null };
  private painted: { json: string; tags: Record<FirstPaint, string> } | null = null;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly site: SiteAddress,
    private readonly uploads: UploadService,
    private readonly phase: () => Promise<{ onSale: boolean }> = async () => ({ onSale: true }),
  ) {}

  /** The facts as they stand; read again only after a write. */
  async current(): Promise<EventFacts> {
    const writes = this.store.writes;
    const siteUrl = this.site.url();
    if (this.facts?.writes === writes && this.facts.siteUrl === siteUrl && !this.store.inTransaction()) return this.facts.facts;
    const facts = await this.read();
    if (!this.store.inTransaction()) this.facts = { writes, siteUrl, facts };
    return facts;
  }

  /** The strings built from the facts, emptied when the facts differ (not on every write, as a chat line is one). */
  private async derivedNow(): Promise<[EventFacts, Derived]> {
    // Whether passes are sold moves with the night's phase, the clock included, not only with a write.
    const facts = { ...(await this.current()), onSale: (await this.phase()).onSale };
    const key = JSON.stringify(facts);
    if (this.derived.key !== key) this.derived = { key, heads: new Map(), calendar: null };
    return [facts, this.derived];
  }

  /** The head tags for a page path, or null for a page that has none of its own. */
  async pageHead(path: string): Promise<string | null> {
    const [facts, derived] = await this.derivedNow();
    if (!derived.heads.has(path)) derived.heads.set(path, pageHead(facts, path));
    const head = derived.heads.get(path)!;
    const firstPaint = PREVIEW_PAGES[path]?.firstPaint;
    return head !== null && firstPaint ? head + (await this.firstPaint(firstPaint)) : head;
  }

  /**
   * A page's first-paint tags, built again only when the public settings' text changes. None while the
   * settings cannot be read: the page then asks for them itself.
   */
  private async firstPaint(what: FirstPaint): Promise<string> {
    const json = await this.settings.publicViewJson(false).catch(() => null);
    if (json === null) return "";
    if (this.painted?.json !== json) this.painted = { json, tags: firstPaintTags(json, JSON.parse(json) as PublicLivestreamSettings) };
    return this.painted.tags[what];
  }

  /** The event's .ics; stamped when it was last built. */
  async calendar(): Promise<string> {
    const [facts, derived] = await this.derivedNow();
    derived.calendar ??= eventCalendar(facts);
    return derived.calendar;
  }

  private async read(): Promise<EventFacts> {
    const s = await this.settings.get();
    const row = (await this.store.get<{ calendar_uid: string; calendar_sequence: number }>("SELECT calendar_uid, calendar_sequence FROM livestream_settings WHERE id = 1"))!;
    const siteUrl = this.site.url().replace(/\/+$/, "");
    const title = eventTitle(s.eventTitle);
    const start = Date.parse(s.startDate);
    const priceText = formatMoney(s.accessPrice, s.currency);
    return {
      siteUrl,
      title,
      description: eventDescription(title, s.startDate, priceText),
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + s.durationMinutes * 60_000).toISOString(),
      image: await this.image(s.thumbnailUrl.trim(), siteUrl),
      price: (s.accessPrice / 100).toFixed(2),
      priceText,
      currency: s.currency.toUpperCase(),
      organizer: organizerOf(s),
      calendarUid: row.calendar_uid || "dreadcast-event",
      calendarSequence: row.calendar_sequence,
      previousStartDate: s.previousStart,
      onSale: true,
      cancelled: s.cancelledAt !== null,
    };
  }

  /**
   * The thumbnail as an absolute address with its size: an uploaded image that is still stored, or an
   * http(s) address the admin gave; anything else (a path that is not ours, an upload gone) is the default.
   */
  private async image(thumbnailUrl: string, siteUrl: string): Promise<EventImage> {
    const fallback: EventImage = { url: `${siteUrl}${DEFAULT_THUMBNAIL_URL}`, ...DEFAULT_THUMBNAIL_SIZE, type: "image/jpeg" };
    if (/^https?:\/\//i.test(thumbnailUrl)) {
      try {
        return { url: new URL(thumbnailUrl).href, width: null, height: null, type: null };
      } catch {
        return fallback;
      }
    }
    if (!thumbnailUrl.startsWith(UPLOADS_URL_PREFIX)) return fallback;
    const stored = await this.uploads.find(thumbnailUrl.slice(UPLOADS_URL_PREFIX.length));
    if (!stored) return fallback;
    const bytes =
      stored.bytes ??
      (await Bun.file(stored.path)
        .bytes()
        .catch(() => null));
    if (!bytes) return fallback;
    const size = imageSize(bytes);
    return { url: `${siteUrl}${thumbnailUrl}`, width: size?.width ?? null, height: size?.height ?? null, type: sniffImage(bytes)?.type ?? stored.type };
  }
}
