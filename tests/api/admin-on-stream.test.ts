import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startHlsOrigin, type HlsOrigin } from "../support/hls-origin.mjs";
import { enter, makeFingerprint, otherDevice } from "../support/viewer.ts";

let app: TestApp;
let admin: TestClient;
const origins: HlsOrigin[] = [];

beforeAll(async () => {
  // The HLS origin runs on this machine, as one beside the server does.
  app = await startTestApp({ allowPrivateOrigins: true });
  admin = await loginAsAdmin(app, "Boss");
});
afterEach(async () => {
  await Promise.all(origins.splice(0).map((o) => o.stop()));
});
afterAll(() => app.close());

const PLAYLIST = "/api/stream/hls/stream.m3u8";
const get = (client: TestClient, path: string) => fetch(app.url + path, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });

async function relayFromOrigin(): Promise<void> {
  const origin = await startHlsOrigin();
  origins.push(origin);
  expect((await admin.put("/api/admin/stream-source", { kind: "hls", originUrl: origin.playlistUrl })).status).toBe(200);
}

/** A browser that holds the admin's session and also a viewer's (the admin once entered a code in it). */
async function adminWithViewerCookie(): Promise<TestClient> {
  const viewer = app.client();
  const code = await app.ctx.access.issueAccessCode("MOD");
  expect((await enter(viewer, code.code, "Bossman")).body.valid).toBe(true);
  const both = app.client();
  for (const [k, v] of [...admin.cookies, ...viewer.cookies]) both.cookies.set(k, v);
  return both;
}

describe("a signed-in admin on /livestream", () => {
  test("is let in by verify-stream-access without a code, under the admin's name, and no code is touched", async () => {
    const codesBefore = await app.ctx.store.all("SELECT id, used, device_fingerprint FROM access_codes ORDER BY id");
    const res = await admin.post("/api/verify-stream-access", {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true, message: "Access granted!", role: "admin", username: "Boss" });
    // With a code in the body too: the admin's session decides, and the code stays as it was.
    const code = await app.ctx.access.issueAccessCode("SKP");
    const withCode = await admin.post("/api/verify-stream-access", { accessCode: code.code, username: "Someone", deviceFingerprint: makeFingerprint() });
    expect(withCode.body).toMatchObject({ valid: true, role: "admin", username: "Boss" });
    expect(await app.ctx.store.get("SELECT used, device_fingerprint FROM access_codes WHERE id = ?", code.id)).toEqual({ used: 0, device_fingerprint: null });
    expect(await app.ctx.store.all("SELECT id, used, device_fingerprint FROM access_codes WHERE id <> ? ORDER BY id", code.id)).toEqual(codesBefore);
    expect(admin.cookies.has("dreadcast_viewer")).toBe(false);
  });

  test("GET /api/me, /api/user-data and /api/check-moderator-status name the admin; /api/me answers 200 for everyone", async () => {
    expect((await admin.get("/api/me")).body).toEqual({ role: "admin", username: "Boss" });
    expect((await admin.get("/api/user-data")).body).toEqual({ username: "Boss" });
    expect((await admin.get("/api/check-moderator-status")).body).toEqual({ isModerator: true });

    const visitor = await app.client().get("/api/me");
    expect(visitor.status).toBe(200);
    expect(visitor.body).toEqual({ role: null, username: null });

    const viewer = app.client();
    const skp = await app.ctx.access.issueAccessCode("SKP");
    await enter(viewer, skp.code, "Plainview");
    expect((await viewer.get("/api/me")).body).toEqual({ role: "viewer", username: "Plainview" });
    const mod = app.client();
    const modCode = await app.ctx.access.issueAccessCode("MOD");
    await enter(mod, modCode.code, "Modly");
    expect((await mod.get("/api/me")).body).toEqual({ role: "moderator", username: "Modly" });
  });

  test("one rule everywhere: a browser holding both sessions is the admin for the profile, the playback and the relay", async () => {
    await relayFromOrigin();
    const both = await adminWithViewerCookie();
    expect((await both.get("/api/me")).body).toEqual({ role: "admin", username: "Boss" });
    expect((await both.get("/api/user-data")).body).toEqual({ username: "Boss" });
    expect((await both.post("/api/verify-stream-access", {})).body).toMatchObject({ valid: true, role: "admin", username: "Boss" });
    const playback = await admin.get("/api/stream/playback");
    expect(playback.status).toBe(200);
    expect(playback.body.url).toBe(PLAYLIST);
    expect((await get(admin, PLAYLIST)).status).toBe(200);
    expect((await get(both, PLAYLIST)).status).toBe(200);
    // Signed out, the same browser is the viewer again.
    const signedOut = app.client();
    for (const [k, v] of both.cookies) if (k !== "dreadcast_admin") signedOut.cookies.set(k, v);
    expect((await signedOut.get("/api/me")).body).toEqual({ role: "moderator", username: "Bossman" });
  });
});

describe("Reset device in the panel", () => {
  test("ends the sessions of the code at once: the old device loses the profile, the playback and the relay; the next device binds", async () => {
    await relayFromOrigin();
    const code = await app.ctx.access.issueAccessCode("SKP");
    const oldPhone = app.client();
    expect((await enter(oldPhone, code.code, "Phoneholder")).body.valid).toBe(true);
    expect((await get(oldPhone, PLAYLIST)).status).toBe(200);
    expect((await oldPhone.get("/api/stream/playback")).status).toBe(200);

    const reset = await admin.post(`/api/admin/access-codes/${code.id}/reset-device`);
    expect(reset.status).toBe(200);
    expect(reset.body.deviceBound).toBe(false);

    expect((await oldPhone.get("/api/user-data")).status).toBe(401);
    expect((await oldPhone.get("/api/stream/playback")).status).toBe(401);
    expect((await get(oldPhone, PLAYLIST)).status).toBe(401);
    expect((await oldPhone.get("/api/me")).body).toEqual({ role: null, username: null });
    // The old cookie does not come back to life through verify-stream-access on the old device either: the
    // new phone entered first and holds the code now.
    const newPhone = app.client();
    expect((await enter(newPhone, code.code, "Phoneholder", otherDevice())).body.valid).toBe(true);
    expect((await get(newPhone, PLAYLIST)).status).toBe(200);
  });
});
