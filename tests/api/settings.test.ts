import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAsAdmin, startTestApp, type TestApp } from "../harness.ts";
import { enter } from "../support/viewer.ts";

const EMBED = "https://player.example.com/embed/night";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const current = await app.ctx.settings.get();
  await app.ctx.settings.update({ ...current, embedUrl: EMBED });
});
afterAll(() => app.close());

describe("public livestream settings", () => {
  test("anyone reads the event's public fields, but not the stream link", async () => {
    const res = await app.client().get("/api/livestream-settings");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.body).toEqual({
      eventTitle: "DREADCAST: The Night It Streams",
      startDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      thumbnailUrl: "/assets/default-thumbnail.jpg",
      displayThumbnail: "/assets/default-thumbnail.jpg",
      thumbnailData: null,
      embedUrl: "",
      viewerCount: 0,
      currentDonation: 0,
      donationGoal: 5000,
      isActive: true,
      accessPrice: 100,
      currency: "gbp",
    });
    expect(Date.parse(res.body.startDate)).toBeGreaterThan(Date.now() + 4 * 24 * 3600_000);
  });

  test("a forged viewer cookie does not reveal the stream link", async () => {
    const res = await app.client().get("/api/livestream-settings", { cookie: `dreadcast_viewer=${"a".repeat(64)}` });
    expect(res.body.embedUrl).toBe("");
  });

  test("a viewer let in with a code gets the stream link", async () => {
    const viewer = app.client();
    const code = await app.ctx.access.issueAccessCode("SKP");
    await enter(viewer, code.code, "Watcher");
    expect((await viewer.get("/api/livestream-settings")).body.embedUrl).toBe(EMBED);
  });

  test("a banned viewer loses the stream link", async () => {
    const viewer = app.client();
    const code = await app.ctx.access.issueAccessCode("SKP");
    await enter(viewer, code.code, "Troll");
    await app.ctx.store.run("INSERT INTO banned_users (username, access_code_id, created_at) VALUES ('Troll', ?, 0)", code.id);
    expect((await viewer.get("/api/livestream-settings")).body.embedUrl).toBe("");
  });

  test("an admin gets the stream link", async () => {
    const admin = await loginAsAdmin(app);
    expect((await admin.get("/api/livestream-settings")).body.embedUrl).toBe(EMBED);
  });

  test("the viewer count comes from the provider the chat sets, the total from counted donations", async () => {
    app.ctx.settings.setViewerCountProvider(() => 42);
    const payment = (await app.ctx.store.get<{ id: number }>("INSERT INTO payments (intent_id, kind, amount, status, created_at, updated_at) VALUES ('pi_seed', 'donation', 1234, 'succeeded', ?, ?) RETURNING id", Date.now(), Date.now()))!;
    await app.ctx.store.run("INSERT INTO donations (payment_id, username, amount, created_at) VALUES (?, 'Seed', 1234, 0)", payment.id);
    const body = (await app.client().get("/api/livestream-settings")).body;
    expect(body.viewerCount).toBe(42);
    expect(body.currentDonation).toBe(1234);
  });

  test("the kept answer follows each change at once: viewer count, a donation, a saved setting, for viewers and the public alike", async () => {
    const admin = await loginAsAdmin(app);
    const read = async () => [(await app.client().get("/api/livestream-settings")).body, (await admin.get("/api/livestream-settings")).body];
    let viewers = 7;
    app.ctx.settings.setViewerCountProvider(() => viewers);
    for (const body of await read()) expect(body.viewerCount).toBe(7);
    viewers = 8;
    for (const body of await read()) expect(body.viewerCount).toBe(8);
    const before = (await read())[0].currentDonation;
    const payment = (await app.ctx.store.get<{ id: number }>("INSERT INTO payments (intent_id, kind, amount, status, created_at, updated_at) VALUES ('pi_kept', 'donation', 500, 'succeeded', ?, ?) RETURNING id", Date.now(), Date.now()))!;
    await app.ctx.store.run("INSERT INTO donations (payment_id, username, amount, created_at) VALUES (?, 'Kept', 500, 0)", payment.id);
    for (const body of await read()) expect(body.currentDonation).toBe(before + 500);
    await app.ctx.settings.update({ ...(await app.ctx.settings.get()), eventTitle: "The Second Night" });
    const [pub, adm] = await read();
    expect([pub.eventTitle, adm.eventTitle]).toEqual(["The Second Night", "The Second Night"]);
    expect([pub.embedUrl, adm.embedUrl]).toEqual(["", EMBED]);
    await app.ctx.settings.update({ ...(await app.ctx.settings.get()), eventTitle: "DREADCAST: The Night It Streams" });
  });

  test("a set thumbnail is what the banner displays", async () => {
    await app.ctx.settings.update({ ...(await app.ctx.settings.get()), thumbnailUrl: "/uploads/thumb.png" });
    const body = (await app.client().get("/api/livestream-settings")).body;
    expect(body.thumbnailUrl).toBe("/uploads/thumb.png");
    expect(body.displayThumbnail).toBe("/uploads/thumb.png");
  });
});
