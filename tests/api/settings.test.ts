import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAsAdmin, startTestApp, type TestApp } from "../support/app.ts";
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
      organizer: { organizerName: "", contactEmail: "", privacyUrl: "", termsUrl: "", socialLinks: { instagram: "", youtube: "", tiktok: "", x: "", discord: "" } },
      salesOpen: true,
      replayEnabled: true,
      replayUntil: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      // A fresh install: five days ahead, nothing opened early, nothing to play.
      phase: "upcoming",
      night: { onAir: false, openedAt: null, wentLiveAt: null, endedAt: null, latestEnd: null, onSale: true, cancelledAt: null, cancelNote: "" },
    });
    expect(Date.parse(res.body.startDate)).toBeGreaterThan(Date.now() + 4 * 24 * 3600_000);
    // Without a date set, the replay is offered for seven days after the start.
    expect(Date.parse(res.body.replayUntil) - Date.parse(res.body.startDate)).toBe(7 * 24 * 3600_000);
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
    const payment = (await app.ctx.store.get<{ id: number }>(
      "INSERT INTO payments (intent_id, kind, amount, status, created_at, updated_at) VALUES ('pi_seed', 'donation', 1234, 'succeeded', ?, ?) RETURNING id",
      Date.now(),
      Date.now(),
    ))!;
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
    const payment = (await app.ctx.store.get<{ id: number }>(
      "INSERT INTO payments (intent_id, kind, amount, status, created_at, updated_at) VALUES ('pi_kept', 'donation', 500, 'succeeded', ?, ?) RETURNING id",
      Date.now(),
      Date.now(),
    ))!;
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

describe("admin livestream settings: a save writes only what it sends", () => {
  const FULL_BODY = {
    eventTitle: "The Hollow Night",
    thumbnailUrl: "/assets/default-thumbnail.jpg",
    embedUrl: "https://player.example.com/embed/hollow",
    donationGoal: 7500,
    isActive: true,
    startDate: "2031-10-31T21:30:00.000Z",
  };

  test("a body with every event field is saved as sent", async () => {
    const admin = await loginAsAdmin(app);
    const res = await admin.put("/api/admin/livestream-settings", FULL_BODY);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(FULL_BODY);
    expect((await admin.get("/api/admin/livestream-settings")).body).toMatchObject(FULL_BODY);
  });

  test("a title saved after the stream source changed leaves the new player in place", async () => {
    const admin = await loginAsAdmin(app);
    const loaded = (await admin.get("/api/admin/livestream-settings")).body;
    expect((await admin.put("/api/admin/stream-source", { kind: "embed", embedUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" })).status).toBe(200);
    const res = await admin.put("/api/admin/livestream-settings", { eventTitle: "Renamed Night" });
    expect(res.status).toBe(200);
    const saved = (await admin.get("/api/admin/livestream-settings")).body;
    expect(saved.eventTitle).toBe("Renamed Night");
    expect(saved.embedUrl).toBe("https://www.youtube.com/embed/dQw4w9WgXcQ");
    expect({ ...saved, eventTitle: loaded.eventTitle, embedUrl: loaded.embedUrl }).toEqual(loaded);
    await admin.put("/api/admin/livestream-settings", { eventTitle: "DREADCAST: The Night It Streams", embedUrl: EMBED });
  });

  test("an empty body changes nothing; a bad field is refused and nothing else is written", async () => {
    const admin = await loginAsAdmin(app);
    const before = (await admin.get("/api/admin/livestream-settings")).body;
    expect((await admin.put("/api/admin/livestream-settings", {})).body).toEqual(before);
    const res = await admin.put("/api/admin/livestream-settings", { eventTitle: "Half Saved", donationGoal: 50 });
    expect(res.status).toBe(400);
    expect(res.text).toContain("Donation goal must be at least 1");
    expect((await admin.get("/api/admin/livestream-settings")).body).toEqual(before);
  });
});

describe("the organiser's details", () => {
  const NONE = { instagram: "", youtube: "", tiktok: "", x: "", discord: "" };

  test("start empty, are saved by the admin and shown to everyone", async () => {
    const admin = await loginAsAdmin(app);
    expect((await admin.get("/api/admin/livestream-settings")).body).toMatchObject({ organizerName: "", contactEmail: "", privacyUrl: "", termsUrl: "", socialLinks: NONE });
    const res = await admin.put("/api/admin/livestream-settings", {
      organizerName: "Night Owl Events",
      contactEmail: " help@nightowl.example ",
      privacyUrl: "https://nightowl.example/privacy",
      termsUrl: "https://nightowl.example/terms",
      socialLinks: { instagram: "https://www.instagram.com/nightowl", discord: "https://discord.gg/abc123" },
    });
    expect(res.status).toBe(200);
    const organizer = {
      organizerName: "Night Owl Events",
      contactEmail: "help@nightowl.example",
      privacyUrl: "https://nightowl.example/privacy",
      termsUrl: "https://nightowl.example/terms",
      socialLinks: { ...NONE, instagram: "https://www.instagram.com/nightowl", discord: "https://discord.gg/abc123" },
    };
    expect(res.body).toMatchObject(organizer);
    expect((await app.client().get("/api/livestream-settings")).body.organizer).toEqual(organizer);

    // Only the networks sent change; "" clears one.
    await admin.put("/api/admin/livestream-settings", { socialLinks: { x: "https://x.com/nightowl", instagram: "" } });
    expect((await app.client().get("/api/livestream-settings")).body.organizer.socialLinks).toEqual({ ...NONE, discord: "https://discord.gg/abc123", x: "https://x.com/nightowl" });
  });

  test.each([
    ["an e-mail that is not one", { contactEmail: "help@" }, "Please enter a valid email address"],
    ["a privacy policy that is not a web page", { privacyUrl: "javascript:alert(1)" }, "Privacy policy link must be an http:// or https:// address"],
    ["terms on ftp", { termsUrl: "ftp://nightowl.example/terms" }, "Terms of service link must be an http:// or https:// address"],
    ["an Instagram link elsewhere", { socialLinks: { instagram: "https://evil.example/instagram.com" } }, "The Instagram link must be on instagram.com"],
    ["a TikTok link that is no address", { socialLinks: { tiktok: "tiktok.com/@nightowl" } }, "The TikTok link must be an http:// or https:// address"],
    ["a name too long", { organizerName: "x".repeat(201) }, "Organiser name must be 200 characters or less"],
    ["an event title too long", { eventTitle: "x".repeat(201) }, "Event title must be 200 characters or less"],
    ["a thumbnail path too long", { thumbnailUrl: `/${"x".repeat(2000)}` }, "Thumbnail path must be 2,000 characters or less"],
    ["an embed URL too long", { embedUrl: `https://player.example/${"x".repeat(2000)}` }, "Embed URL must be 2,000 characters or less"],
    ["a terms link too long", { termsUrl: `https://nightowl.example/${"x".repeat(2000)}` }, "Terms of service link must be 2,000 characters or less"],
    ["a contact e-mail too long", { contactEmail: `${"x".repeat(250)}@example.com` }, "Contact e-mail must be 254 characters or less"],
  ])("refuses %s with a 400 that says why", async (_, body, message) => {
    const admin = await loginAsAdmin(app);
    const before = (await admin.get("/api/admin/livestream-settings")).body;
    const res = await admin.put("/api/admin/livestream-settings", body);
    expect(res.status).toBe(400);
    expect(res.text).toContain(message);
    expect((await admin.get("/api/admin/livestream-settings")).body).toEqual(before);
  });
});

describe("Livestream active", () => {
  test("off: viewers get no player (settings, playback, the pages told live); on again: back", async () => {
    const admin = await loginAsAdmin(app);
    const viewer = app.client();
    await enter(viewer, (await app.ctx.access.issueAccessCode("SKP")).code, "Early");
    expect((await admin.put("/api/admin/stream-source", { kind: "embed", embedUrl: EMBED })).status).toBe(200);
    expect((await viewer.get("/api/stream/playback")).body.url).toBe(EMBED);

    expect((await admin.put("/api/admin/livestream-settings", { isActive: false })).status).toBe(200);
    const settings = (await viewer.get("/api/livestream-settings")).body;
    expect([settings.isActive, settings.embedUrl]).toEqual([false, ""]);
    expect((await viewer.get("/api/stream/playback")).body.url).toBe("");
    expect((await admin.get("/api/admin/livestream-settings")).body.embedUrl).toBe(EMBED);

    expect((await admin.put("/api/admin/livestream-settings", { isActive: true })).status).toBe(200);
    expect((await viewer.get("/api/livestream-settings")).body.embedUrl).toBe(EMBED);
    expect((await viewer.get("/api/stream/playback")).body.url).toBe(EMBED);
  });
});
