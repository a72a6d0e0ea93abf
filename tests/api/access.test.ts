import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FORCED_ACCESS_CODE } from "../../src/contracts/access.ts";
import { loginAsAdmin, startTestApp, type TestApp } from "../support/app.ts";
import { buyDemoCode, enter, makeFingerprint, otherDevice } from "../support/viewer.ts";

const INVALID = "Invalid access code. Please try again.";
const WRONG_DEVICE = "Your access code cannot be used on this device. Each code is limited to one device.";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("validate-access refuses bad input with the form's messages", () => {
  const good = () => ({ accessCode: "SKP-2222-3333-4444-5555", username: "Wraith", deviceFingerprint: makeFingerprint() });
  const cases: { name: string; body: () => unknown; message: string }[] = [
    { name: "a missing code", body: () => ({ ...good(), accessCode: undefined }), message: "Access code is required" },
    { name: "a short code", body: () => ({ ...good(), accessCode: "SKP-1" }), message: "Access code must be at least 8 characters" },
    { name: "a short username", body: () => ({ ...good(), username: " ab " }), message: "Username must be at least 3 characters" },
    { name: "a long username", body: () => ({ ...good(), username: "x".repeat(21) }), message: "Username must be at most 20 characters" },
    { name: "'Guest'", body: () => ({ ...good(), username: "Guest" }), message: "Username cannot be 'Guest'" },
    { name: "'guest'", body: () => ({ ...good(), username: "guest" }), message: "Username cannot be 'Guest'" },
    { name: "a reserved name", body: () => ({ ...good(), username: "Administrator" }), message: "That username is reserved. Please choose another." },
    { name: "an invisible name", body: () => ({ ...good(), username: "\u200b\u200b\u200b" }), message: "Username contains characters that are not allowed" },
    { name: "a bad e-mail", body: () => ({ ...good(), email: "not-mail" }), message: "Please enter a valid email address" },
    {
      name: "a malformed fingerprint",
      body: () => ({ ...good(), deviceFingerprint: { ...makeFingerprint(), deviceToken: "short" } }),
      message: "deviceToken must be 48 hex characters",
    },
  ];
  for (const c of cases) {
    test(`400 for ${c.name}`, async () => {
      const res = await app.client().post("/api/validate-access", c.body());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ valid: false, message: c.message, error: c.message });
    });
  }

  test("an unknown code is answered with valid:false and 'Invalid access code. Please try again.'", async () => {
    const res = await app.client().post("/api/validate-access", good());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, message: INVALID });
  });
});

describe("letting a buyer in", () => {
  let code: string;
  const device = makeFingerprint();
  beforeAll(async () => {
    code = (await buyDemoCode(app.client())).accessCode;
  });

  test("a bought code and a username let the viewer in with an HttpOnly session cookie", async () => {
    const client = app.client();
    expect((await client.get("/api/user-data")).status).toBe(401);
    const res = await enter(client, code.toLowerCase(), "  Nightshade  ", device);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true, message: "Access granted!" });
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toContain("dreadcast_viewer=");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toContain("Secure");
    expect((await client.get("/api/user-data")).body).toEqual({ username: "Nightshade" });
    expect((await app.ctx.access.findCode(code))!.used).toBe(true);
  });

  test("the same code, device and username come back in", async () => {
    const res = await enter(app.client(), code, "Nightshade", device);
    expect(res.body.valid).toBe(true);
  });

  test("a second device is refused with the one-device message", async () => {
    const res = await enter(app.client(), code, "Nightshade", otherDevice());
    expect(res.body).toEqual({ valid: false, message: WRONG_DEVICE });
    const verify = await app.client().post("/api/verify-existing-access", { accessCode: code, username: "Nightshade", deviceFingerprint: otherDevice() });
    expect(verify.body.valid).toBe(false);
  });

  test("the same browser with a changed fingerprint but the same device token is let in", async () => {
    const drifted = makeFingerprint({ deviceToken: device.deviceToken, userAgent: "Mozilla/5.0 updated", screenResolution: "2560x1440" });
    expect((await enter(app.client(), code, "Nightshade", drifted)).body.valid).toBe(true);
  });

  test("a username held by another code is refused, whatever its case", async () => {
    const other = (await buyDemoCode(app.client())).accessCode;
    const res = await enter(app.client(), other, "NIGHTSHADE");
    expect(res.body).toEqual({ valid: false, message: "That username is already taken. Please choose another." });
  });

  test("verify-existing-access and verify-stream-access accept the code on its device and refresh the session", async () => {
    const client = app.client();
    const existing = await client.post("/api/verify-existing-access", { accessCode: code, username: "Nightshade", deviceFingerprint: device });
    expect(existing.status).toBe(200);
    expect(existing.body.valid).toBe(true);
    const stream = await client.post("/api/verify-stream-access", { accessCode: code, username: "Nightshade", deviceFingerprint: device });
    expect(stream.body).toEqual({ valid: true, message: "Access granted!" });
    expect(stream.headers.get("set-cookie")).toContain("dreadcast_viewer=");
    expect((await client.get("/api/user-data")).body).toEqual({ username: "Nightshade" });
  });

  test("verify-stream-access refuses an unknown code with valid:false and a message", async () => {
    const res = await app.client().post("/api/verify-stream-access", { accessCode: "SKP-NOPE-NOPE-NOPE-NOPE", username: "Nightshade", deviceFingerprint: device });
    expect(res.body).toEqual({ valid: false, message: INVALID });
  });

  test("verify-access answers with its status only: 200 for a live code, 403 otherwise", async () => {
    expect((await app.client().post("/api/verify-access", { accessCode: code, username: "Nightshade" })).status).toBe(200);
    expect((await app.client().post("/api/verify-access", { accessCode: "SKP-NOPE-NOPE-NOPE-NOPE", username: "Nightshade" })).status).toBe(403);
  });

  test("verify-special-access refuses a regular code", async () => {
    const res = await app.client().post("/api/verify-special-access", { accessCode: code, username: "Nightshade" });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("Your special access code could not be verified. Please contact support.");
  });

  test("a regular viewer is not a moderator", async () => {
    const client = app.client();
    await enter(client, code, "Nightshade", device);
    expect((await client.get("/api/check-moderator-status")).body).toEqual({ isModerator: false });
    expect((await app.client().get("/api/check-moderator-status")).body).toEqual({ isModerator: false });
  });
});

describe("special codes", () => {
  test("a test code from the test endpoint works on any number of devices", async () => {
    const res = await app.client().get("/api/test/generate-access-code");
    expect(res.status).toBe(200);
    expect(res.body.accessCode).toMatch(/^SCP-/);
    expect((await enter(app.client(), res.body.accessCode, "Tester1")).body.valid).toBe(true);
    expect((await enter(app.client(), res.body.accessCode, "Tester2", otherDevice())).body.valid).toBe(true);
    const special = await app.client().post("/api/verify-special-access", { accessCode: res.body.accessCode, username: "Tester3" });
    expect(special.status).toBe(200);
  });

  test("a MOD- code skips the device lock and makes its holder a moderator", async () => {
    const mod = await app.ctx.access.issueAccessCode("MOD");
    const phone = app.client();
    expect((await enter(phone, mod.code, "Gatekeeper")).body.valid).toBe(true);
    const laptop = app.client();
    expect((await enter(laptop, mod.code, "Gatekeeper", otherDevice())).body.valid).toBe(true);
    expect((await laptop.get("/api/check-moderator-status")).body).toEqual({ isModerator: true });
    expect((await phone.post("/api/verify-special-access", { accessCode: mod.code, username: "Gatekeeper" })).status).toBe(200);
  });

  test("an admin session counts as a moderator", async () => {
    const admin = await loginAsAdmin(app);
    expect((await admin.get("/api/check-moderator-status")).body).toEqual({ isModerator: true });
  });

  test("an admin's name cannot be taken by a viewer", async () => {
    await loginAsAdmin(app);
    const code = await app.ctx.access.issueAccessCode("SKP");
    expect((await enter(app.client(), code.code, "WARDEN")).body).toEqual({ valid: false, message: "That username is reserved. Please choose another." });
  });

  test("the forced-access code works where test codes are enabled (demo mode)", async () => {
    const res = await enter(app.client(), FORCED_ACCESS_CODE, "SCP-Admin-4821");
    expect(res.body.valid).toBe(true);
  });
});

describe("bans and revocation", () => {
  test("a banned username is refused with any code, and a banned code with any username", async () => {
    const byName = (await buyDemoCode(app.client())).accessCode;
    const byCode = (await buyDemoCode(app.client())).accessCode;
    const codeId = (await app.ctx.access.findCode(byCode))!.id;
    await app.ctx.store.run("INSERT INTO banned_users (username, access_code_id, created_at) VALUES ('Poltergeist', NULL, 0), ('Shade', ?, 0)", codeId);
    expect((await enter(app.client(), byName, "poltergeist")).body).toEqual({ valid: false, message: "You have been banned from this event." });
    expect((await enter(app.client(), byCode, "FreshName")).body).toEqual({ valid: false, message: "You have been banned from this event." });
  });

  test("a revoked code is an invalid code", async () => {
    const code = (await buyDemoCode(app.client())).accessCode;
    await app.ctx.store.run("UPDATE access_codes SET revoked = 1 WHERE code = ?", code);
    expect((await enter(app.client(), code, "Revenant")).body).toEqual({ valid: false, message: INVALID });
  });
});

describe("with live payment keys and no --enable-test-codes", () => {
  let live: TestApp;
  beforeAll(async () => {
    live = await startTestApp({ stripeSecretKey: "sk_test_x", stripePublishableKey: "pk_test_x", stripeWebhookSecret: "whsec_x", stripeApiUrl: "http://127.0.0.1:9" });
  });
  afterAll(() => live.close());

  test("the test-code endpoint does not exist", async () => {
    expect((await live.client().get("/api/test/generate-access-code")).status).toBe(404);
  });

  test("test codes made earlier and the forced-access code are unknown", async () => {
    const scp = await live.ctx.access.issueAccessCode("SCP");
    expect((await enter(live.client(), scp.code, "Tester")).body).toEqual({ valid: false, message: INVALID });
    expect((await enter(live.client(), FORCED_ACCESS_CODE, "SCP-Admin-1")).body).toEqual({ valid: false, message: INVALID });
  });

  test("--enable-test-codes turns the endpoint back on", async () => {
    const enabled = await startTestApp({ stripeSecretKey: "sk_test_x", stripePublishableKey: "pk_test_x", enableTestCodes: true });
    try {
      expect((await enabled.client().get("/api/test/generate-access-code")).body.accessCode).toMatch(/^SCP-/);
    } finally {
      await enabled.close();
    }
  });
});

test("the viewer cookie is Secure under an https public URL", async () => {
  const secure = await startTestApp({ publicUrl: "https://live.example.com" });
  try {
    const code = await secure.ctx.access.issueAccessCode("SKP");
    const res = await enter(secure.client(), code.code, "Banshee");
    expect(res.headers.get("set-cookie")).toContain("Secure");
  } finally {
    await secure.close();
  }
});

describe("guessing codes is rate-limited per address", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ trustProxy: ["127.0.0.1"] });
  });
  afterAll(() => limited.close());
  const from = (ip: string) => ({ "x-forwarded-for": ip });

  test("repeated wrong codes from one address get 429 with valid:false, another address is unaffected", async () => {
    const client = limited.client();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 24; i++) {
      last = await client.post(
        "/api/validate-access",
        { accessCode: `SKP-GUES-SING-${String(i).padStart(4, "0")}`, username: "Guesser", deviceFingerprint: makeFingerprint() },
        from("203.0.113.7"),
      );
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses).toContain(429);
    expect(last!.status).toBe(429);
    expect(last!.body).toEqual({
      valid: false,
      message: "Too many attempts. Please wait a moment and try again.",
      error: "Too many attempts. Please wait a moment and try again.",
    });
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await client.post("/api/validate-access", { accessCode: "SKP-GUES-SING-XXXX", username: "Guesser", deviceFingerprint: makeFingerprint() }, from("203.0.113.8"));
    expect(other.status).toBe(200);
  });

  test("more than 60 checks a minute from one address get 429", async () => {
    const code = await limited.ctx.access.issueAccessCode("SKP");
    const client = limited.client();
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await client.post("/api/verify-access", { accessCode: code.code, username: "Counter" }, from("198.51.100.1"))).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429]);
  });
});
