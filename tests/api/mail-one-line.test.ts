/**
 * One-line fields stay one line in the mails: the event's title and the organiser's name with a line break
 * are refused on save (400, nothing written), and one stored before that reaches the code e-mail and the
 * reminders as one line, so no line of its own (a fake "Bcc:") is drawn into the message as received.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../support/smtp.ts";
import { buyDemoCode } from "../support/viewer.ts";

const HOUR = 3_600_000;
const MINUTE = 60_000;
const VICTIM = "victim@example.com";

let app: TestApp;
let smtp: TestSmtpServer;
let admin: TestClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ smtpUrl: smtp.url, mailFrom: "crypt@dreadcast.test" });
  admin = await loginAsAdmin(app);
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

/** Every line of the message as received, headers, parts and attachments alike. */
const rawLines = (mail: ReceivedMail) => mail.raw.split(/\r?\n/);
/** Lines the stored values would begin: a Bcc, a second Subject, a body of their own. */
const injected = (mail: ReceivedMail) => {
  const lines = rawLines(mail);
  return [...lines.filter((line) => /^(bcc\s*:|evil)/i.test(line)), ...lines.filter((line) => /^subject\s*:/i.test(line)).slice(1)];
};

describe("one-line fields in the mails", () => {
  test("a line break or control character in the event's title or the organiser's name is refused on save, naming the field", async () => {
    const before = await app.ctx.settings.get();
    const cases: [field: "eventTitle" | "organizerName", value: string, error: string][] = [];
    for (const breaker of ["\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085", "\t", "\u0000", "\u001b", "\u007f"]) {
      cases.push(["eventTitle", `Hollow Farm${breaker}Bcc: ${VICTIM}`, "Event title must be one line, without line breaks or control characters"]);
      cases.push(["organizerName", `Night Owl${breaker}Bcc: ${VICTIM}`, "Organiser name must be one line, without line breaks or control characters"]);
    }
    for (const [field, value, error] of cases) {
      const res = await admin.put("/api/admin/livestream-settings", { [field]: value });
      expect({ field, value, status: res.status, error: res.body?.error }).toEqual({ field, value, status: 400, error });
    }
    const after = await app.ctx.settings.get();
    expect([after.eventTitle, after.organizerName]).toEqual([before.eventTitle, before.organizerName]);
    // Space at either end is trimmed as before; one line is saved as it is.
    expect((await admin.put("/api/admin/livestream-settings", { eventTitle: "  Hollow Farm\n", organizerName: "Night Owl Events" })).status).toBe(200);
    expect((await app.ctx.settings.get()).eventTitle).toBe("Hollow Farm");
  });

  test("a title and an organiser's name stored with line breaks reach the code e-mail and the reminder as one line each", async () => {
    // As a value saved before line breaks were refused is stored: straight through the settings service.
    const start = Date.now() + 20 * HOUR;
    await app.ctx.settings.update({
      eventTitle: `Hollow Farm\r\nBcc: ${VICTIM}\r\nSubject: evil`,
      organizerName: `Night Owl\r\nBcc: ${VICTIM}\n\nevil body`,
      contactEmail: "help@nightowl.example",
      startDate: new Date(start).toISOString(),
    });
    const { accessCode } = await buyDemoCode(app.client(), "buyer@example.com");
    const code = await smtp.waitFor((m) => m.text.includes(accessCode) && m.subject === "Your DREADCAST access code");
    expect(injected(code)).toEqual([]);
    expect(code.text).toMatch(/^Event: Hollow Farm Bcc: victim@example\.com Subject: evil\r?$/m);
    expect(code.text).toContain("Write to Night Owl Bcc: victim@example.com evil body at help@nightowl.example and quote your access code.");
    expect(code.html).toContain("Hollow Farm Bcc: victim@example.com Subject: evil");
    expect(code.to).toEqual(["buyer@example.com"]);

    expect(await app.ctx.reminders.runDue(start - 10 * MINUTE)).toBe(1);
    const reminder = await smtp.waitFor((m) => m.to.includes("buyer@example.com") && m.subject.includes(" starts in "));
    expect(injected(reminder)).toEqual([]);
    expect(reminder.subject).toBe("Hollow Farm Bcc: victim@example.com Subject: evil starts in 10 minutes");
    // Nothing went anywhere but to the buyer.
    expect(smtp.messages.filter((m) => m.to.some((to) => to.toLowerCase() === VICTIM))).toEqual([]);
  });
});
