import { z } from "zod";
import { accessPriceProblem, CURRENCIES, toMinorUnits } from "@contracts/money";
import { livestreamSettingsFields, organizerFields, type LivestreamSettings, type LivestreamSettingsBody } from "@contracts/settings";

/** The form's default donation goal, in pounds. */
export const DEFAULT_DONATION_GOAL_POUNDS = 50;
const GOAL_MESSAGE = "Donation goal must be at least 1";

/**
 * The settings form: the server's rules for title, thumbnail and the organiser's details; the goal and
 * the access price in units of the currency (the server takes minor units) and the start date as a
 * datetime-local value (the server takes ISO). The stream's embed URL is the Stream source card's.
 */
export const settingsFormSchema = z
  .object({
    eventTitle: livestreamSettingsFields.eventTitle,
    thumbnailUrl: livestreamSettingsFields.thumbnailUrl,
    ...organizerFields,
    donationGoal: z.number({ error: GOAL_MESSAGE }).min(1, GOAL_MESSAGE).max(1_000_000, "Donation goal is too large"),
    isActive: z.boolean(),
    startDate: z.string().refine((value) => !Number.isNaN(new Date(value).getTime()), "Please choose a start date"),
    durationMinutes: livestreamSettingsFields.durationMinutes,
    remindersEnabled: z.boolean(),
    accessPrice: z.number({ error: "Access price must be a number" }),
    currency: z.enum(CURRENCIES, { error: "Choose one of the listed currencies" }),
  })
  .superRefine((values, ctx) => {
    const problem = accessPriceProblem(poundsToPence(values.accessPrice), values.currency);
    if (problem) ctx.addIssue({ code: "custom", path: ["accessPrice"], message: problem });
  });
export type SettingsFormInput = z.input<typeof settingsFormSchema>;
export type SettingsFormValues = z.output<typeof settingsFormSchema>;

/** Pounds as typed → integer pence: times 100, rounded to the nearest. */
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
    donationGoal: settings.donationGoal > 0 ? penceToPounds(settings.donationGoal) : DEFAULT_DONATION_GOAL_POUNDS,
    isActive: settings.isActive,
    startDate: isoToLocalInput(settings.startDate),
    durationMinutes: settings.durationMinutes,
    remindersEnabled: settings.remindersEnabled,
    accessPrice: penceToPounds(settings.accessPrice),
    currency: settings.currency,
    organizerName: settings.organizerName,
    contactEmail: settings.contactEmail,
    privacyUrl: settings.privacyUrl,
    termsUrl: settings.termsUrl,
    socialLinks: { ...settings.socialLinks },
  };
}

/** The fields the admin changed, as react-hook-form marks them (a nested object per social network). */
export type ChangedFields = { [K in keyof SettingsFormValues]?: boolean | Partial<Record<string, boolean>> };

/**
 * The PUT body: only the fields the admin changed (a save never writes back a value someone else, or
 * another card, has saved since the page loaded); the goal and price in minor units, the start date in ISO.
 */
export function toSettingsBody(values: SettingsFormValues, changed: ChangedFields): LivestreamSettingsBody {
  const body: LivestreamSettingsBody = {};
  const put = <K extends keyof LivestreamSettingsBody>(name: K, value: LivestreamSettingsBody[K]) => {
    body[name] = value;
  };
  for (const name of Object.keys(changed) as (keyof SettingsFormValues)[]) {
    const mark = changed[name];
    if (!mark) continue;
    if (name === "socialLinks") {
      const networks = (mark === true ? Object.keys(values.socialLinks) : Object.keys(mark).filter((n) => mark[n])) as (keyof typeof values.socialLinks)[];
      put("socialLinks", Object.fromEntries(networks.map((network) => [network, values.socialLinks[network]])));
    } else if (name === "donationGoal" || name === "accessPrice") put(name, poundsToPence(values[name]));
    else if (name === "startDate") put("startDate", localInputToIso(values.startDate));
    else put(name, values[name]);
  }
  // A price is checked against its currency: a new currency goes with the price shown beside it.
  if (body.currency !== undefined) body.accessPrice ??= poundsToPence(values.accessPrice);
  return body;
}
