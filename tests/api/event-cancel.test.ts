/**
 * The owner cancels the event before it went live: behind the roles and audited, refused when it has gone
 * live or is cancelled already, and for a bad note; then nothing is sold, pass holders are given nothing to
 * play, the reminders stop, every buyer with an address is written to once (the owner's note, their code,
 * the calendar cancellation), and open pages are told. Opening the doors takes it back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CANCELLED_NOT_ON_SALE } from "../../src/contracts/event-phase.ts";
import { loginAsAdmin, memberOf, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";
import { WsClient } from "../support/ws.ts";

const HOUR = 3600_000;
let smtp: TestSmtpServer;
let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ smtpUrl: smtp.url, mailFrom: "crypt@dreadcast.test" });
  admin = await loginAsAdmin(app);
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const phaseNow = async () => (await app.client().get("/api/livestream-settings")).body as { phase: string; night: Record<string, unknown> };
const settings = (body: Record<string, unknown>) => admin.put("/api/admin/livestream-settings", body);
const buy = () => app.client().post("/api/create-payment-intent", { amount: 100, product: "livestream-access" });

describe("cancelling the event", () => {
  test("only members who run the event cancel it, and a bad note is refused saying why", async () => {
    expect((await app.client().post("/api/admin/event/cancel", {})).status).toBe(401);
    const moderator = await memberOf(app, "gravekeeper", "moderator");
    expect((await moderator.post("/api/admin/event/cancel", {})).status).toBe(403);
    const long = await admin.post("/api/admin/event/cancel", { note: "x".repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("The note must be 500 characters or less");
    const notText = await admin.post("/api/admin/event/cancel", { note: 7 });
    expect(notText.status).toBe(400);
    expect(notText.body.error).toContain("The note must be text");
    // Nothing was cancelled by any of them.
    expect((await phaseNow()).night.cancelledAt).toBeNull();
  });

  test("stops the sales, the player and the reminders, tells the open pages and writes to every buyer once; opening the doors takes it back", async () => {
    const start = Date.now() + 10 * 60_000;
    expect(
      (await settings({ eventTitle: "Hollow Farm", startDate: new Date(start).toISOString(), organizerName: "Night Owl Events", contactEmail: "help@nightowl.example" })).status,
    ).toBe(200);
    const first = await buyDemoCode(app.client(), "wren@example.com");
    const second = await buyDemoCode(app.client(), "rook@example.com");
    await buyDemoCode(app.client());
    const viewer = app.client();
    expect((await enter(viewer, first.accessCode, "Wren")).status).toBe(200);
    const ws = await WsClient.connect(app, viewer);
    const before = await phaseNow();
    expect(before.phase).toBe("upcoming");

    const note = "The barn flooded.\nEvery pass is being refunded this week.";
    const cancelled = await admin.post("/api/admin/event/cancel", { note: `  ${note}  ` });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ phase: "closed", onSale: false, cancelledAt: expect.any(String), cancelNote: note });
    const pushed = await ws.next("settings_update", (e) => e.settings.phase === "closed");
    expect(pushed.settings.night).toMatchObject({ cancelledAt: cancelled.body.cancelledAt, cancelNote: note });
    expect(await phaseNow()).toMatchObject({ phase: "closed", night: { cancelledAt: cancelled.body.cancelledAt, cancelNote: note, onSale: false } });

    // Nothing is sold; a pass holder is told there is nothing to play, and why.
    const refused = await buy();
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(CANCELLED_NOT_ON_SALE);
    expect((await viewer.get("/api/stream/playback")).body).toMatchObject({
      kind: "replay",
      url: "",
      cancelled: true,
      replayComing: false,
      nightEndedAt: cancelled.body.cancelledAt,
    });
    // The reminder due 15 minutes before the start is not sent for an event called off.
    expect(await app.ctx.reminders.runDue(start - 5 * 60_000)).toBe(0);

    // Each buyer with an address: the owner's note, their code to quote, the calendar entry taken out.
    for (const [email, code] of [
      ["wren@example.com", first.accessCode],
      ["rook@example.com", second.accessCode],
    ] as const) {
      const mail = await smtp.waitFor((m) => m.to.includes(email) && m.subject === "Cancelled: Hollow Farm");
      expect(mail.text).toContain("has been cancelled.");
      expect(mail.text).toContain("> The barn flooded.");
      expect(mail.text).toContain("> Every pass is being refunded this week.");
      expect(mail.text).toContain(`Access code: ${code}`);
      expect(mail.text).toContain("Write to Night Owl Events at help@nightowl.example and quote your access code.");
      expect(mail.html).toContain("A WORD FROM NIGHT OWL EVENTS");
      expect(mail.calendars).toHaveLength(1);
      expect(mail.calendars[0]!.content).toContain("METHOD:CANCEL");
      expect(mail.calendars[0]!.content).toContain("STATUS:CANCELLED");
    }
    // Told once: another run (a retry, a second instance) queues nothing.
    expect(await app.ctx.cancellations.tellBuyers()).toBe(0);

    // Cancelled twice: refused, nothing changed.
    const again = await admin.post("/api/admin/event/cancel", {});
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("The event has already been cancelled.");

    // In the audit log, with the phase before and after and the note.
    const audit = (await admin.get("/api/admin/audit-log")).body;
    const act = (audit.entries ?? audit).find((e: { action: string }) => e.action === "event.cancel");
    expect(act).toBeDefined();
    expect(JSON.stringify(act)).toContain("The barn flooded.");

    // Taken back: the doors open, the note gone, passes sold again.
    const reopened = await admin.post("/api/admin/event/open", {});
    expect(reopened.body).toMatchObject({ phase: "preshow", cancelledAt: null, cancelNote: "", onSale: true });
    expect((await buy()).status).toBe(200);
    ws.close();
  });

  test("a night that went live is ended, not cancelled", async () => {
    expect((await settings({ startDate: new Date(Date.now() - HOUR).toISOString(), embedUrl: "https://player.example.com/embed/3" })).status).toBe(200);
    expect((await admin.post("/api/admin/event/open", {})).status).toBe(200);
    expect((await phaseNow()).night.wentLiveAt).toEqual(expect.any(String));
    const refused = await admin.post("/api/admin/event/cancel", {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("The night has already gone live: end it instead.");
    expect((await phaseNow()).phase).toBe("live");
  });
});
