import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BUSY_MESSAGE } from "../../src/lib/errors.ts";
import type { Config } from "../../src/config.ts";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient, type TestResponse } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { cookieOf, say, upgradeStatus, WsClient } from "../support/ws.ts";
import { buyDemoCode, enter, joinAs, makeFingerprint } from "../support/viewer.ts";
import { createTestDatabase, postgresAvailable, TEST_POSTGRES_URL, type TestDatabase } from "../support/postgres.ts";
import { recordingLogger } from "../support/logger.ts";
import { TcpProxy } from "../support/tcp-proxy.ts";

/**
 * PostgreSQL lost while the server runs, and back: a TCP proxy stands between the app and the server,
 * and is cut (every connection dropped, none accepted) and restored.
 */
const server = new URL(TEST_POSTGRES_URL);
const available = await postgresAvailable();
if (!available) console.warn(`PostgreSQL not reachable at ${server.host}: SKIPPED the test of PostgreSQL lost while running (set DREADCAST_TEST_DATABASE_URL or start a server)`);

/** A page with a head, as the build writes it, for the stream page's tags to go into. */
const PAGE = "<!doctype html><html><head><title>dreadcast</title></head><body></body></html>";
/** The stream screen's chunk, which /livestream names in its HTML (scripts/build-web.ts). */
const STREAM_SCREEN = "/assets/livestream-page-0a1b2c3d.js";

/** A test app on its own database, reached through a TcpProxy in front of the PostgreSQL server. */
async function appBehindProxy(overrides: Partial<Config>, logged: string[]): Promise<{ db: TestDatabase; proxy: TcpProxy; app: TestApp }> {
  const db = await createTestDatabase();
  const proxy = new TcpProxy(server.hostname, Number(server.port || 5432));
  await proxy.listen();
  const url = new URL(db.url);
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  const app = await startTestApp(
    { databaseUrl: url.toString(), ...overrides },
    { log: recordingLogger(logged), page: PAGE, files: { [STREAM_SCREEN]: "export {};" }, preloads: { "/livestream": [STREAM_SCREEN] } },
  );
  return { db, proxy, app };
}

function expectBusy(res: TestResponse, what: string): void {
  expect({ what, status: res.status, body: res.body }).toEqual({ what, status: 503, body: { error: BUSY_MESSAGE } });
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}

/** A demo purchase from start to code; resolves with what each step answered (it may stop at any). */
async function purchase(client: TestClient): Promise<{ statuses: number[]; intentId: string | null; clientSecret: string | null; code: string | null }> {
  const statuses: number[] = [];
  const intent = await client.post("/api/create-payment-intent", { amount: 100, product: "livestream-access" });
  statuses.push(intent.status);
  if (intent.status !== 200) return { statuses, intentId: null, clientSecret: null, code: null };
  const { paymentIntentId: intentId, clientSecret } = intent.body;
  const confirm = await client.post("/api/demo/confirm-payment", { clientSecret, cardNumber: "4242 4242 4242 4242" });
  statuses.push(confirm.status);
  if (confirm.status !== 200) return { statuses, intentId, clientSecret, code: null };
  const code = await client.post("/api/generate-access-code", { paymentIntentId: intentId, deviceFingerprint: makeFingerprint() });
  statuses.push(code.status);
  return { statuses, intentId, clientSecret, code: code.status === 200 ? code.body.accessCode : null };
}

describe.skipIf(!available)("PostgreSQL lost while running", () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;
  const logged: string[] = [];

  beforeAll(async () => {
    ({ db, proxy, app } = await appBehindProxy({}, logged));
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await db?.drop();
  });

  test("requests answer 503 with Retry-After, the chat keeps its sockets, and everything comes back with the database", async () => {
    // Before: a viewer and a moderator-less chat of two, an admin, a code bought and not yet entered.
    const admin = await loginAsAdmin(app);
    const alice = await joinAs(app, "Alice", "SKP");
    const bram = await joinAs(app, "Bram");
    const carol = await joinAs(app, "Carol");
    const aliceWs = await WsClient.connect(app, alice);
    const bramWs = await WsClient.connect(app, bram);
    await say(aliceWs, "the lights are flickering");
    await bramWs.next("chat", (e) => e.message.text === "the lights are flickering");
    const visitor = app.client();
    const bought = await buyDemoCode(visitor);
    expect((await app.client().get("/healthz")).status).toBe(200);

    // Purchases under way when it goes: each step either happens whole or is answered 503.
    const buyers = Array.from({ length: 6 }, () => app.client());
    const inFlight = Promise.all(buyers.map((buyer) => purchase(buyer)));
    await Bun.sleep(15);
    await proxy.cut();
    const outcomes = await inFlight;
    for (const { statuses } of outcomes) for (const status of statuses) expect([200, 503]).toContain(status);

    // Gone: every request that needs it says so and when to try again — the relay and the upgrade too.
    expectBusy(await enter(visitor, bought.accessCode, "Dagon"), "validate-access of a fresh visitor");
    expectBusy(await admin.get("/api/admin/stats"), "admin stats");
    expectBusy(await carol.get("/api/livestream-settings"), "settings for a viewer");
    expectBusy(await carol.get("/api/stream/hls/stream.m3u8"), "the relay's fast path");
    expectBusy(await app.client().post("/api/create-payment-intent", { amount: 100, product: "livestream-access" }), "a new purchase");
    const health = await app.client().get("/healthz");
    expect(health.status).toBe(503);
    // The landing page still opens: its head and first-paint settings as last read, or without them.
    const landing = await fetch(`${app.url}/`);
    expect({ status: landing.status, body: landing.status === 200 ? "" : await landing.clone().text() }).toEqual({ status: 200, body: "" });
    expect(await landing.text()).toContain("<title>");
    // The stream page too, naming its screen's code as ever.
    const stream = await fetch(`${app.url}/livestream`);
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain(`<link rel="modulepreload" href="${STREAM_SCREEN}"`);
    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(carol) })).toBe(503);

    // The chat: the open sockets stay, a line is refused to its sender alone, hearts still count.
    expect(await aliceWs.expectError({ type: "chat_message", text: "is anyone there?" })).toBe(BUSY_MESSAGE);
    const hearts = app.ctx.chat.heartCount() + 3;
    for (let i = 0; i < 3; i++) aliceWs.send({ type: "send_heart" });
    await bramWs.next("hearts", (e) => e.count === hearts);
    await Bun.sleep(1500); // the counters' ticks keep failing meanwhile (an idle mail worker reads nothing until a message is queued or falls due)
    expect(aliceWs.socket.readyState).toBe(WebSocket.OPEN);
    expect(bramWs.socket.readyState).toBe(WebSocket.OPEN);
    expect(bramWs.of("error")).toEqual([]);
    expect(bramWs.lines().map((l) => l.text)).not.toContain("is anyone there?");

    // Said once each, not on every request, frame or tick; nothing went to the error log.
    const said = (start: string) => logged.filter((line) => line.startsWith(start)).length;
    expect(logged.filter((line) => line.startsWith("error:"))).toEqual([]);
    expect(said("warn: database unavailable, requests that need it are answered 503")).toBe(1);
    expect(said("warn: database unavailable, chat frames that need it are refused")).toBe(1);
    expect(said("warn: e-mail queue not read")).toBeLessThanOrEqual(1);
    expect(said("warn: heart count not saved")).toBe(1);

    // Back: within a few seconds, with no restart.
    await proxy.restore();
    await eventually(async () => (await app.client().get("/healthz")).status === 200, 5000);

    // The code bought before, entered now; a new one bought and entered; the purchases cut off finish.
    expect((await enter(visitor, bought.accessCode, "Dagon")).body).toMatchObject({ valid: true });
    const latecomer = app.client();
    const fresh = await buyDemoCode(latecomer);
    expect((await enter(latecomer, fresh.accessCode, "Elspeth")).body).toMatchObject({ valid: true });
    for (const [i, outcome] of outcomes.entries()) {
      if (!outcome.intentId || outcome.code) continue;
      const buyer = buyers[i]!;
      expect((await buyer.post("/api/demo/confirm-payment", { clientSecret: outcome.clientSecret, cardNumber: "4242 4242 4242 4242" })).status).toBe(200);
      const code = await buyer.post("/api/generate-access-code", { paymentIntentId: outcome.intentId, deviceFingerprint: makeFingerprint() });
      expect(code.status).toBe(200);
    }
    expect((await admin.get("/api/admin/stats")).status).toBe(200);
    expect((await carol.get("/api/livestream-settings")).status).toBe(200);

    // The same sockets carry the chat again; new ones open.
    await say(aliceWs, "the lights are back");
    await bramWs.next("chat", (e) => e.message.text === "the lights are back");
    const carolWs = await WsClient.connect(app, carol);
    await say(carolWs, "what did I miss?");
    await aliceWs.next("chat", (e) => e.message.text === "what did I miss?");

    // Nothing half-written: every paid pass has its code, the refused line was never stored, the hearts are kept.
    const store = app.ctx.store;
    expect(
      await store.all("SELECT intent_id FROM payments p WHERE (p.fulfilled = 1 OR p.status = 'succeeded') AND NOT EXISTS (SELECT 1 FROM access_codes c WHERE c.payment_id = p.id)"),
    ).toEqual([]);
    expect((await store.get<{ n: number }>("SELECT COUNT(*) AS n FROM payments WHERE fulfilled = 1"))!.n).toBe(3 + outcomes.filter((o) => o.intentId).length);
    expect(await store.all("SELECT id FROM chat_messages WHERE text = ?", "is anyone there?")).toEqual([]);
    await eventually(async () => (await store.get<{ value: number }>("SELECT value FROM event_counters WHERE name = 'hearts'"))?.value === hearts, 3000);

    // And said when it was over.
    // (the mail worker says it is back only if it said it was lost: it reads the queue when there is something to send)
    const mailLost = said("warn: e-mail queue not read");
    await eventually(() => said("info: e-mail queue read again") === mailLost, 3000);
    expect(said("info: heart count saved again")).toBe(1);
    expect(logged.filter((line) => line.startsWith("error:"))).toEqual([]);
    for (const ws of [aliceWs, bramWs, carolWs]) ws.close();
  }, 30_000);
});

/**
 * PostgreSQL that stops answering without going away — the server hung, or the network between dropping
 * everything silently: the connections stay open and no answer comes. Every statement has a deadline
 * (here a 1 s statement timeout, so 2 s in all), after which the request is answered 503 and the pool's
 * connections are dropped and made anew, so that the store is never held up by a connection that may
 * never answer again.
 */
describe.skipIf(!available)("PostgreSQL that stops answering", () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;
  const logged: string[] = [];
  const DEADLINE_MS = 2000;

  beforeAll(async () => {
    ({ db, proxy, app } = await appBehindProxy({ databaseTimeoutMs: 1000, metrics: true }, logged));
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await db?.drop();
  });

  /** The response and how long it took. */
  async function timed(request: Promise<TestResponse>): Promise<{ res: TestResponse; ms: number }> {
    const started = performance.now();
    const res = await request;
    return { res, ms: performance.now() - started };
  }

  test("silent: requests and chat lines are refused once the deadline passes, nothing hangs, and all comes back", async () => {
    const admin = await loginAsAdmin(app);
    const alice = await joinAs(app, "Alice");
    const bram = await joinAs(app, "Bram");
    const aliceWs = await WsClient.connect(app, alice);
    const bramWs = await WsClient.connect(app, bram);
    await say(aliceWs, "do you hear the humming?");
    await bramWs.next("chat", (e) => e.message.text === "do you hear the humming?");
    const renewals = async () => Number(/^dreadcast_database_pool_renewals_total\{[^}]*\} (\d+)$/m.exec((await app.client().get("/metrics")).text)?.[1]);
    const before = await renewals();
    expect(before).toBe(0);

    proxy.freeze();
    // Several at once, new connections frozen too: each answered 503 with Retry-After, none after much more than the deadline.
    const answers = await Promise.all([
      timed(admin.get("/api/admin/stats")),
      timed(bram.get("/api/livestream-settings")),
      timed(app.client().post("/api/create-payment-intent", { amount: 100, product: "livestream-access" })),
      timed(app.client().get("/healthz")),
    ]);
    for (const [i, { res, ms }] of answers.entries()) {
      if (i === 3) expect(res.status).toBe(503);
      else expectBusy(res, `request ${i} while PostgreSQL is silent`);
      expect(ms).toBeLessThan(DEADLINE_MS + 2500);
    }
    // A line: refused to its sender in time, never shown; the sockets stay.
    const said = performance.now();
    expect(await aliceWs.expectError({ type: "chat_message", text: "hello? HELLO?" })).toBe(BUSY_MESSAGE);
    expect(performance.now() - said).toBeLessThan(DEADLINE_MS + 2500);
    expect(aliceWs.socket.readyState).toBe(WebSocket.OPEN);
    expect(bramWs.socket.readyState).toBe(WebSocket.OPEN);

    // It answers again: within a few seconds, with no restart.
    proxy.thaw();
    await eventually(async () => (await app.client().get("/healthz")).status === 200, 8000);
    expect(await renewals()).toBeGreaterThan(before);
    expect((await admin.get("/api/admin/stats")).status).toBe(200);
    expect((await bram.get("/api/livestream-settings")).status).toBe(200);
    await say(aliceWs, "it passed");
    await bramWs.next("chat", (e) => e.message.text === "it passed");
    // The refused line was never stored, even though its statement may have reached the server late.
    await Bun.sleep(300);
    expect(await app.ctx.store.all("SELECT id FROM chat_messages WHERE text = ?", "hello? HELLO?")).toEqual([]);
    expect(logged.filter((line) => line.startsWith("error:"))).toEqual([]);
    expect(logged.some((line) => line.startsWith("warn: database unavailable, requests that need it are answered 503"))).toBe(true);
    aliceWs.close();
    bramWs.close();
  }, 40_000);

  test("connections lost for good, the server fine: the pool is opened anew and requests succeed again by themselves", async () => {
    const admin = await loginAsAdmin(app);
    const carol = await joinAs(app, "Carol");
    expect((await carol.get("/api/livestream-settings")).status).toBe(200);
    // Every open connection goes silent for ever (never thawed); a new one goes through.
    proxy.freeze({ newOnes: "through" });
    const first = await timed(admin.get("/api/admin/stats"));
    expect([200, 503]).toContain(first.res.status);
    expect(first.ms).toBeLessThan(DEADLINE_MS + 2500);
    await eventually(async () => (await admin.get("/api/admin/stats")).status === 200, DEADLINE_MS + 3000);
    expect((await carol.get("/api/livestream-settings")).status).toBe(200);
    const ws = await WsClient.connect(app, carol);
    await say(ws, "still here");
    ws.close();
    expect(logged.filter((line) => line.startsWith("error:"))).toEqual([]);
    proxy.thaw();
  }, 30_000);

  test("a statement stuck behind a lock is cancelled at the statement timeout: 503, not 500, and the next one goes through", async () => {
    const carol = await joinAs(app, "Dana");
    const { SQL } = await import("bun");
    const holder = new SQL({ url: db.url, max: 1 });
    const locked = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    const holding = holder.begin(async (tx) => {
      await tx.unsafe("LOCK TABLE viewer_sessions IN ACCESS EXCLUSIVE MODE");
      locked.resolve();
      await release.promise;
    });
    await locked.promise;
    try {
      const { res, ms } = await timed(carol.get("/api/livestream-settings"));
      expectBusy(res, "a viewer's request while their session's table is locked");
      expect(ms).toBeLessThan(DEADLINE_MS + 1500);
    } finally {
      release.resolve();
      await holding;
      await holder.close();
    }
    expect((await carol.get("/api/livestream-settings")).status).toBe(200);
    expect(logged.filter((line) => line.startsWith("error:"))).toEqual([]);
  }, 30_000);
});
