import { z } from "zod";
import { CURRENCIES, type Currency } from "./money.ts";

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
}

export const embedUrl = z
  .string()
  .trim()
  .max(2000, "Please enter a valid embed URL")
  .refine((value) => {
    if (value === "") return true;
    try {
      return ["http:", "https:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "Please enter a valid embed URL");

/** PUT /api/admin/livestream-settings (donationGoal already in pence). */
export const livestreamSettingsBody = z.object({
  eventTitle: z.string().trim().min(1, "Event title is required").max(200, "Event title is too long"),
  thumbnailUrl: z.string().trim().min(1, "Thumbnail path is required").max(2000, "Thumbnail path is too long"),
  embedUrl,
  donationGoal: z.number().int("Donation goal must be whole pence").min(100, "Donation goal must be at least 1").max(100_000_000, "Donation goal is too large"),
  isActive: z.boolean(),
  startDate: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "Start date must be an ISO date"),
  /** Left out: unchanged. Checked against the currency's minimum by `accessPriceProblem`. */
  accessPrice: z.number({ error: "Access price must be a number" }).int("Access price must be whole pence").optional(),
  currency: z.enum(CURRENCIES, { error: "Choose one of the listed currencies" }).optional(),
  /** Changing the currency after the first sale must be confirmed. */
  confirmCurrencyChange: z.boolean().optional(),
});
export type LivestreamSettingsBody = z.infer<typeof livestreamSettingsBody>;

