import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LOST_CODE_MESSAGE } from "../../src/contracts/access.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { freePort } from "../support/free-port.mjs";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";

describe("with an SMTP server", () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ smtpUrl: smtp.url, mailFrom: "crypt@dreadcast.test", trustProxy: ["127.0.0.1"] });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  test("a purchase with an e-mail address sends the code, themed, with the site link", async () => {
    const { accessCode } = await buyDemoCode(app.client(), "mortal@example.com");
    const mail = await smtp.waitFor((m) => m.text.includes(accessCode));
    expect(mail.to).toEqual(["mortal@example.com"]);
    expect(mail.from).toBe("crypt@dreadcast.test");
    expect(mail.subject).toBe("Your DREADCAST access code");
    expect(mail.text).toContain("Keep this code safe. It can only be used on one device.");
    expect(mail.text).toContain(`${app.url}/access`);
    expect(mail.html).toContain(accessCode);
    expect(mail.html).toContain("ENTER THE DARKNESS");
  });

  test("the code e-mail names the organiser's contact address once it is set", async () => {
    const first = await buyDemoCode(app.client(), "early@example.com");
    expect((await smtp.waitFor((m) => m.text.includes(first.accessCode))).text).not.toContain("Write to");
    await app.ctx.settings.update({ organizerName: "Night Owl Events", contactEmail: "help@nightowl.example" });
    const { accessCode } = await buyDemoCode(app.client(), "asker@example.com");
    const mail = await smtp.waitFor((m) => m.text.includes(accessCode));
    expect(mail.text).toContain("Questions, or watching on a new device? Write to Night Owl Events at help@nightowl.example and quote your access code.");
    expect(mail.html).toContain('<a href="mailto:help@nightowl.example"');
    await app.ctx.settings.update({ organizerName: "", contactEmail: "" });
  });

  test("the code e-mail gives the event's title and its start date and time in UTC, the zone named", async () => {
    const before = await app.ctx.settings.get();
    // 01:30 in a zone two hours ahead of UTC is 23:30 UTC the day before.
    await app.ctx.settings.update({ eventTitle: "Hollow Farm <Live> & Uncut", startDate: "2026-11-01T01:30:00+02:00" });
    try {
      const { accessCode } = await buyDemoCode(app.client(), "calendar@example.com");
      const mail = await smtp.waitFor((m) => m.text.includes(accessCode));
      expect(mail.text).toMatch(/^Event: Hollow Farm <Live> & Uncut\r?\nStarts: Saturday 31 October 2026, 23:30 UTC\r?$/m);
      expect(mail.text).toContain(`(the countdown at ${app.url}/ shows the start in your own time zone)`);
      expect(mail.html).toContain("Hollow Farm &lt;Live&gt; &amp; Uncut");
      expect(mail.html).toContain("Saturday 31 October 2026, 23:30 UTC");
      expect(mail.html).not.toContain("<Live>");
    } finally {
      await app.ctx.settings.update({ eventTitle: before.eventTitle, startDate: before.startDate });
    }
  });

  test("an address given when entering a code without one gets the code once", async () => {
    const code = await app.ctx.access.issueAccessCode("SKP");
    await enter(app.client(), code.code, "Latecomer", undefined, "late@example.com");
    await enter(app.client(), code.code, "Latecomer", undefined, "late@example.com");
    await smtp.waitFor((m) => m.text.includes(code.code));
    await Bun.sleep(300);
    expect(smtp.messages.filter((m) => m.text.includes(code.code))).toHaveLength(1);
  });

  describe("lost code", () => {
    const lost = (email: string, ip = "192.0.2.1") => app.client().post("/api/lost-code", { email }, { "x-forwarded-for": ip });

    test("a known address gets one e-mail listing its codes", async () => {
      const first = await buyDemoCode(app.client(), "forgetful@example.com");
      const second = await buyDemoCode(app.client(), "Forgetful@Example.com");
      const res = await lost("FORGETFUL@example.com");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, message: LOST_CODE_MESSAGE });
      const mail = await smtp.waitFor((m) => m.to[0]?.toLowerCase() === "forgetful@example.com" && m.text.includes("You asked for"));
      expect(mail.text).toContain(first.accessCode);
      expect(mail.text).toContain(second.accessCode);
    });

    test("an unknown address gets exactly the same answer and no e-mail", async () => {
      const before = smtp.messages.length;
      const res = await lost("stranger@example.com", "192.0.2.2");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, message: LOST_CODE_MESSAGE });
      await Bun.sleep(300);
      expect(smtp.messages.slice(before).filter((m) => m.to.includes("stranger@example.com"))).toHaveLength(0);
    });

    test("a bad address is a 400", async () => {
      const res = await lost("nope", "192.0.2.3");
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Please enter a valid email address");
    });

    test("asking again and again for one address sends at most three e-mails an hour, with the same answer", async () => {
      await buyDemoCode(app.client(), "spammed@example.com");
      for (let i = 0; i < 6; i++) {
        const res = await lost("spammed@example.com", `192.0.2.${10 + i}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true, message: LOST_CODE_MESSAGE });
      }
      await eventually(() => smtp.messages.filter((m) => m.to.includes("spammed@example.com") && m.text.includes("You asked for")).length === 3);
      await Bun.sleep(300);
      expect(smtp.messages.filter((m) => m.to.includes("spammed@example.com") && m.text.includes("You asked for"))).toHaveLength(3);
    });

    test("one address asking for many mailboxes is rate-limited with 429", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await lost(`someone${i}@example.com`, "192.0.2.99")).status);
      expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
    });
  });
});

test("a code e-mail is not lost while SMTP is down and goes out once it is back", async () => {
  const port = await freePort();
  const app = await startTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
  let smtp: TestSmtpServer | undefined;
  try {
    const { accessCode } = await buyDemoCode(app.client(), "patient@example.com");
    expect(accessCode).toMatch(/^SKP-/);
    const row = async () =>
      (await app.ctx.store.get<{ status: string; attempts: number; last_error: string | null }>(
        "SELECT status, attempts, last_error FROM email_queue WHERE to_address = 'patient@example.com'",
      ))!;
    await eventually(async () => (await row()).attempts >= 1);
    expect((await row()).status).toBe("pending");
    expect((await row()).last_error).toBeTruthy();

    smtp = await startSmtpServer(port);
    const mail = await smtp.waitFor((m) => m.text.includes(accessCode), 10_000);
    expect(mail.to).toEqual(["patient@example.com"]);
    await eventually(async () => (await row()).status === "sent");
    await Bun.sleep(1500);
    expect(smtp.messages.filter((m) => m.text.includes(accessCode))).toHaveLength(1);
  } finally {
    await app.close();
    await smtp?.close();
  }
}, 20_000);

test("without SMTP the e-mail lands in the outbox folder as an .eml file", async () => {
  const app = await startTestApp();
  try {
    const { accessCode } = await buyDemoCode(app.client(), "offline@example.com");
    const outbox = join(app.config.dataDir, "outbox");
    const file = await eventually(() => {
      try {
        return readdirSync(outbox).find((f) => f.endsWith(".eml"));
      } catch {
        return undefined;
      }
    });
    const eml = readFileSync(join(outbox, file), "utf8");
    expect(eml).toContain("To: offline@example.com");
    expect(eml).toContain("Subject: Your DREADCAST access code");
    expect(eml).toContain(accessCode);
    // The file is written first, then the message is marked sent.
    await eventually(async () => (await app.ctx.mail.counts()).sent === 1);
    expect(await app.ctx.mail.counts()).toEqual({ pending: 0, sent: 1, failed: 0 });
  } finally {
    await app.close();
  }
});
