import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { USERNAME_SLOWDOWN_MAX_MS } from "../../src/modules/admin/index.ts";
import { startTestApp, type TestApp } from "../support/app.ts";

/** Login failures lock out the address they come from; nobody elsewhere can keep the owner out. */

describe("admin login failures", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ trustProxy: ["127.0.0.1"] });
    await app.ctx.admins.create("boss", "boss@example.com", "the-right-one");
  });
  afterAll(() => app.close());

  const login = (username: string, password: string, ip: string) => app.client().post("/api/admin/login", { username, password }, { "x-forwarded-for": ip });

  test("wrong passwords for the owner's name from other addresses never refuse the right password: it waits a few seconds at most", async () => {
    // A burst of guesses from eight addresses at once: the name's failures pile up past any free allowance.
    const guesses = await Promise.all(Array.from({ length: 8 }, (_, i) => login("boss", `guess-${i}`, `203.0.113.${i + 1}`)));
    expect(guesses.map((g) => g.status)).toEqual(Array(8).fill(401));

    const started = performance.now();
    const owner = await login("boss", "the-right-one", "198.51.100.7");
    const waited = performance.now() - started;
    expect(owner.status).toBe(200);
    expect(owner.body).toEqual({ username: "boss" });
    // The cap, plus the password check itself (seconds of its own on a machine busy with other suites).
    expect(waited).toBeLessThan(USERNAME_SLOWDOWN_MAX_MS + 5_000);
    // Signed in, the name's failures are forgotten: the next login is not slowed (eight failures would
    // hold it for the whole cap).
    const next = performance.now();
    expect((await login("boss", "the-right-one", "198.51.100.8")).status).toBe(200);
    expect(performance.now() - next).toBeLessThan(USERNAME_SLOWDOWN_MAX_MS / 2);
  }, 60_000);

  test("one address trying many names is locked out, the right password included, while other addresses are not", async () => {
    const ip = "203.0.113.50";
    for (let i = 0; i < 10; i++) expect((await login(`nobody${i}`, "whatever", ip)).status).toBe(401);
    const locked = await login("somebody-else", "whatever", ip);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(locked.body.error).toMatch(/Too many login attempts/);
    expect((await login("boss", "the-right-one", ip)).status).toBe(429);
    expect((await login("boss", "the-right-one", "198.51.100.9")).status).toBe(200);
  }, 60_000);
});
