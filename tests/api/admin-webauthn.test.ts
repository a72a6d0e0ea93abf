import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { SoftAuthenticator } from "../support/soft-authenticator.ts";
import { PASSKEYS_NEED_A_HOST_NAME } from "../../src/contracts/team.ts";

/**
 * Passkeys and security keys as a second factor, through the API, with a software authenticator: adding a
 * key, signing in with it, and what an attacker tries — a wrong origin, a challenge used twice, another
 * member's key, the rate of wrong answers from rotating addresses.
 */
// Every sign-in hashes a password (argon2id): a test with several takes seconds on a busy machine.
setDefaultTimeout(30_000);

let app: TestApp;
const ORIGIN = "http://localhost:3000";
beforeAll(async () => {
  // The site's address names the relying party: the browser's origin must be it.
  app = await startTestApp({ publicUrl: ORIGIN, trustProxy: ["127.0.0.1"] });
  await app.ctx.admins.create("keyholder", "k@example.com", "member-pass", "owner");
  await app.ctx.admins.create("other", "o@example.com", "member-pass", "support");
});
afterAll(() => app.close());

async function signedIn(username: string): Promise<TestClient> {
  const client = app.client();
  expect((await client.post("/api/admin/login", { username, password: "member-pass" })).status).toBe(200);
  return client;
}

async function addKey(client: TestClient, authenticator: SoftAuthenticator): Promise<void> {
  const options = (await client.post("/api/admin/2fa/webauthn/register-options")).body;
  expect(options.rp.id).toBe("localhost");
  const added = await client.post("/api/admin/2fa/webauthn/register", { name: "Desk key", response: authenticator.register(options, ORIGIN) });
  expect(added.status).toBe(200);
}

describe("passkeys and security keys", () => {
  const mine = new SoftAuthenticator();
  const theirs = new SoftAuthenticator();

  test("a key is added; then the password asks for it, and its signature signs in", async () => {
    const client = await signedIn("keyholder");
    await addKey(client, mine);
    expect((await client.get("/api/admin/2fa")).body.passkeys.map((k: { name: string }) => k.name)).toEqual(["Desk key"]);
    const browser = app.client();
    expect((await browser.post("/api/admin/login", { username: "keyholder", password: "member-pass" })).body.secondFactor).toEqual(["webauthn", "recovery"]);
    const options = (await browser.post("/api/admin/login/webauthn-options")).body;
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([mine.credentials[0]!.id]);
    const done = await browser.post("/api/admin/login/second-factor", { webauthn: mine.assert(options, ORIGIN) });
    expect(done.status).toBe(200);
    expect((await browser.get("/api/admin/stats")).status).toBe(200);
  });

  test("a wrong origin, a reused challenge and another member's key are refused", async () => {
    const other = await signedIn("other");
    await addKey(other, theirs);

    const browser = app.client();
    await browser.post("/api/admin/login", { username: "keyholder", password: "member-pass" });
    // Signed for a look-alike site.
    let options = (await browser.post("/api/admin/login/webauthn-options")).body;
    expect((await browser.post("/api/admin/login/second-factor", { webauthn: mine.assert(options, "http://localhost.evil.example") })).status).toBe(401);
    // The same challenge again, now signed right: it was used up by the failed try.
    expect((await browser.post("/api/admin/login/second-factor", { webauthn: mine.assert(options, ORIGIN) })).status).toBe(401);
    // Another member's key against this account's challenge.
    options = (await browser.post("/api/admin/login/webauthn-options")).body;
    expect((await browser.post("/api/admin/login/second-factor", { webauthn: theirs.assert({ ...options, rpId: "localhost" }, ORIGIN, theirs.credentials[0]) })).status).toBe(401);
    // A registration answer replayed as an assertion, and garbage, are refused without a 5xx.
    for (const webauthn of [{ id: "x", rawId: "x", type: "public-key", response: {} }, { id: "x", rawId: "x", type: "not-a-key", response: {} }, "nope"]) {
      expect([400, 401]).toContain((await browser.post("/api/admin/login/second-factor", { webauthn })).status);
    }
  });

  test("wrong codes from rotating addresses against one account are counted for the account", async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const browser = app.client();
      await browser.post("/api/admin/login", { username: "keyholder", password: "member-pass" }, { "x-forwarded-for": `203.0.113.${round}` });
      for (let i = 0; i < 5; i++) {
        const res = await browser.post("/api/admin/login/second-factor", { code: "000000" }, { "x-forwarded-for": `198.51.100.${round * 5 + i}` });
        statuses.push(res.status);
      }
    }
    // Ten wrong answers (a few of them from the test before) are free; past them the account waits,
    // whatever address the next comes from.
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.slice(10)).toContain(429);
  });
});

describe("passkeys at an IP address", () => {
  test("the site's address is an IP: no key can be added, and both the security state and the refusal say a host name is needed", async () => {
    const onIp = await startTestApp({ publicUrl: "http://192.0.2.10:3000" });
    try {
      await onIp.ctx.admins.create("ip-owner", "ip@example.com", "member-pass", "owner");
      const client = onIp.client();
      expect((await client.post("/api/admin/login", { username: "ip-owner", password: "member-pass" })).status).toBe(200);
      const state = await client.get("/api/admin/2fa");
      expect(state.body.passkeysUnavailable).toBe(PASSKEYS_NEED_A_HOST_NAME);
      const refused = await client.post("/api/admin/2fa/webauthn/register-options");
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe(PASSKEYS_NEED_A_HOST_NAME);
      expect(refused.body.error).toContain("host name");
    } finally {
      await onIp.close();
    }
  });

  test("at a host name the state says nothing is in the way", async () => {
    await app.ctx.admins.create("plain", "p@example.com", "member-pass", "support");
    const client = await signedIn("plain");
    const state = await client.get("/api/admin/2fa");
    expect(state.status).toBe(200);
    expect(state.body.passkeysUnavailable).toBeNull();
  });
});
