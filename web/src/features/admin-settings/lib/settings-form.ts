import { z } from "zod";
import { accessPriceProblem, CURRENCIES, toMinorUnits } from "@contracts/money";
import { livestreamSettingsBody, type LivestreamSettings, type LivestreamSettingsBody } from "@contracts/settings";

/** The form's default donation goal, in pounds. */
export const DEFAULT_DONATION_GOAL_POUNDS = 50;
const GOAL_MESSAGE = "Donation goal must be at least 1";

/**
 * The settings form: the server's rules for title, thumbnail and embed URL; the goal and the access price
 * in units of the currency (the server takes minor units) and the start date as a datetime-local value
 * (the server takes ISO).
 */
export const settingsFormSchema = livestreamSettingsBody
  .omit({ donationGoal: true, startDate: true, isActive: true, accessPrice: true, currency: true, confirmCurrencyChange: true })
  .extend({
    donationGoal: z.number({ error: GOAL_MESSAGE }).min(1, GOAL_MESSAGE).max(1_000_000, "Donation goal is too large"),
    isActive: z.boolean(),
    startDate: z.string().refine((value) => !Number.isNaN(new Date(value).getTime()), "Please choose a start date"),
    accessPrice: z.number({ error: "Access price must be a number" }),
    currency: z.enum(CURRENCIES, { error: "Choose one of the listed currencies" }),
  })
  .superRefine((values, ctx) => {
    const problem = accessPriceProblem(poundsToPence(values.accessPrice), values.currency);
    if (problem) ctx.addIssue({ code: "custom", path: ["accessPrice"], message: problem });
  });
export type SettingsFormInput = z.input<typeof settingsFormSchema>;
export type SettingsFormValues = z.output<typeof settingsFormSchema>;

/** Pounds as typed → integer pence, as the spec says: multiply by 100 and round. */
export const poundsToPence = toMinorUnits;

export function penceToPounds(pence: number): number {
  return pence / 100;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO instant → "YYYY-MM-DDTHH:mm" in the browser's time zone (what datetime-local shows). */
export function isoToLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (the browser's time zone) → ISO 8601. */
export function localInputToIso(local: string): string {
  return new Date(local).toISOString();
}

export function toFormValues(settings: LivestreamSettings): SettingsFormInput {
  return {
    eventTitle: settings.eventTitle,
    thumbnailUrl: settings.thumbnailUrl,
    embedUrl: settings.embedUrl,
    donationGoal: settings.donationGoal > 0 ? penceToPounds(settings.donationGoal) : DEFAULT_DONATION_GOAL_POUNDS,
    isActive: settings.isActive,
    startDate: isoToLocalInput(settings.startDate),
    accessPrice: penceToPounds(settings.accessPrice),
    currency: settings.currency,
  };
}

/** The PUT body: donation goal and price in minor units, start date in ISO. */
export function toSettingsBody(values: SettingsFormValues): LivestreamSettingsBody {
  return {
    ...values,
    donationGoal: poundsToPence(values.donationGoal),
    accessPrice: poundsToPence(values.accessPrice),
    startDate: localInputToIso(values.startDate),
  };
}

/** The saved settings with one field changed: what the thumbnail upload and reset save on their own. */
export function savedBody(settings: LivestreamSettings, change: Partial<LivestreamSettingsBody>): LivestreamSettingsBody {
  const { eventTitle, thumbnailUrl, embedUrl, donationGoal, isActive, startDate } = settings;
  return { eventTitle, thumbnailUrl, embedUrl, donationGoal, isActive, startDate, ...change };
}
