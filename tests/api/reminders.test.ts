import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { TEST_ENGINE } from "../support/postgres.ts";
import { makeFingerprint } from "../support/fingerprint.mjs";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../support/smtp.ts";
import { enter } from "../support/viewer.ts";

const SITE = "https://night.dreadcast.test";
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Buys a pass in demo mode with an e-mail address or none; given a zone, enters with it from a device there. */
async function buy(client: TestClient, email: string | null, timezone?: string) {
  const intent = await client.post("/api/create-payment-intent", { amount: 100, product: "livestream-access", ...(email ? { email } : {}) });
  await client.post("/api/demo/confirm-payment", { clientSecret: intent.body.clientSecret, cardNumber: "4242 4242 4242 4242" });
  const code = await client.post("/api/generate-access-code", { paymentIntentId: intent.body.paymentIntentId, deviceFingerprint: makeFingerprint(timezone ? { timezone } : {}) });
  expect(code.status).toBe(200);
  // Entering from that device is when the pass learns its zone.
  if (timezone) expect((await enter(client, code.body.accessCode, `viewer${Math.floor(Math.random() * 1e6)}`, makeFingerprint({ timezone }))).body.valid).toBe(true);
  return { code: code.body.accessCode as string, intentId: intent.body.paymentIntentId as string };
}

/** A header of the message as sent (unfolded). */
function header(mail: ReceivedMail, name: string): string | null {
  const head = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1]?.trim() ?? null;
}

let app: TestApp;
let smtp: TestSmtpServer;
let admin: TestClient;
let start: number;
const buyers: Record<string, { code: string; intentId: string }> = {};
const remindersTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address) && m.subject.includes(" starts in "));

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ publicUrl: SITE, smtpUrl: smtp.url });
  admin = await loginAsAdmin(app);
  start = Date.parse("2030-10-31T21:00:00.000Z");
  await app.ctx.settings.update({ eventTitle: "Hollow Farm", startDate: new Date(start).toISOString() });
  buyers.london = await buy(app.client(), "london@example.com");
  buyers.tokyo = await buy(app.client(), "tokyo@example.com", "Asia/Tokyo");
  buyers.nameless = await buy(app.client(), null);
  buyers.refunded = await buy(app.client(), "refunded@example.com");
  expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: buyers.refunded.intentId, expectedRefunded: 0 })).status).toBe(200);
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe("reminders before the start", () => {
  test("nothing is sent more than 24 hours before the start", async () => {
    expect(await app.ctx.reminders.runDue(start - 25 * HOUR)).toBe(0);
  });

  test("24 hours before, every buyer with an address is reminded once: the start in their zone, their code, the way in, the calendar file and a one-click unsubscribe", async () => {
    expect(await app.ctx.reminders.runDue(start - 24 * HOUR + MINUTE)).toBe(2);
    const london = await smtp.waitFor((m) => m.to.includes("london@example.com") && m.subject === "Hollow Farm starts in 24 hours");
    // The London pass never entered, so its zone is not known: UTC, named.
    expect(london.text).toContain("Hollow Farm starts in 24 hours: Thursday 31 October 2030, 21:00 UTC.");
    expect(london.text).toContain(`Access code: ${buyers.london!.code}`);
    expect(london.text).toContain(`${SITE}/access`);
    expect(london.html).toContain(buyers.london!.code);
    const tokyo = await smtp.waitFor((m) => m.to.includes("tokyo@example.com") && m.subject === "Hollow Farm starts in 24 hours");
    expect(tokyo.text).toContain("Friday, 1 November 2030, 06:00 (Asia/Tokyo time)");
    const unsubscribe = header(london, "List-Unsubscribe");
    expect(unsubscribe).toMatch(new RegExp(`^<${SITE}/unsubscribe\\?token=[A-Za-z0-9_-]{32}>$`));
    expect(header(london, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(header(tokyo, "List-Unsubscribe")).not.toBe(unsubscribe);
    expect(london.text).toContain(`No more reminders for this pass: ${unsubscribe!.slice(1, -1)}`);
    expect(london.calendars).toHaveLength(1);
    const event = new ICAL.Component(ICAL.parse(london.calendars[0]!.content)).getFirstSubcomponent("vevent")!;
    expect((event.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().getTime()).toBe(start);
  });

  test("again, later, or from two runs at once: no second 24-hour reminder", async () => {
    const results = await Promise.all([app.ctx.reminders.runDue(start - 20 * HOUR), app.ctx.reminders.runDue(start - 20 * HOUR), app.ctx.reminders.runDue(start - HOUR)]);
    expect(results).toEqual([0, 0, 0]);
    await app.ctx.mail.processDue();
    expect(remindersTo("london@example.com")).toHaveLength(1);
    expect(remindersTo("tokyo@example.com")).toHaveLength(1);
  });

  test("a refunded pass and a pass without an address get none", async () => {
    expect(remindersTo("refunded@example.com")).toEqual([]);
    const queued = await app.ctx.store.all<{ to_address: string }>("SELECT to_address FROM email_queue WHERE dedupe_key LIKE 'reminder:%'");
    expect(queued.map((q) => q.to_address).sort()).toEqual(["london@example.com", "tokyo@example.com"]);
  });

  test("15 minutes before, each is reminded once more", async () => {
    expect(await app.ctx.reminders.runDue(start - 14 * MINUTE)).toBe(2);
    expect(await app.ctx.reminders.runDue(start - 5 * MINUTE)).toBe(0);
    const late = await smtp.waitFor((m) => m.to.includes("london@example.com") && m.subject === "Hollow Farm starts in 14 minutes");
    expect(late.text).toContain(buyers.london!.code);
    expect(await app.ctx.reminders.runDue(start + MINUTE)).toBe(0);
  });

  test("a pass bought after a reminder's time does not get that reminder", async () => {
    const soon = Date.now() + 2 * HOUR;
    await app.ctx.settings.update({ startDate: new Date(soon).toISOString() });
    try {
      // Every pass was bought less than 24 hours before this start: their purchase e-mail said it all.
      expect(await app.ctx.reminders.runDue(Date.now())).toBe(0);
    } finally {
      await app.ctx.settings.update({ startDate: new Date(start).toISOString() });
    }
  });
});

describe("unsubscribing", () => {
  let link = "";
  beforeAll(async () => {
    const london = smtp.messages.find((m) => m.to.includes("london@example.com") && m.subject.includes(" starts in "))!;
    // The link names the site's public address; the test server answers it here.
    link = header(london, "List-Unsubscribe")!.slice(1, -1).replace(SITE, app.url);
  });
  const reminded = (address: string) => app.ctx.store.get<{ reminders_off: number }>("SELECT reminders_off FROM access_codes WHERE email = ?", address);

  test("opening the link asks to confirm and changes nothing (a link scanner may open it)", async () => {
    const res = await fetch(link);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Stop the reminders?");
    expect(page).toContain('<form method="post"');
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect((await reminded("london@example.com"))!.reminders_off).toBe(0);
  });

  test("a mail program's one-click POST (RFC 8058) stops them; the same link again says they were already off", async () => {
    const post = () => fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    const first = await post();
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Reminders are off");
    expect((await reminded("london@example.com"))!.reminders_off).toBe(1);
    const again = await post();
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("Reminders were already off");
  });

  test("a forged or mangled link changes nothing and says it is not valid", async () => {
    for (const token of ["A".repeat(32), "", "x", `${"a".repeat(31)}"`, "../../etc/passwd", "a".repeat(5000)]) {
      const res = await fetch(`${app.url}/unsubscribe?token=${encodeURIComponent(token)}`, { method: "POST" });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("This link is not valid");
      expect((await fetch(`${app.url}/unsubscribe?token=${encodeURIComponent(token)}`)).status).toBe(404);
    }
    expect((await reminded("tokyo@example.com"))!.reminders_off).toBe(0);
  });

  test("a moved start re-arms the reminders, for those still subscribed", async () => {
    const moved = start + 2 * 24 * HOUR;
    await app.ctx.settings.update({ startDate: new Date(moved).toISOString() });
    try {
      expect(await app.ctx.reminders.runDue(moved - 23 * HOUR)).toBe(1);
      const again = await smtp.waitFor((m) => m.to.includes("tokyo@example.com") && m.subject === "Hollow Farm starts in 23 hours");
      expect(again.text).toContain("Sunday, 3 November 2030, 06:00 (Asia/Tokyo time)");
      await app.ctx.mail.processDue();
      expect(remindersTo("london@example.com")).toHaveLength(2);
    } finally {
      await app.ctx.settings.update({ startDate: new Date(start).toISOString() });
    }
  });

  test("switched off in Settings, none are sent", async () => {
    expect((await admin.put("/api/admin/livestream-settings", { remindersEnabled: false })).status).toBe(200);
    const later = start + 7 * 24 * HOUR;
    await app.ctx.settings.update({ startDate: new Date(later).toISOString() });
    try {
      expect(await app.ctx.reminders.runDue(later - 10 * MINUTE)).toBe(0);
      expect((await admin.get("/api/admin/livestream-settings")).body.remindersEnabled).toBe(false);
    } finally {
      await app.ctx.settings.update({ startDate: new Date(start).toISOString(), remindersEnabled: true });
    }
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("two instances on one database", () => {
  test("each reminder is queued and sent once, whichever instance runs the schedule", async () => {
    const second = await startTestApp({ publicUrl: SITE, smtpUrl: smtp.url, databaseUrl: app.config.databaseUrl });
    try {
      const other = start + 14 * 24 * HOUR;
      await app.ctx.settings.update({ startDate: new Date(other).toISOString() });
      second.ctx.store.changedElsewhere();
      const counts = await Promise.all([
        app.ctx.reminders.runDue(other - 10 * MINUTE),
        second.ctx.reminders.runDue(other - 10 * MINUTE),
        app.ctx.reminders.runDue(other - 9 * MINUTE),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      await eventually(() => smtp.messages.find((m) => m.to.includes("tokyo@example.com") && m.text.includes("Friday, 15 November 2030")), 5000, "the reminder");
      await Promise.all([app.ctx.mail.processDue(), second.ctx.mail.processDue()]);
      await Bun.sleep(300);
      expect(smtp.messages.filter((m) => m.to.includes("tokyo@example.com") && m.text.includes("Friday, 15 November 2030"))).toHaveLength(1);
    } finally {
      await app.ctx.settings.update({ startDate: new Date(start).toISOString() });
      await second.close();
    }
  }, 20_000);
});
