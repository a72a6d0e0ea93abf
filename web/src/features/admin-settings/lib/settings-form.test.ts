import { describe, expect, test } from "bun:test";
import type { LivestreamSettings } from "@contracts/settings";
import { isoToLocalInput, localInputToIso, penceToPounds, poundsToPence, settingsFormSchema, toFormValues, toSettingsBody } from "./settings-form";

describe("poundsToPence", () => {
  test("multiplies by 100 and rounds to whole pence", () => {
    expect(poundsToPence(50)).toBe(5000);
    expect(poundsToPence(1)).toBe(100);
    expect(poundsToPence(19.99)).toBe(1999);
    expect(poundsToPence(0.29)).toBe(29);
    expect(poundsToPence(1.005)).toBe(100);
    expect(poundsToPence(123.456)).toBe(12346);
    expect(poundsToPence(1234.5)).toBe(123450);
  });

  test("penceToPounds is the way back", () => {
    expect(penceToPounds(5000)).toBe(50);
    expect(penceToPounds(1999)).toBe(19.99);
  });
});

const NO_LINKS = { instagram: "", youtube: "", tiktok: "", x: "", discord: "" };
const ORGANIZER = { organizerName: "", contactEmail: "", privacyUrl: "", termsUrl: "", socialLinks: NO_LINKS };
const valid = {
  eventTitle: "Night",
  thumbnailUrl: "/assets/default-thumbnail.jpg",
  donationGoal: 50,
  isActive: true,
  startDate: "2030-10-31T21:00",
  durationMinutes: 120,
  remindersEnabled: true,
  accessPrice: 1,
  currency: "gbp",
  ...ORGANIZER,
};
const messages = (input: unknown) => {
  const result = settingsFormSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe("settingsFormSchema", () => {
  test("accepts a complete form", () => {
    expect(messages(valid)).toEqual([]);
  });

  test("a blank title or thumbnail, or a goal under 1, is refused with its message", () => {
    expect(messages({ ...valid, eventTitle: "  " })).toEqual(["Event title is required"]);
    expect(messages({ ...valid, thumbnailUrl: "" })).toEqual(["Thumbnail path is required"]);
    expect(messages({ ...valid, donationGoal: 0.99 })).toEqual(["Donation goal must be at least 1"]);
    expect(messages({ ...valid, donationGoal: Number.NaN })).toEqual(["Donation goal must be at least 1"]);
  });

  test("the event's length: whole minutes from 15 minutes to 48 hours", () => {
    expect(messages({ ...valid, durationMinutes: Number.NaN })).toEqual(["Duration must be a number of minutes"]);
    expect(messages({ ...valid, durationMinutes: 10 })).toEqual(["Duration must be at least 15 minutes"]);
    expect(messages({ ...valid, durationMinutes: 48 * 60 + 1 })).toEqual(["Duration must be at most 48 hours"]);
    expect(messages({ ...valid, durationMinutes: 90.5 })).toEqual(["Duration must be whole minutes"]);
  });

  test("the organiser's details: an e-mail, web links, each network's own site", () => {
    expect(messages({ ...valid, contactEmail: "help@" })).toEqual(["Please enter a valid email address"]);
    expect(messages({ ...valid, termsUrl: "javascript:alert(1)" })).toEqual(["Terms of service link must be an http:// or https:// address"]);
    expect(messages({ ...valid, socialLinks: { ...NO_LINKS, discord: "https://example.com/discord" } })).toEqual(["The Discord link must be on discord.gg"]);
    expect(messages({ ...valid, socialLinks: { ...NO_LINKS, x: "https://twitter.com/night" }, contactEmail: "help@night.example" })).toEqual([]);
  });
});

describe("form values and the PUT body", () => {
  const settings: LivestreamSettings = {
    eventTitle: "Night",
    thumbnailUrl: "/uploads/a.png",
    embedUrl: "https://player.vimeo.com/video/1",
    donationGoal: 12345,
    isActive: false,
    startDate: "2030-10-31T21:00:00.000Z",
    fakeViewersEnabled: true,
    fakeViewersTarget: 300,
    accessPrice: 450,
    currency: "eur",
    hasSales: false,
    openedAt: null,
    wentLiveAt: null,
    endedAt: null,
    latestEnd: null,
    sellAfterNight: true,
    previousStart: null,
    cancelledAt: null,
    cancelNote: "",
    ...ORGANIZER,
    durationMinutes: 120,
    remindersEnabled: true,
    replayEnabled: true,
    replayUntil: null,
  };

  const everything = { eventTitle: true, thumbnailUrl: true, donationGoal: true, isActive: true, startDate: true, accessPrice: true, currency: true };

  test("pence become pounds in the form and pence again in the body; the start date round-trips", () => {
    const form = toFormValues(settings);
    expect(form.donationGoal).toBe(123.45);
    const body = toSettingsBody(settingsFormSchema.parse(form), everything);
    expect(body.donationGoal).toBe(12345);
    expect(body.startDate).toBe("2030-10-31T21:00:00.000Z");
    expect(form).toMatchObject({ accessPrice: 4.5, currency: "eur" });
    expect(body).toMatchObject({ accessPrice: 450, currency: "eur" });
    expect(body).not.toHaveProperty("fakeViewersEnabled");
    expect(toSettingsBody(settingsFormSchema.parse({ ...form, durationMinutes: 90, remindersEnabled: false }), { durationMinutes: true, remindersEnabled: true })).toEqual({
      durationMinutes: 90,
      remindersEnabled: false,
    });
  });

  test("the access price is at least the currency's Stripe minimum", () => {
    const form = toFormValues({ ...settings, accessPrice: 250, currency: "sek" });
    const parsed = settingsFormSchema.safeParse(form);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([["accessPrice", "Access price must be at least kr 3.00"]]);
    expect(settingsFormSchema.safeParse({ ...form, accessPrice: 3 }).success).toBe(true);
  });

  test("a goal of 0 shows the default 50 pounds", () => {
    expect(toFormValues({ ...settings, donationGoal: 0 }).donationGoal).toBe(50);
  });

  test("datetime-local values are in the browser's zone", () => {
    expect(isoToLocalInput("not a date")).toBe("");
    expect(localInputToIso(isoToLocalInput("2030-01-02T03:04:00.000Z"))).toBe("2030-01-02T03:04:00.000Z");
  });

  test("the body holds only the fields the admin changed", () => {
    const values = settingsFormSchema.parse({ ...toFormValues(settings), eventTitle: "Renamed", socialLinks: { ...NO_LINKS, x: "https://x.com/night" } });
    expect(toSettingsBody(values, {})).toEqual({});
    expect(toSettingsBody(values, { eventTitle: true })).toEqual({ eventTitle: "Renamed" });
    expect(toSettingsBody(values, { socialLinks: { x: true, discord: false } })).toEqual({ socialLinks: { x: "https://x.com/night" } });
    expect(toSettingsBody(values, { donationGoal: true, startDate: true })).toEqual({ donationGoal: 12345, startDate: "2030-10-31T21:00:00.000Z" });
  });

  test("a new currency is sent with the price shown beside it", () => {
    const values = settingsFormSchema.parse({ ...toFormValues(settings), currency: "gbp" });
    expect(toSettingsBody(values, { currency: true })).toEqual({ currency: "gbp", accessPrice: 450 });
  });
});
