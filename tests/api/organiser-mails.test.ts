import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../support/smtp.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";

const SITE = "https://night.dreadcast.test";
const ORGANISER = {
  organizerName: "Night Owl Events",
  contactEmail: "help@nightowl.example",
  privacyUrl: "https://nightowl.example/privacy",
  termsUrl: "https://nightowl.example/terms",
};
/** The built index.html as scripts/build-web.ts leaves it, standing in for the web app. */
const INDEX = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>DREADCAST</title></head><body><div id="root"></div></body></html>`;

let app: TestApp;
let smtp: TestSmtpServer;
let admin: TestClient;
const today = () => {
  const d = new Date();
  return `${d.getUTCDate()} ${d.toLocaleString("en-GB", { month: "long", timeZone: "UTC" })} ${d.getUTCFullYear()}`;
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ publicUrl: SITE, smtpUrl: smtp.url }, { page: INDEX });
  admin = await loginAsAdmin(app);
  await app.ctx.settings.update({ eventTitle: "Hollow Farm", startDate: "2030-10-31T21:00:00.000Z", accessPrice: 750, ...ORGANISER });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

/** The seller's part every mail to a buyer ends with, in the text and as links in the HTML. */
function expectSeller(mail: ReceivedMail) {
  expect(mail.text).toContain("Sold by: Night Owl Events");
  expect(mail.text).toContain("Contact: help@nightowl.example");
  expect(mail.text).toContain("Privacy policy: https://nightowl.example/privacy");
  expect(mail.text).toContain("Terms of service: https://nightowl.example/terms");
  expect(mail.html).toContain('<a href="mailto:help@nightowl.example" style="color:#f87171;">help@nightowl.example</a>');
  expect(mail.html).toContain('<a href="https://nightowl.example/privacy" style="color:#f87171;">Privacy policy</a>');
  expect(mail.html).toContain('<a href="https://nightowl.example/terms" style="color:#f87171;">Terms of service</a>');
}

/** The text part with its lines joined by \n (SMTP sends CRLF). */
const lines = (mail: ReceivedMail) => mail.text.replace(/\r\n/g, "\n");

const mailWith = (subject: string, code: string) => smtp.waitFor((m) => m.subject === subject && m.text.includes(code));

describe("every mail to a buyer speaks for the organiser", () => {
  test("the purchase mail says what was paid and when, who sells the pass, how to reach them, and links their privacy policy and terms", async () => {
    const { accessCode } = await buyDemoCode(app.client(), "buyer@example.com");
    const mail = await mailWith("Your DREADCAST access code", accessCode);
    expect(mail.text).toContain(`Paid: £7.50 on ${today()}`);
    expect(mail.html).toContain('Paid: <strong style="color:#e5e5e5;">£7.50 on');
    expectSeller(mail);
  });

  test("the lost-code mail carries the same, for the one pass bought with the address", async () => {
    const { accessCode } = await buyDemoCode(app.client(), "forgetful@example.com");
    await mailWith("Your DREADCAST access code", accessCode);
    expect((await app.client().post("/api/lost-code", { email: "forgetful@example.com" })).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.text.startsWith("You asked for the access code") && m.text.includes(accessCode));
    expect(mail.text).toContain(`Paid: £7.50 on ${today()}`);
    expectSeller(mail);
  });

  test("a code an admin made and sent names no payment, and still who sells the event and how to reach them", async () => {
    const made = await admin.post("/api/admin/generate-access-code", { email: "guest@example.com" });
    expect(made.status).toBe(201);
    const mail = await mailWith("Your DREADCAST access code", made.body.code);
    expect(mail.text).not.toContain("Paid:");
    expectSeller(mail);
  });

  test("before the organiser is named, the mail says it is the event's organiser and the site is the way to reach them", async () => {
    await app.ctx.settings.update({ organizerName: "", contactEmail: "", privacyUrl: "", termsUrl: "" });
    try {
      const { accessCode } = await buyDemoCode(app.client(), "early@example.com");
      const mail = await mailWith("Your DREADCAST access code", accessCode);
      expect(mail.text).toContain("Sold by: the organiser of Hollow Farm");
      expect(mail.text).toContain(`Contact: ${SITE}/`);
      expect(mail.text).not.toContain("Privacy policy:");
    } finally {
      await app.ctx.settings.update(ORGANISER);
    }
  });

  test("the reminder carries the organiser's contact, their legal pages and what was paid", async () => {
    const { accessCode } = await buyDemoCode(app.client(), "reminded@example.com");
    expect(await app.ctx.reminders.runDue(Date.parse("2030-10-31T21:00:00.000Z") - 20 * 3_600_000)).toBeGreaterThan(0);
    const mail = await smtp.waitFor((m) => m.subject === "Hollow Farm starts in 20 hours" && m.text.includes(accessCode));
    expect(mail.text).toContain(`Paid: £7.50 on ${today()}`);
    expectSeller(mail);
  });

  test("/event.ics names the organiser, by name and contact address", async () => {
    const text = await (await fetch(`${app.url}/event.ics`)).text();
    const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!;
    const organizer = event.getFirstProperty("organizer")!;
    expect(organizer.getFirstValue()).toBe("mailto:help@nightowl.example");
    expect(organizer.getParameter("cn")).toBe("Night Owl Events");
  });
});

describe("each refund is mailed", () => {
  test("partial refunds say what came back and what is left, the pass keeps working; the last one refunds it in full", async () => {
    const buyer = app.client();
    const { accessCode, paymentIntentId } = await buyDemoCode(buyer, "partly@example.com");
    await mailWith("Your DREADCAST access code", accessCode);
    const refund = (amount: number | undefined, expectedRefunded: number) => admin.post("/api/admin/payments/refund", { paymentIntentId, amount, expectedRefunded });

    expect((await refund(300, 0)).status).toBe(200);
    const first = await mailWith("Part of your DREADCAST access pass has been refunded", accessCode);
    expect(first.to).toEqual(["partly@example.com"]);
    expect(first.text).toContain("£3.00 of the £7.50 you paid for your access pass has been refunded: it is on its way back to your card. £4.50 stays paid.");
    expect(first.text).toContain("Your code keeps working");
    expect(lines(first)).toContain("Paid: £7.50\nRefunded now: £3.00\nLeft paid: £4.50");
    expectSeller(first);
    expect((await enter(buyer, accessCode, "PartlyBack")).body.valid).toBe(true);

    expect((await refund(200, 300)).status).toBe(200);
    const second = await smtp.waitFor((m) => m.subject === "Part of your DREADCAST access pass has been refunded" && m.text.includes(accessCode) && m !== first);
    expect(lines(second)).toContain("Paid: £7.50\nRefunded now: £2.00\nRefunded in all: £5.00\nLeft paid: £2.50");

    expect((await refund(undefined, 500)).status).toBe(200);
    const last = await mailWith("Your DREADCAST access pass has been refunded", accessCode);
    expect(last.text).toContain("Your access pass has been refunded: £7.50 is on its way back to your card.");
    expect(lines(last)).toContain("Paid: £7.50\nRefunded now: £2.50\nRefunded in all: £7.50\nLeft paid: £0.00");
    expectSeller(last);

    // Each refund once: settling the payment again (a webhook's repeat) mails nothing more.
    await app.ctx.ledger.settle(paymentIntentId, SITE, true);
    await Bun.sleep(300);
    expect(smtp.messages.filter((m) => m.text.includes(accessCode) && m.subject.includes("refunded")).map((m) => m.subject)).toEqual([
      "Part of your DREADCAST access pass has been refunded",
      "Part of your DREADCAST access pass has been refunded",
      "Your DREADCAST access pass has been refunded",
    ]);
  });
});

describe("the invite mail", () => {
  test("names the event and its organiser, has a real link in its HTML, and speaks to someone not on the team yet", async () => {
    const invite = await admin.post("/api/admin/team/invites", { email: "newcomer@example.com", role: "moderator" });
    expect(invite.status).toBe(201);
    const url: string = invite.body.inviteUrl;
    const mail = await smtp.waitFor((m) => m.to.includes("newcomer@example.com"));
    expect(mail.subject).toBe("You are invited to the admin team of Hollow Farm");
    expect(mail.text).toContain("warden invited you to join the admin team of Hollow Farm, run by Night Owl Events, as Moderator.");
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(`<a href="${url}"`);
    expect(mail.html).toContain("JOIN THE TEAM");
    expect(mail.html).toContain("You received this because a member of the admin team of Hollow Farm invited this address.");
    expect(mail.html).not.toContain("belongs to a member");
  });
});

describe("the unsubscribe page", () => {
  test("leads back to the site and the organiser, and opened again after unsubscribing says the reminders are already off", async () => {
    const reminder = smtp.messages.find((m) => m.subject === "Hollow Farm starts in 20 hours")!;
    const link = /No more reminders for this pass: (\S+)/.exec(reminder.text)![1]!.replace(SITE, app.url);
    const ask = await (await fetch(link)).text();
    expect(ask).toContain("Stop the reminders?");
    expect(ask).toContain(`<a href="${SITE}/">Back to Hollow Farm</a>`);
    expect(ask).toContain('Write to Night Owl Events at <a href="mailto:help@nightowl.example">help@nightowl.example</a>');
    expect((await fetch(link, { method: "POST" })).status).toBe(200);
    const again = await fetch(link);
    expect(again.status).toBe(200);
    const page = await again.text();
    expect(page).toContain("Reminders were already off");
    expect(page).not.toContain("Stop the reminders?");
    expect(page).not.toContain("<form");
    expect(page).toContain(`<a href="${SITE}/">Back to Hollow Farm</a>`);
  });
});

describe("the not-found page", () => {
  test("is answered with 404 for any path the app has no page at, public or under /admin, with the same page", async () => {
    for (const path of ["/nope", "/admin/nope", "/livestream/extra", "/admin/invite", "/admin/invite/a/b"]) {
      const res = await fetch(app.url + path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(await res.text()).toBe(INDEX);
      expect(res.headers.get("content-type")).toContain("text/html");
    }
  });

  test("every page of the app is answered with 200, in any case and with a trailing slash, as its router matches", async () => {
    for (const path of ["/", "/access", "/checkout-success", "/LIVESTREAM/", "/admin", "/admin/login/", "/admin/invite/0123abcd", "/design", "/layout-test"]) {
      const res = await fetch(app.url + path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });
});
