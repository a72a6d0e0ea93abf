import type { Param, Store } from "../../db/store.ts";
import { accessPriceProblem, isCurrency, type Currency } from "../../contracts/money.ts";
import { toEmbedLink } from "../../contracts/embed-link.ts";
import {
  SOCIAL_NETWORKS,
  type LivestreamSettings,
  type LivestreamSettingsBody,
  type OrganizerDetails,
  type PublicLivestreamSettings,
  type SocialLinks,
} from "../../contracts/settings.ts";
import { badRequest, conflict, fieldError } from "../../lib/errors.ts";
import { DEFAULT_THUMBNAIL_URL } from "../../contracts/event-defaults.ts";
import { replayUntilOf } from "../../contracts/replay.ts";
import type { EventPhaseView } from "../../contracts/event-phase.ts";
import { salesClosedReason } from "../../contracts/ready-to-sell.ts";

interface SettingsRow {
  event_title: string;
  thumbnail_url: string;
  embed_url: string;
  donation_goal: number;
  is_active: number;
  start_date: number;
  fake_viewers_enabled: number;
  fake_viewers_target: number;
  access_price: number;
  currency: string;
  organizer_name: string;
  contact_email: string;
  privacy_url: string;
  terms_url: string;
  social_links: string;
  duration_minutes: number;
  reminders_enabled: number;
  replay_enabled: number;
  replay_until: number | null;
  opened_at: number | null;
  went_live_at: number | null;
  ended_at: number | null;
  latest_end: number | null;
  previous_start: number | null;
  sell_after_night: number;
  cancelled_at: number | null;
  cancel_note: string;
  has_sales: number;
}

const isoOf = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The saved profile links, every network present ("" where none is set). */
function parseSocialLinks(json: string): SocialLinks {
  let saved: Record<string, unknown> = {};
  try {
    saved = JSON.parse(json) as Record<string, unknown>;
  } catch {
    // Never written otherwise; an unreadable value shows as no links.
  }
  return Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, typeof saved[n] === "string" ? saved[n] : ""])) as SocialLinks;
}

/** The body's fields that are plain columns, with their column and how each is stored. */
const COLUMNS: { [K in keyof LivestreamSettingsBody]?: [column: string, toRow?: (value: NonNullable<LivestreamSettingsBody[K]>) => unknown] } = {
  eventTitle: ["event_title"],
  thumbnailUrl: ["thumbnail_url"],
  embedUrl: ["embed_url"],
  donationGoal: ["donation_goal"],
  isActive: ["is_active", (active) => (active ? 1 : 0)],
  startDate: ["start_date", (iso) => Date.parse(iso)],
  organizerName: ["organizer_name"],
  contactEmail: ["contact_email"],
  privacyUrl: ["privacy_url"],
  termsUrl: ["terms_url"],
  durationMinutes: ["duration_minutes"],
  remindersEnabled: ["reminders_enabled", (on) => (on ? 1 : 0)],
  replayEnabled: ["replay_enabled", (on) => (on ? 1 : 0)],
  sellAfterNight: ["sell_after_night", (on) => (on ? 1 : 0)],
};

/** The furthest a replay may be offered ahead. */
const MAX_REPLAY_AHEAD_MS = 2 * 366 * 24 * 3600_000;

/** What is kept until the next write: the settings, the donation total and the serialised public views. */
interface Cache {
  changes: number;
  settings: LivestreamSettings | null;
  donationTotal: number | null;
  /** [public, can watch]: the JSON and the viewer count and phase it was made with. */
  publicJson: [PublicJson | null, PublicJson | null];
}

interface PublicJson {
  viewers: number;
  phase: string;
  json: string;
}

const emptyCache = (changes: number): Cache => ({ changes, settings: null, donationTotal: null, publicJson: [null, null] });

/**
 * The single livestream settings row, the donation total and the viewer count shown to the public.
 *
 * Both are read on every public settings request and every socket that joins, so they are kept in
 * memory until the database changes: a read that touches a table costs ~10 µs on SQLite in WAL mode (a
 * read transaction and its locks) and a round trip on PostgreSQL, while the store's write stamp costs
 * well under 1 µs. Inside a transaction, which may still roll back, they are read afresh and not kept.
 */
export class SettingsService {
  private viewerCountProvider: () => number = () => 0;
  private phaseProvider: () => Promise<EventPhaseView> = async () => ({
    phase: "upcoming",
    onAir: false,
    openedAt: null,
    wentLiveAt: null,
    endedAt: null,
    latestEnd: null,
    onSale: true,
    cancelledAt: null,
    cancelNote: "",
  });
  private cache: Cache = emptyCache(-1);

  /**
   * @param siteHost this site's host name, which a Twitch player address must name as its `parent`.
   * @param paymentMode real card payments ("stripe") sell only once the organiser's legal links are set.
   */
  constructor(
    private readonly store: Store,
    private readonly siteHost = "localhost",
    private readonly paymentMode: "demo" | "stripe" = "demo",
  ) {}

  /** Why passes cannot be sold now, or null when they can (see `salesClosedReason`). */
  async salesClosed(): Promise<string | null> {
    return salesClosedReason(this.paymentMode, await this.get());
  }

  /** The cache, emptied first if anything has been written since it was filled. */
  private current() {
    const changes = this.store.writes;
    if (changes !== this.cache.changes) this.cache = emptyCache(changes);
    return this.cache;
  }

  async get(): Promise<LivestreamSettings> {
    if (this.store.inTransaction()) return this.read();
    const cache = this.current();
    cache.settings ??= await this.read();
    return { ...cache.settings };
  }

  private async read(): Promise<LivestreamSettings> {
    const row = (await this.store.get<SettingsRow>(
      "SELECT *, CASE WHEN EXISTS (SELECT 1 FROM payments WHERE fulfilled = 1) THEN 1 ELSE 0 END AS has_sales FROM livestream_settings WHERE id = 1",
    ))!;
    return {
      eventTitle: row.event_title,
      thumbnailUrl: row.thumbnail_url,
      embedUrl: row.embed_url,
      donationGoal: row.donation_goal,
      isActive: row.is_active === 1,
      startDate: new Date(row.start_date).toISOString(),
      fakeViewersEnabled: row.fake_viewers_enabled === 1,
      fakeViewersTarget: row.fake_viewers_target,
      accessPrice: row.access_price,
      currency: isCurrency(row.currency) ? row.currency : "gbp",
      hasSales: row.has_sales === 1,
      organizerName: row.organizer_name,
      contactEmail: row.contact_email,
      privacyUrl: row.privacy_url,
      termsUrl: row.terms_url,
      socialLinks: parseSocialLinks(row.social_links),
      durationMinutes: row.duration_minutes,
      remindersEnabled: row.reminders_enabled === 1,
      replayEnabled: Number(row.replay_enabled) === 1,
      replayUntil: row.replay_until === null ? null : new Date(Number(row.replay_until)).toISOString(),
      openedAt: isoOf(row.opened_at),
      wentLiveAt: isoOf(row.went_live_at),
      endedAt: isoOf(row.ended_at),
      latestEnd: isoOf(row.latest_end),
      previousStart: isoOf(row.previous_start),
      sellAfterNight: Number(row.sell_after_night) === 1,
      cancelledAt: isoOf(row.cancelled_at),
      cancelNote: row.cancel_note,
    };
  }

  /**
   * The stream's embed address as it is saved: a page link of YouTube, Twitch or Vimeo becomes its
   * player, a Twitch player names this site as `parent`; a link that is no player is refused (400, on
   * the `embedUrl` field) saying what to paste.
   */
  embedLink(input: string): string {
    const link = toEmbedLink(input, this.siteHost);
    if ("problem" in link) throw fieldError("embedUrl", link.problem);
    return link.url;
  }

  /**
   * Saves the fields the admin sent; those left out keep their saved value, so a save never writes back
   * a value its page did not touch. A price must be at least the currency's Stripe minimum; a new
   * currency after the first sale must be confirmed (amounts already paid keep the currency they were
   * paid in).
   */
  async update(settings: LivestreamSettingsBody): Promise<LivestreamSettings> {
    const current = await this.read();
    const currency: Currency = settings.currency ?? current.currency;
    const accessPrice = settings.accessPrice ?? current.accessPrice;
    const problem = accessPriceProblem(accessPrice, currency);
    if (problem) throw badRequest(problem);
    if (currency !== current.currency && current.hasSales && settings.confirmCurrencyChange !== true) {
      throw conflict(`Payments have already been taken in ${current.currency.toUpperCase()}. Confirm the change of currency to ${currency.toUpperCase()}.`);
    }
    const change: LivestreamSettingsBody = { ...settings };
    if (change.embedUrl !== undefined) change.embedUrl = this.embedLink(change.embedUrl);
    const assignments: string[] = ["access_price = ?", "currency = ?"];
    const values: Param[] = [accessPrice, currency];
    for (const [name, spec] of Object.entries(COLUMNS)) {
      const value = change[name as keyof LivestreamSettingsBody];
      if (value === undefined || !spec) continue;
      const [column, toRow] = spec as [string, ((v: unknown) => Param)?];
      assignments.push(`${column} = ?`);
      values.push(toRow ? toRow(value) : (value as Param));
    }
    // Calendars holding the event move it only for a higher SEQUENCE (RFC 5545): a new start or length is one.
    const moved =
      (change.startDate !== undefined && Date.parse(change.startDate) !== Date.parse(current.startDate)) ||
      (change.durationMinutes !== undefined && change.durationMinutes !== current.durationMinutes);
    if (moved) assignments.push("calendar_sequence = calendar_sequence + 1");
    // A start moved after passes were sold for it: the event is rescheduled (the search engines' Event says so).
    if (change.startDate !== undefined && Date.parse(change.startDate) !== Date.parse(current.startDate) && current.hasSales) {
      assignments.push("previous_start = ?");
      values.push(Date.parse(current.startDate));
    }
    // The night moved to a start still ahead, before it ended: it has not happened yet (no live moment, no early doors kept).
    if (change.startDate !== undefined && Date.parse(change.startDate) !== Date.parse(current.startDate) && Date.parse(change.startDate) > Date.now() && current.endedAt === null) {
      assignments.push("went_live_at = NULL");
      if (!(change.isActive === true && !current.isActive)) assignments.push("opened_at = NULL");
    }
    if (change.replayUntil !== undefined) {
      const until = change.replayUntil === null ? null : Date.parse(change.replayUntil);
      if (until !== null && until <= Date.now()) throw fieldError("replayUntil", "The replay's end must be in the future");
      if (until !== null && until > Date.now() + MAX_REPLAY_AHEAD_MS) throw fieldError("replayUntil", "The replay's end must be within two years");
      assignments.push("replay_until = ?");
      values.push(until);
    }
    if (change.latestEnd !== undefined) {
      const end = change.latestEnd === null ? null : Date.parse(change.latestEnd);
      const start = Date.parse(change.startDate ?? current.startDate);
      if (end !== null && end <= start) throw fieldError("latestEnd", "The latest end must be after the start");
      if (end !== null && end > start + MAX_REPLAY_AHEAD_MS) throw fieldError("latestEnd", "The latest end must be within two years of the start");
      assignments.push("latest_end = ?");
      values.push(end);
    }
    // Switched on: the doors open (a night that was ended, or an event cancelled, opens again).
    if (change.isActive === true && !current.isActive) {
      assignments.push("opened_at = ?", "ended_at = NULL", "cancelled_at = NULL", "cancel_note = ''");
      // An event cancelled and opened again is in the buyers' calendars again: the entry's sequence moves on.
      if (current.cancelledAt !== null && !moved) assignments.push("calendar_sequence = calendar_sequence + 1");
      values.push(Date.now());
    }
    if (change.socialLinks) {
      assignments.push("social_links = ?");
      values.push(JSON.stringify({ ...current.socialLinks, ...change.socialLinks }));
    }
    await this.store.run(`UPDATE livestream_settings SET ${assignments.join(", ")}, updated_at = ? WHERE id = 1`, ...values, Date.now());
    return this.get();
  }

  /** The embed address alone: the stream source card saves it as the `embed` kind. */
  async setEmbedUrl(embedUrl: string): Promise<void> {
    await this.store.run("UPDATE livestream_settings SET embed_url = ?, updated_at = ? WHERE id = 1", embedUrl, Date.now());
  }

  async setFakeViewers(enabled: boolean, target: number): Promise<LivestreamSettings> {
    await this.store.run("UPDATE livestream_settings SET fake_viewers_enabled = ?, fake_viewers_target = ?, updated_at = ? WHERE id = 1", enabled ? 1 : 0, target, Date.now());
    return this.get();
  }

  /** The chat hub sets this once it counts connected viewers. */
  setViewerCountProvider(provider: () => number): void {
    this.viewerCountProvider = provider;
  }

  viewerCount(): number {
    return this.viewerCountProvider();
  }

  /** The night's phase service sets this: the public view carries the phase. */
  setPhaseProvider(provider: () => Promise<EventPhaseView>): void {
    this.phaseProvider = provider;
  }

  /** Counted donations in the event's currency, less what was refunded or is held by a dispute (minor units). */
  async donationTotal(): Promise<number> {
    if (this.store.inTransaction()) return this.readDonationTotal();
    const cache = this.current();
    cache.donationTotal ??= await this.readDonationTotal();
    return cache.donationTotal;
  }

  private async readDonationTotal(): Promise<number> {
    const { currency } = await this.get();
    const row = await this.store.get<{ total: number }>(
      `SELECT CAST(COALESCE(SUM(d.amount - CASE WHEN d.amount < l.refunded_amount + l.disputed_amount THEN d.amount
         ELSE l.refunded_amount + l.disputed_amount END), 0) AS BIGINT) AS total
       FROM donations d JOIN payment_ledger l ON l.id = d.payment_id WHERE l.currency = ?`,
      currency,
    );
    return row!.total;
  }

  /**
   * `publicView` serialised: what GET /api/livestream-settings answers, read by every page view. Kept
   * while nothing is written and the viewer count stays the same, so most requests skip building and
   * serialising the object.
   */
  async publicViewJson(canWatch: boolean): Promise<string> {
    if (this.store.inTransaction()) return JSON.stringify(await this.publicView(canWatch));
    const night = await this.phaseProvider();
    const cache = this.current();
    const viewers = this.viewerCount();
    const phase = JSON.stringify(night);
    const slot = cache.publicJson[canWatch ? 1 : 0];
    if (slot?.viewers === viewers && slot.phase === phase) return slot.json;
    const json = JSON.stringify(await this.publicView(canWatch, viewers, night));
    cache.publicJson[canWatch ? 1 : 0] = { viewers, phase, json };
    return json;
  }

  /** What anyone may read; the stream link only for callers who have paid (or administer), and only while the livestream is active. */
  async publicView(canWatch: boolean, viewerCount = this.viewerCount(), night?: EventPhaseView): Promise<PublicLivestreamSettings> {
    const { phase, ...times } = night ?? (await this.phaseProvider());
    const s = await this.get();
    return {
      eventTitle: s.eventTitle,
      startDate: s.startDate,
      thumbnailUrl: s.thumbnailUrl,
      displayThumbnail: s.thumbnailUrl.trim() || DEFAULT_THUMBNAIL_URL,
      thumbnailData: null,
      embedUrl: canWatch && s.isActive ? s.embedUrl : "",
      viewerCount,
      currentDonation: await this.donationTotal(),
      donationGoal: s.donationGoal,
      isActive: s.isActive,
      accessPrice: s.accessPrice,
      currency: s.currency,
      organizer: organizerOf(s),
      salesOpen: salesClosedReason(this.paymentMode, s) === null,
      replayEnabled: s.replayEnabled,
      replayUntil: new Date(replayUntilOf(s)).toISOString(),
      phase,
      night: times,
    };
  }
}

/** The organiser's details out of the settings. */
export function organizerOf(s: LivestreamSettings): OrganizerDetails {
  return { organizerName: s.organizerName, contactEmail: s.contactEmail, privacyUrl: s.privacyUrl, termsUrl: s.termsUrl, socialLinks: s.socialLinks };
}
