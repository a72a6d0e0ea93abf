import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { adminOf, sessionAdminRoutes, STAND_IN_PAGE, startTestApp, type TestApp } from "../support/app.ts";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.mjs";
import { enter, joinAs, makeFingerprint, otherDevice, viewerSession } from "../support/viewer.ts";
import { upgradeStatus, WsClient } from "../support/ws.ts";

/** Nobody let in: the admin API without a session, moderation from a viewer, the banned, the revoked, test codes when off. */

describe("every /api/admin/* route", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ trustProxy: ["127.0.0.1"] }, { page: STAND_IN_PAGE });
    await app.ctx.admins.create("warden", "w@example.com", "s3cret-pass");
    await app.ctx.access.issueAccessCode("SKP");
  });
  afterAll(() => app.close());

  const callAll = async (cookie?: string) => {
    const answers: string[] = [];
    for (const r of sessionAdminRoutes(app)) {
      const res = await fetch(app.url + r.path.replace(":id", "1"), {
        method: r.method,
        headers: { origin: app.url, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
        body: r.method === "GET" ? undefined : JSON.stringify({ enabled: true, targetViewers: 5000, kind: "MOD", username: "x", email: "a@b.co" }),
      });
      answers.push(`${r.method} ${r.path} ${res.status} ${((await res.json()) as { error: string }).error}`);
    }
    return answers;
  };

  test("answers 401 without a session, whatever the body", async () => {
    expect(sessionAdminRoutes(app).length).toBeGreaterThan(15);
    for (const line of await callAll()) expect(line).toEndWith("401 Not logged in");
  }, 30_000);

  test("answers 401 to a viewer's and a moderator's session, and to a forged admin cookie", async () => {
    for (const cookie of [
      (await viewerSession(app.ctx, "peeker", "SKP")).cookie,
      (await viewerSession(app.ctx, "sneaky-mod", "MOD")).cookie,
      `dreadcast_admin=${"a".repeat(64)}`,
    ]) {
      for (const line of await callAll(cookie)) expect(line).toEndWith("401 Not logged in");
    }
    // Nothing changed behind the refusals.
    expect((await app.ctx.settings.get()).fakeViewersEnabled).toBe(false);
    expect((await app.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM access_codes WHERE kind = 'MOD'"))!.n).toBe(1);
  }, 30_000);

  test("refuses every state-changing call from another site, even with a real admin session", async () => {
    const cookie = `dreadcast_admin=${await app.ctx.admins.createSession(1)}`;
    for (const r of app.routes.filter((r) => ["POST", "PUT"].includes(r.method))) {
      const res = await fetch(app.url + r.path.replace(":id", "1"), {
        method: r.method,
        headers: { origin: "https://evil.example", cookie, "content-type": "application/json" },
        body: "{}",
      });
      expect(`${r.path} ${res.status}`).toBe(`${r.path} 403`);
    }
  }, 30_000);
});

describe("moderation, bans and revocation", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test("a viewer's every moderator action is refused and changes nothing", async () => {
    const victim = await joinAs(app, "victim", "SKP");
    const rogue = await joinAs(app, "rogue", "SKP");
    const victimWs = await WsClient.connect(app, victim);
    const rogueWs = await WsClient.connect(app, rogue);
    victimWs.send({ type: "chat_message", text: "still here" });
    const line = await victimWs.next("chat", (e) => e.message.text === "still here");
    const id = line.message.id;
    for (const frame of [
      { type: "delete_message", messageId: id },
      { type: "delete", messageId: id },
      { type: "pin", messageId: id },
      { type: "kick_user", username: "victim" },
      { type: "kick", targetUsername: "victim" },
      { type: "ban_user", username: "victim" },
      { type: "ban", messageId: id },
    ]) {
      expect(await rogueWs.expectError(frame)).toBe("Only moderators can do that.");
    }
    expect((await app.ctx.chat.messages.find(id))?.isPinned).toBe(false);
    expect(await app.ctx.chat.listBans()).toEqual([]);
    expect(victimWs.socket.readyState).toBe(WebSocket.OPEN);
    victimWs.close();
    rogueWs.close();
  }, 30_000);

  test("a banned viewer is refused on a new socket, under a new username and in a second browser", async () => {
    const fingerprint = makeFingerprint();
    const client = app.client();
    const code = (await app.ctx.access.issueAccessCode("SKP")).code;
    expect((await enter(client, code, "wretch", fingerprint)).body.valid).toBe(true);
    const ws = await WsClient.connect(app, client);
    const admin = await adminOf(app);
    const adminWs = await WsClient.connect(app, admin);
    adminWs.send({ type: "ban_user", username: "wretch" });
    expect((await ws.closed).code).toBe(4003);

    // The old cookie, on a new socket.
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    expect(await upgradeStatus(app, { origin: app.origin, cookie })).toBeOneOf([401, 403]);
    // A new username with the same code and device.
    const renamed = await enter(client, code, "wretch2", fingerprint);
    expect(renamed.body.valid).toBe(false);
    // A second browser (new cookie jar), same code and device, any name.
    for (const name of ["wretch", "innocent"]) {
      const fresh = await enter(app.client(), code, name, fingerprint);
      expect(fresh.body.valid).toBe(false);
      expect(fresh.body.message).toBe("You have been banned from this event.");
    }
    // Another code under the banned name.
    const other = await enter(app.client(), (await app.ctx.access.issueAccessCode("SKP")).code, "WRETCH", makeFingerprint());
    expect(other.body.valid).toBe(false);
    adminWs.close();
  }, 30_000);

  test("a revoked code lets nobody in: not its session, not its socket, not a new entry", async () => {
    const viewer = await joinAs(app, "doomed", "SKP");
    const ws = await WsClient.connect(app, viewer);
    const admin = await adminOf(app);
    const id = (await app.ctx.store.get<{ id: number }>("SELECT id FROM access_codes WHERE code = ?", viewer.accessCode))!.id;
    expect((await admin.post(`/api/admin/access-codes/${id}/revoke`)).status).toBe(200);
    expect((await ws.closed).code).toBeOneOf([4001, 4003]);
    expect((await viewer.get("/api/user-data")).status).toBe(401);
    expect((await viewer.get("/api/livestream-settings")).body.embedUrl).toBe("");
    const cookie = [...viewer.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    expect(await upgradeStatus(app, { origin: app.origin, cookie })).toBe(401);
    expect((await enter(app.client(), viewer.accessCode, "doomed", makeFingerprint())).body.valid).toBe(false);
  }, 30_000);

  test("a script tag in a username or a message is kept as text, and pages allow no inline script", async () => {
    const viewer = await joinAs(app, "<b>x</b><script>", "SCP");
    const ws = await WsClient.connect(app, viewer);
    const text = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
    ws.send({ type: "chat_message", text });
    const line = await ws.next("chat", (e) => e.message.username === "<b>x</b><script>");
    expect(line.message.text).toBe(text);
    expect((await viewer.get("/api/user-data")).body.username).toBe("<b>x</b><script>");
    ws.close();
  }, 30_000);
});

describe("one device per code", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const WRONG_DEVICE = "Your access code cannot be used on this device. Each code is limited to one device.";
  const newCode = async () => (await app.ctx.access.issueAccessCode("SKP")).code;

  test("a second device is refused with incomplete data too, and never renames the owner", async () => {
    const code = await newCode();
    const owner = app.client();
    expect((await enter(owner, code, "rightful", makeFingerprint())).body.valid).toBe(true);

    const thief = app.client();
    const elsewhere = otherDevice();
    expect((await enter(thief, code, "thief", elsewhere)).body).toEqual({ valid: false, message: WRONG_DEVICE });
    // The same request with one field left empty, as a browser that cannot tell its screen would send it.
    for (const blank of ["screenResolution", "timezone", "language", "platform"]) {
      const answer = await enter(thief, code, "thief", makeFingerprint({ ...elsewhere, deviceToken: elsewhere.deviceToken, [blank]: "" }));
      expect(answer.body).toEqual({ valid: false, message: WRONG_DEVICE });
    }
    for (const path of ["/api/verify-existing-access", "/api/verify-stream-access"]) {
      const answer = await thief.post(path, { accessCode: code, username: "thief", deviceFingerprint: { ...elsewhere, screenResolution: "" } });
      expect(answer.body.valid).toBe(false);
    }
    expect((await thief.get("/api/user-data")).status).toBe(401);
    expect((await owner.get("/api/user-data")).body.username).toBe("rightful");
  }, 30_000);

  test("a device with the same screen, colour depth, language, timezone and platform may come in as the owner but not rename them", async () => {
    const code = await newCode();
    const owner = app.client();
    expect((await enter(owner, code, "original", makeFingerprint())).body.valid).toBe(true);
    const twin = app.client();
    expect((await enter(twin, code, "usurper", makeFingerprint())).body).toEqual({ valid: false, message: WRONG_DEVICE });
    expect((await owner.get("/api/user-data")).body.username).toBe("original");
    expect((await enter(twin, code, "original", makeFingerprint())).body.valid).toBe(true);
    expect((await owner.get("/api/user-data")).body.username).toBe("original");
  }, 30_000);

  test("a phone with incomplete data gets in on its first visit and again with its device token, and may rename itself", async () => {
    const code = await newCode();
    const phone = makeFingerprint({ screenResolution: "", platform: "", userAgent: "Mozilla/5.0 (Linux; Android 14)" });
    expect((await enter(app.client(), code, "pocket", phone)).body.valid).toBe(true);
    // Coming back: a new browser session, the same device token (kept in local storage), now with a new name.
    const back = app.client();
    expect((await enter(back, code, "pocket", phone)).body.valid).toBe(true);
    expect((await back.post("/api/verify-stream-access", { accessCode: code, username: "pocket", deviceFingerprint: phone })).body.valid).toBe(true);
    expect((await enter(back, code, "pocket2", { ...phone, createdAt: new Date().toISOString() })).body.valid).toBe(true);
    expect((await back.get("/api/user-data")).body.username).toBe("pocket2");
    // Complete data from the same token later (the browser could tell more this time) still gets in.
    expect((await enter(back, code, "pocket2", makeFingerprint({ deviceToken: phone.deviceToken }))).body.valid).toBe(true);
    // Any other device, incomplete or not, is refused.
    expect((await enter(app.client(), code, "pocket2", makeFingerprint({ screenResolution: "" }))).body).toEqual({ valid: false, message: WRONG_DEVICE });
  }, 30_000);

  test("the same device with complete data still gets in after its storage was cleared (same screen, language, timezone, platform)", async () => {
    const code = await newCode();
    expect((await enter(app.client(), code, "steady", makeFingerprint())).body.valid).toBe(true);
    expect((await enter(app.client(), code, "steady", makeFingerprint())).body.valid).toBe(true);
  }, 30_000);
});

describe("test codes when test codes are off", () => {
  let app: TestApp;
  let stripe: FakeStripe;
  let earlier: { cookie: string; code: string };
  beforeAll(async () => {
    stripe = await startFakeStripe();
    // Made while test codes were on, then the server restarted with live payments.
    const demo = await startTestApp();
    const dataDir = demo.config.dataDir;
    earlier = await viewerSession(demo.ctx, "old-tester", "SCP");
    app = await startTestApp({ dataDir, ...stripe.appConfig });
    // The demo app's data dir is removed by its close, so it stays open until the end.
    (app as { demo?: TestApp }).demo = demo;
  });
  afterAll(async () => {
    await app.close();
    await (app as { demo?: TestApp }).demo?.close();
    await stripe.close();
  });

  test("the test-code endpoint, the forced-access code, earlier test codes and their sessions are all refused", async () => {
    expect((await app.client().get("/api/test/generate-access-code")).status).toBe(404);
    expect((await enter(app.client(), "SCP-FORCED-ENTRY", "forcer", makeFingerprint())).body.valid).toBe(false);
    expect((await enter(app.client(), earlier.code, "returner", makeFingerprint())).body.valid).toBe(false);
    expect((await app.client().post("/api/verify-special-access", { accessCode: earlier.code, username: "returner" })).status).toBe(403);
    const res = await fetch(app.url + "/api/user-data", { headers: { cookie: earlier.cookie } });
    expect(res.status).toBe(401);
    expect(await upgradeStatus(app, { origin: app.origin, cookie: earlier.cookie })).toBe(401);
  }, 30_000);
});
