import { afterAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import { startTestRedis, type TestRedis } from "../support/redis.ts";
import { totp } from "../support/totp.ts";
import { WsClient } from "../support/ws.ts";

/**
 * The admin team across two instances sharing PostgreSQL and Redis: a sign-in's challenge, a code's time
 * step, the step-up window, an ended session and two factors required of the team are the same whichever
 * instance a request reaches.
 */
const redis: TestRedis | null = await startTestRedis();
const postgres = await postgresAvailable();
const ready = redis !== null && postgres;
if (!ready) console.warn(`cluster admin-team tests skipped: ${redis ? "" : "no redis-server binary; "}${postgres ? "" : "no PostgreSQL server answers"}`);

let db: TestDatabase | null = null;
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps.splice(0)) await app.close().catch(() => {});
  await db?.drop().catch(() => {});
  await redis?.stop();
});

function on(app: TestApp, browser: TestClient): TestClient {
  const client = app.client();
  for (const [name, value] of browser.cookies) client.cookies.set(name, value);
  return client;
}

describe.skipIf(!ready)("the admin team across instances", () => {
  test("challenge, code step, step-up and ended sessions are shared", async () => {
    db = await createTestDatabase("dreadcast_cluster_team");
    for (const name of ["alpha", "beta"]) apps.push(await startTestApp({ databaseUrl: db.url, redisUrl: redis!.url, instanceName: name }));
    const [alpha, beta] = apps as [TestApp, TestApp];
    await alpha.ctx.admins.create("owner", "owner@example.com", "owner-pass");

    // Two factors turned on through alpha; the secret sealed there opens on beta (one --secret-key).
    const setupBrowser = alpha.client();
    expect((await setupBrowser.post("/api/admin/login", { username: "owner", password: "owner-pass" })).status).toBe(200);
    const { secret } = (await setupBrowser.post("/api/admin/2fa/totp/setup")).body;
    const enabled = await setupBrowser.post("/api/admin/2fa/totp/enable", { code: totp(secret) });
    expect(enabled.status).toBe(200);
    const recoveryCodes = enabled.body.recoveryCodes as string[];

    // The password on alpha, the code on beta: the next step's (the one enabling used is spent).
    const browser = alpha.client();
    expect((await browser.post("/api/admin/login", { username: "owner", password: "owner-pass" })).body.secondFactor).toContain("totp");
    const code = totp(secret, Date.now(), 1);
    const onBeta = on(beta, browser);
    expect((await onBeta.post("/api/admin/login/second-factor", { code })).status).toBe(200);
    // That step is spent everywhere: the same code through alpha on a new sign-in is refused.
    const other = alpha.client();
    await other.post("/api/admin/login", { username: "owner", password: "owner-pass" });
    expect((await on(alpha, other).post("/api/admin/login/second-factor", { code })).status).toBe(401);

    // Step-up: a proof aged on one instance is old on the other; renewed on alpha, it counts on beta.
    await alpha.ctx.store.run("UPDATE admin_sessions SET verified_at = ?", Date.now() - 11 * 60_000);
    const stale = await onBeta.post("/api/admin/ingest/rotate-key");
    expect(stale.status).toBe(403);
    expect(stale.body.reauth).toBe(true);
    expect((await on(alpha, onBeta).post("/api/admin/reauth", { recoveryCode: recoveryCodes[0] })).status).toBe(200);
    expect((await onBeta.post("/api/admin/ingest/rotate-key")).status).toBe(200);

    // A session ended through alpha is over on beta at its next request.
    const sessions = (await on(alpha, setupBrowser).get("/api/admin/sessions")).body.sessions as { id: string; current: boolean }[];
    const target = sessions.find((s) => !s.current)!;
    expect((await setupBrowser.request("DELETE", `/api/admin/sessions/${target.id}`)).status).toBe(200);
    const survivors = [onBeta, on(beta, setupBrowser)];
    const statuses = await Promise.all(survivors.map(async (c) => (await c.get("/api/admin/stats")).status));
    expect(statuses.sort()).toEqual([200, 401]);

    // Two factors required through alpha: a member without one, chatting as staff on beta, is cut off there.
    await alpha.ctx.admins.create("desk", "desk@example.com", "desk-pass", "support");
    const desk = beta.client();
    expect((await desk.post("/api/admin/login", { username: "desk", password: "desk-pass" })).status).toBe(200);
    const socket = await WsClient.connect(beta, desk);
    const owner = alpha.client();
    await owner.post("/api/admin/login", { username: "owner", password: "owner-pass" });
    const signedIn = await owner.post("/api/admin/login/second-factor", { recoveryCode: recoveryCodes[1] });
    expect(signedIn.text).toBe(JSON.stringify({ username: "owner" }));
    expect((await owner.put("/api/admin/team/require-2fa", { required: true })).status).toBe(200);
    expect((await socket.closed).code).toBe(4005);
    expect((await desk.get("/api/admin/payments")).body.enrol).toBe(true);
  }, 60_000);
});
