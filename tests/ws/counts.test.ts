import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { adminOf, startTestApp, type TestApp } from "../support/app.ts";
import { joinAs } from "../support/viewer.ts";
import { WsClient } from "../support/ws.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("hearts", () => {
  test("1,000 heart frames from one client become a handful of coalesced `hearts` frames", async () => {
    const watcher = await WsClient.connect(app, await joinAs(app, "Watcher"));
    const clicker = await WsClient.connect(app, await joinAs(app, "Clicker"));
    const start = app.ctx.chat.heartCount();
    const began = Date.now();
    for (let i = 0; i < 1000; i++) clicker.send(i % 2 ? { type: "send_heart" } : { type: "heart", username: "x", accessCode: "y" });
    await watcher.next("hearts", (e) => e.count > start);
    await Bun.sleep(1200);
    const elapsed = Date.now() - began;

    const frames = watcher.of("hearts").filter((e) => e.count > start);
    expect(frames.length).toBeGreaterThanOrEqual(1);
    expect(frames.length).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 1);
    // At most 10 hearts a second per person: the flood is mostly dropped.
    const added = app.ctx.chat.heartCount() - start;
    expect(added).toBeGreaterThanOrEqual(10);
    expect(added).toBeLessThanOrEqual(10 * Math.ceil(elapsed / 1000));
    expect(frames.at(-1)!.count).toBe(app.ctx.chat.heartCount());
    expect(watcher.of("stats").at(-1)!.stats.heartCount).toBe(app.ctx.chat.heartCount());
    watcher.close();
    clicker.close();
  });

  test("hearts from several viewers in one tick arrive as one total", async () => {
    const watcher = await WsClient.connect(app, await joinAs(app, "Watcher2"));
    const a = await WsClient.connect(app, await joinAs(app, "HeartA"));
    const b = await WsClient.connect(app, await joinAs(app, "HeartB"));
    await Bun.sleep(300);
    const start = app.ctx.chat.heartCount();
    const seen = watcher.of("hearts").length;
    for (let i = 0; i < 5; i++) {
      a.send({ type: "send_heart" });
      b.send({ type: "send_heart" });
    }
    await watcher.next("hearts", (e) => e.count === start + 10);
    expect(watcher.of("hearts").length - seen).toBeLessThanOrEqual(2);
    for (const ws of [watcher, a, b]) ws.close();
  });

  test("the heart count is kept across a restart", async () => {
    const own = await startTestApp();
    const ws = await WsClient.connect(own, await joinAs(own, "Keeper"));
    for (let i = 0; i < 3; i++) ws.send({ type: "send_heart" });
    await ws.next("hearts", (e) => e.count === 3);
    await own.ctx.chat.stop();
    expect((await own.ctx.store.get<{ value: number }>("SELECT value FROM event_counters WHERE name = 'hearts'"))!.value).toBe(3);
    await own.close();
  });
});

describe("viewer count", () => {
  test("counts distinct people: two tabs of one viewer are one viewer", async () => {
    const own = await startTestApp();
    try {
      const person = await joinAs(own, "TwoTabs");
      const tab1 = await WsClient.connect(own, person);
      const tab2 = await WsClient.connect(own, person);
      expect(own.ctx.chat.viewerCount()).toBe(1);
      const other = await WsClient.connect(own, await joinAs(own, "Other"));
      expect(own.ctx.chat.viewerCount()).toBe(2);
      await tab1.next("viewer_count", (e) => e.count === 2);
      other.close();
      await tab1.next("viewer_count", (e) => e.count === 1);
      expect(tab1.of("stats").at(-1)!.stats.viewerCount).toBe(1);
      tab1.close();
      tab2.close();
    } finally {
      await own.close();
    }
  });

  test("includes fake viewers, which move toward the target about 100 at a time", async () => {
    const own = await startTestApp();
    try {
      const ws = await WsClient.connect(own, await joinAs(own, "Lonely"));
      expect(own.ctx.chat.currentFakeViewers()).toBe(0);
      const admin = await adminOf(own);
      expect((await admin.post("/api/admin/fake-viewers", { enabled: true, targetViewers: 250 })).status).toBe(200);
      await ws.next("viewer_count", (e) => e.count === 251, 8000);
      const steps = [1, ...ws.of("viewer_count").map((e) => e.count)];
      for (let i = 1; i < steps.length; i++) {
        expect(steps[i]! - steps[i - 1]!).toBeGreaterThanOrEqual(0);
        expect(steps[i]! - steps[i - 1]!).toBeLessThanOrEqual(100);
      }
      expect(steps).toContain(101);
      expect(steps).toContain(201);
      expect(own.ctx.chat.currentFakeViewers()).toBe(250);
      expect((await admin.get("/api/admin/stats")).body).toMatchObject({ currentFakeViewers: 250, viewerCount: 251 });
      expect((await own.client().get("/api/livestream-settings")).body.viewerCount).toBe(251);

      const before = ws.of("viewer_count").length;
      expect((await admin.post("/api/admin/fake-viewers", { enabled: false })).status).toBe(200);
      await ws.next("viewer_count", (e) => e.count === 151, 4000);
      expect(
        ws
          .of("viewer_count")
          .slice(before)
          .map((e) => e.count),
      ).toEqual([151]);
      ws.close();
    } finally {
      await own.close();
    }
  }, 20_000);
});
