/**
 * The night's phase through the app: one answer in GET /api/livestream-settings, what playback and the
 * purchase route do in each phase, the owner's open and end actions (audited, behind the roles, pushed to
 * open pages), the latest end, and closing after the replay's window.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { NOT_ON_SALE, REPLAY_NOT_READY } from "../../src/contracts/event-phase.ts";
import { loginAsAdmin, memberOf, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";
import { WsClient } from "../support/ws.ts";

let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  admin = await loginAsAdmin(app);
});
afterAll(async () => {
  await app?.close();
});

const HOUR = 3600_000;
const phaseNow = async () => (await app.client().get("/api/livestream-settings")).body as { phase: string; night: Record<string, unknown> };
const settings = (body: Record<string, unknown>) => admin.put("/api/admin/livestream-settings", body);
const buy = (client = app.client()) => client.post("/api/create-payment-intent", { amount: 100, product: "livestream-access" });

describe("the night's phase", () => {
  test("walks upcoming → pre-show → live → ended → live again → ended by its latest end, each page told", async () => {
    const { accessCode } = await buyDemoCode(app.client());
    const viewer = app.client();
    expect((await enter(viewer, accessCode, "Wren")).status).toBe(200);
    const ws = await WsClient.connect(app, viewer);

    // A fresh install: the start five days ahead, the doors not opened early, nothing to play yet.
    expect(await phaseNow()).toMatchObject({ phase: "upcoming", night: { onAir: false, openedAt: null, wentLiveAt: null, endedAt: null, onSale: true } });

    // The doors closed: upcoming; the viewer is given nothing to play.
    expect((await settings({ isActive: false })).status).toBe(200);
    expect((await ws.next("settings_update", (e) => e.settings.phase === "upcoming")).settings.isActive).toBe(false);
    expect((await phaseNow()).phase).toBe("upcoming");
    expect((await viewer.get("/api/stream/playback")).body.url).toBe("");

    // Opened early with a player to show: a pre-show, on air, pushed to the open page.
    const opened = await admin.post("/api/admin/event/open", {});
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ phase: "preshow", openedAt: expect.any(String) });
    expect((await settings({ embedUrl: "https://player.example.com/embed/9" })).status).toBe(200);
    const preshow = await ws.next("settings_update", (e) => e.settings.phase === "preshow" && e.settings.night.onAir);
    expect(preshow.settings.night.wentLiveAt).toBeNull();
    expect((await viewer.get("/api/stream/playback")).body.url).toBe("https://player.example.com/embed/9");

    // The start comes: live, and when it went live is written down.
    expect((await settings({ startDate: new Date(Date.now() - HOUR).toISOString() })).status).toBe(200);
    const live = await phaseNow();
    expect(live).toMatchObject({ phase: "live", night: { onAir: true, wentLiveAt: expect.any(String), onSale: true } });

    // The owner ends the night: nothing recorded, so the replay is being prepared; nothing is sold meanwhile.
    const ended = await admin.post("/api/admin/event/end", {});
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ phase: "ended", endedAt: expect.any(String), onSale: false });
    expect((await ws.next("settings_update", (e) => e.settings.phase === "ended")).settings.isActive).toBe(false);
    const over = (await viewer.get("/api/stream/playback")).body;
    expect(over).toMatchObject({ kind: "replay", url: "", nightEndedAt: ended.body.endedAt, replayComing: true });
    const refused = await buy();
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(REPLAY_NOT_READY);
    // Ended twice: refused, nothing changed.
    const again = await admin.post("/api/admin/event/end", {});
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("The night has already been ended.");

    // Without a replay: the night is over, and nothing is sold.
    expect((await settings({ replayEnabled: false })).status).toBe(200);
    expect((await viewer.get("/api/stream/playback")).body).toMatchObject({ kind: "replay", url: "", replayComing: false });
    expect((await buy()).body.error).toBe(NOT_ON_SALE);

    // Ended by mistake: opened again, live (it had gone live before).
    expect((await admin.post("/api/admin/event/open", {})).body).toMatchObject({ phase: "live", endedAt: null });
    expect((await buy()).status).toBe(200);

    // A latest end that has passed ends the night by itself.
    const latestEnd = new Date(Date.now() - HOUR / 2).toISOString();
    expect((await settings({ latestEnd })).status).toBe(200);
    expect(await phaseNow()).toMatchObject({ phase: "ended", night: { endedAt: latestEnd, latestEnd } });
    // One before the start is refused, with the field named.
    const early = await settings({ latestEnd: new Date(Date.now() - 2 * HOUR).toISOString() });
    expect(early.status).toBe(400);
    expect(early.body.error).toBe("The latest end must be after the start");
    expect((await settings({ latestEnd: null, replayEnabled: true })).status).toBe(200);

    // After the replay's window: closed, nothing sold.
    const later = await app.ctx.phases.view(Date.now() + 9 * 24 * HOUR);
    expect(later).toMatchObject({ phase: "live" });
    expect((await admin.post("/api/admin/event/end", {})).status).toBe(200);
    expect((await app.ctx.phases.view(Date.now() + 9 * 24 * HOUR)).phase).toBe("closed");
    expect((await app.ctx.phases.view(Date.now() + 9 * 24 * HOUR)).onSale).toBe(false);
    ws.close();

    // Each act is in the audit log, with the phase before and after.
    const audit = (await admin.get("/api/admin/audit-log")).body;
    const acts = (audit.entries ?? audit).filter((e: { action: string }) => e.action.startsWith("event."));
    expect(acts.map((e: { action: string }) => e.action).sort()).toEqual(["event.end", "event.end", "event.open", "event.open"]);
  });

  test("only members who run the event open or end it; no one signed out does", async () => {
    expect((await app.client().post("/api/admin/event/end", {})).status).toBe(401);
    const moderator = await memberOf(app, "nightwatch", "moderator");
    expect((await moderator.post("/api/admin/event/open", {})).status).toBe(403);
    expect((await moderator.post("/api/admin/event/end", {})).status).toBe(403);
  });
});
