import { z } from "zod";
import { CURRENCIES, type Currency } from "./money.ts";
import type { EventPhaseView } from "./event-phase.ts";
import { TEXT_LIMITS, tooLong } from "./text-limits.ts";

/** Livestream settings payloads, shared by the server and the web app. Money is integer pence. */

/** GET /api/livestream-settings. embedUrl is "" unless the caller holds a viewer or admin session. */
export interface PublicLivestreamSettings {
  eventTitle: string;
  /** ISO 8601 */
  startDate: string;
  thumbnailUrl: string;
  /** The image the banner shows: the thumbnail, or the default one when none is set. */
  displayThumbnail: string;
  thumbnailData: null;
  embedUrl: string;
  viewerCount: number;
  /** pence */
  currentDonation: number;
  /** pence */
  donationGoal: number;
  isActive: boolean;
  /** The access pass's price for new purchases, in minor units of `currency`. */
  accessPrice: number;
  /** The event's currency: the donation total, goal and price are in it. */
  currency: Currency;
  /** Who runs the event and where buyers reach them: the footer's links, "" where not set. */
  organizer: OrganizerDetails;
  /** Whether BUY NOW sells passes: with real card payments, only once the privacy policy and terms links are set. */
  salesOpen: boolean;
  /** Whether pass holders can watch the night again after it, and until when (ISO 8601). */
  replayEnabled: boolean;
  replayUntil: string;
  /** Where the night stands (contracts/event-phase.ts): the one answer every page reads. */
  phase: EventPhaseView["phase"];
  /** The phase's times and whether passes are sold now. */
  night: Omit<EventPhaseView, "phase">;
}

export const SOCIAL_NETWORKS = ["instagram", "youtube", "tiktok", "x", "discord"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
/** A profile link per network; "" while the organiser has none. */
export type SocialLinks = Record<SocialNetwork, string>;

/** The organiser's details; each "" while not set. */
export interface OrganizerDetails {
  organizerName: string;
  contactEmail: string;
  privacyUrl: string;
  termsUrl: string;
  socialLinks: SocialLinks;
}

/** The admin view of the settings row. */
export interface LivestreamSettings {
  eventTitle: string;
  thumbnailUrl: string;
  embedUrl: string;
  /** pence */
  donationGoal: number;
  isActive: boolean;
  /** ISO 8601 */
  startDate: string;
  fakeViewersEnabled: boolean;
  fakeViewersTarget: number;
  /** minor units of `currency` */
  accessPrice: number;
  currency: Currency;
  /** Whether a pass or donation has been paid yet: the currency then changes only when confirmed. */
  hasSales: boolean;
  organizerName: string;
  contactEmail: string;
  privacyUrl: string;
  termsUrl: string;
  socialLinks: SocialLinks;
  /** How long the event runs: the calendar entry ends this long after the start. */
  durationMinutes: number;
  /** E-mails to every buyer with an address 24 hours and 15 minutes before the start. */
  remindersEnabled: boolean;
  /** Pass holders watch the recording after the night. */
  replayEnabled: boolean;
  /** Until when (ISO 8601); null: seven days after the start. */
  replayUntil: string | null;
  /** ISO 8601: when the doors were last opened, when the night first went live, when it was ended; null before. */
  openedAt: string | null;
  wentLiveAt: string | null;
  endedAt: string | null;
  /** ISO 8601: the night ends by itself at this time (null: only when the owner ends it). */
  latestEnd: string | null;
  /** Passes to the replay are sold after the night while it is open. */
  sellAfterNight: boolean;
  /** ISO 8601: the start passes were sold for before it was moved (the event is rescheduled), null if never moved after a sale. */
  previousStart: string | null;
  /** ISO 8601: when the owner cancelled the event, null unless it is cancelled. */
  cancelledAt: string | null;
  /** The owner's words to the buyers about the cancellation ("" for none). */
  cancelNote: string;
}

export const MIN_DURATION_MINUTES = 15;
export const MAX_DURATION_MINUTES = 48 * 60;
export const DEFAULT_DURATION_MINUTES = 120;

const isWebAddress = (value: string) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

export const embedUrl = z
  .string()
  .trim()
  .max(TEXT_LIMITS.address, tooLong("Embed URL", TEXT_LIMITS.address))
  .refine((value) => value === "" || isWebAddress(value), "Please enter a valid embed URL");

/** A link the footer opens: "" (not set) or an http(s) address. */
const pageUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(TEXT_LIMITS.address, tooLong(label, TEXT_LIMITS.address))
    .refine((value) => value === "" || isWebAddress(value), `${label} must be an http:// or https:// address`);

/** The host names each network's profile links are on. */
export const SOCIAL_HOSTS: Record<SocialNetwork, { label: string; hosts: string[] }> = {
  instagram: { label: "Instagram", hosts: ["instagram.com"] },
  youtube: { label: "YouTube", hosts: ["youtube.com", "youtu.be"] },
  tiktok: { label: "TikTok", hosts: ["tiktok.com"] },
  x: { label: "X", hosts: ["x.com", "twitter.com"] },
  discord: { label: "Discord", hosts: ["discord.gg", "discord.com"] },
};

const onHosts = (value: string, hosts: string[]) => {
  const host = new URL(value).hostname.toLowerCase();
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
};

const socialUrl = (network: SocialNetwork) => {
  const { label, hosts } = SOCIAL_HOSTS[network];
  return pageUrl(`The ${label} link`).refine((value) => value === "" || !isWebAddress(value) || onHosts(value, hosts), `The ${label} link must be on ${hosts[0]}`);
};

export const socialLinks = z.object({
  instagram: socialUrl("instagram"),
  youtube: socialUrl("youtube"),
  tiktok: socialUrl("tiktok"),
  x: socialUrl("x"),
  discord: socialUrl("discord"),
});

/** A one-line field (it goes into mails, pages and calendar entries as one line): no line break or other control character. */
const isOneLine = (value: string) => !/[\p{Cc}\p{Zl}\p{Zp}]/u.test(value);

/** The organiser's details as the admin sends them ("" clears one). */
export const organizerFields = {
  organizerName: z
    .string()
    .trim()
    .max(TEXT_LIMITS.organizerName, tooLong("Organiser name", TEXT_LIMITS.organizerName))
    .refine(isOneLine, "Organiser name must be one line, without line breaks or control characters"),
  contactEmail: z
    .string()
    .trim()
    .max(TEXT_LIMITS.email, tooLong("Contact e-mail", TEXT_LIMITS.email))
    .refine((value) => value === "" || z.email().safeParse(value).success, "Please enter a valid email address"),
  privacyUrl: pageUrl("Privacy policy link"),
  termsUrl: pageUrl("Terms of service link"),
  socialLinks,
};

/** The event's own fields of PUT /api/admin/livestream-settings (donationGoal already in pence). */
export const livestreamSettingsFields = {
  eventTitle: z
    .string()
    .trim()
    .min(1, "Event title is required")
    .max(TEXT_LIMITS.eventTitle, tooLong("Event title", TEXT_LIMITS.eventTitle))
    .refine(isOneLine, "Event title must be one line, without line breaks or control characters"),
  thumbnailUrl: z.string().trim().min(1, "Thumbnail path is required").max(TEXT_LIMITS.address, tooLong("Thumbnail path", TEXT_LIMITS.address)),
  embedUrl,
  donationGoal: z.number().int("Donation goal must be whole pence").min(100, "Donation goal must be at least 1").max(100_000_000, "Donation goal is too large"),
  isActive: z.boolean(),
  startDate: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "Start date must be an ISO date"),
  durationMinutes: z
    .number({ error: "Duration must be a number of minutes" })
    .int("Duration must be whole minutes")
    .min(MIN_DURATION_MINUTES, `Duration must be at least ${MIN_DURATION_MINUTES} minutes`)
    .max(MAX_DURATION_MINUTES, `Duration must be at most ${MAX_DURATION_MINUTES / 60} hours`),
  remindersEnabled: z.boolean(),
  replayEnabled: z.boolean(),
  /** null: seven days after the start. */
  replayUntil: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), "Replay end must be an ISO date")
    .nullable(),
  /** null: the night ends only when the owner ends it. */
  latestEnd: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), "Latest end must be an ISO date")
    .nullable(),
  sellAfterNight: z.boolean(),
};

/**
 * PUT /api/admin/livestream-settings. Each field left out stays as saved, so a page saves only what its
 * admin changed and never writes back a value someone else (or another card) has changed since it loaded.
 */
export const livestreamSettingsBody = z
  .object({
    ...livestreamSettingsFields,
    ...organizerFields,
  })
  .partial()
  .extend({
    /** Only the networks sent change. */
    socialLinks: socialLinks.partial().optional(),
    /** Left out: unchanged. Checked against the currency's minimum by `accessPriceProblem`. */
    accessPrice: z.number({ error: "Access price must be a number" }).int("Access price must be whole pence").optional(),
    currency: z.enum(CURRENCIES, { error: "Choose one of the listed currencies" }).optional(),
    /** Changing the currency after the first sale must be confirmed. */
    confirmCurrencyChange: z.boolean().optional(),
  });
export type LivestreamSettingsBody = z.infer<typeof livestreamSettingsBody>;

/** POST /api/admin/event/cancel: the owner's words to the buyers, shown on the home page and in the mail (optional). */
export const cancelEventBody = z.object({
  note: z.string({ error: "The note must be text" }).trim().max(TEXT_LIMITS.cancelNote, tooLong("The note", TEXT_LIMITS.cancelNote)).default(""),
});
export type CancelEventBody = z.input<typeof cancelEventBody>;
