import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../support/app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const validAdmin = { username: "warden", email: "warden@example.com", password: "hunter22" };

describe("first admin setup", () => {
  const cases: { name: string; body: unknown; status: number; error?: string }[] = [
    { name: "short username", body: { ...validAdmin, username: "ab" }, status: 400, error: "Username must be at least 3 characters" },
    { name: "bad e-mail", body: { ...validAdmin, email: "not-an-email" }, status: 400, error: "Please enter a valid email address" },
    { name: "short password", body: { ...validAdmin, password: "12345" }, status: 400, error: "Password must be at least 6 characters" },
    { name: "missing fields", body: {}, status: 400 },
    { name: "not an object", body: "[1,2]", status: 400 },
    { name: "broken JSON", body: "{oops", status: 400, error: "Request body is not valid JSON" },
  ];
  for (const c of cases) {
    test(`create-first refuses ${c.name}`, async () => {
      const res = await app.client().post("/api/admin/create-first", c.body, typeof c.body === "string" ? { "content-type": "application/json" } : {});
      expect(res.status).toBe(c.status);
      expect(typeof res.body.error).toBe("string");
      if (c.error) expect(res.body.error).toBe(c.error);
    });
  }

  test("check-first-admin says an admin is needed on a fresh install", async () => {
    expect((await app.client().get("/api/admin/check-first-admin")).body).toEqual({ needsFirstAdmin: true });
  });

  test("two racing create-first requests make exactly one admin", async () => {
    const results = await Promise.all(["racer1", "racer2", "racer3"].map((username) => app.client().post("/api/admin/create-first", { ...validAdmin, username })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.error).toBe("An admin account already exists");
    }
    expect(await app.ctx.admins.count()).toBe(1);
    expect((await app.client().get("/api/admin/check-first-admin")).body).toEqual({ needsFirstAdmin: false });
  });

  test("create-first refuses once an admin exists", async () => {
    const res = await app.client().post("/api/admin/create-first", validAdmin);
    expect(res.status).toBe(409);
  });
});

describe("login, profile and logout", () => {
  let username: string;
  beforeAll(async () => {
    username = "keeper";
    await app.ctx.admins.create(username, "keeper@example.com", "correct-horse");
  });

  const cases: { name: string; body: unknown; status: number; error: string }[] = [
    { name: "empty username", body: { username: "", password: "x" }, status: 400, error: "Username is required" },
    { name: "empty password", body: { username: "keeper", password: "" }, status: 400, error: "Password is required" },
    { name: "wrong password", body: { username: "keeper", password: "wrong-horse" }, status: 401, error: "Invalid username or password" },
    { name: "unknown user", body: { username: "nobody", password: "whatever" }, status: 401, error: "Invalid username or password" },
  ];
  for (const c of cases) {
    test(`login refuses ${c.name}`, async () => {
      const client = app.client();
      const res = await client.post("/api/admin/login", c.body);
      expect(res.status).toBe(c.status);
      expect(res.body.error).toBe(c.error);
      expect(client.cookies.size).toBe(0);
    });
  }

  test("profile is 401 without a session", async () => {
    const res = await app.client().get("/api/admin/profile");
    expect(res.status).toBe(401);
    expect(res.body.error).toBeString();
  });

  test("profile is 401 with a forged session cookie", async () => {
    const res = await app.client().get("/api/admin/profile", { cookie: `dreadcast_admin=${"a".repeat(64)}` });
    expect(res.status).toBe(401);
  });

  test("login sets an HttpOnly session cookie, profile names the admin, logout ends the session", async () => {
    const client = app.client();
    const login = await client.post("/api/admin/login", { username: "KEEPER", password: "correct-horse" });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ username: "keeper" });
    const setCookie = login.headers.get("set-cookie")!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect((await client.get("/api/admin/profile")).body).toMatchObject({
      username: "keeper",
      role: "owner",
      mustEnrol: false,
      twoFactor: { totp: false, webauthn: 0, recoveryCodesLeft: 0 },
    });

    const stolen = [...client.cookies][0]!;
    const logout = await client.post("/api/admin/logout");
    expect(logout.status).toBe(200);
    expect((await client.get("/api/admin/profile")).status).toBe(401);
    const replay = await app.client().get("/api/admin/profile", { cookie: `${stolen[0]}=${stolen[1]}` });
    expect(replay.status).toBe(401);
  });

  test("a cross-site login attempt is refused", async () => {
    const res = await app.client().post("/api/admin/login", { username: "keeper", password: "correct-horse" }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });

  test("repeated failures lock the username out with 429 and a retry delay", async () => {
    await app.ctx.admins.create("target", "t@example.com", "right-password");
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await app.client().post("/api/admin/login", { username: "target", password: `wrong${i}` })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    const locked = await app.client().post("/api/admin/login", { username: "target", password: "right-password" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(locked.body.error).toMatch(/Too many login attempts/);
    // Eight password hashes and the username's slow-down: seconds on a busy machine.
  }, 20_000);
});

test("healthz answers 200 while the database is reachable", async () => {
  const res = await app.client().get("/healthz");
  expect(res.status).toBe(200);
  expect(res.body.status).toBe("ok");
});
