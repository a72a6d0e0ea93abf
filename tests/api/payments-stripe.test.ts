import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import type { CountedDonation } from "../../src/modules/payments/service.ts";
import { startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.mjs";
import { STRIPE_TIMEOUT_MS } from "../../src/modules/payments/stripe-provider.ts";
import { reconcileAfterRestore, RESTORE_MARKER_FILE, writeRestoreMarker } from "../../src/modules/payments/reconcile.ts";
import { TcpProxy } from "../support/tcp-proxy.ts";
import { enter } from "../support/viewer.ts";

let stripe: FakeStripe;
let app: TestApp;
const donations: CountedDonation[] = [];

beforeAll(async () => {
  stripe = await startFakeStripe();
  app = await startTestApp(stripe.appConfig);
  app.ctx.payments.onDonation((d) => donations.push(d));
});
afterAll(async () => {
  await app.close();
  await stripe.close();
});

async function createAccessIntent(client: TestClient = app.client(), body: Record<string, unknown> = {}) {
  const res = await client.post("/api/create-payment-intent", { amount: 100, product: "livestream-access", ...body });
  expect(res.status).toBe(200);
  return res.body as { ok: true; clientSecret: string; paymentIntentId: string };
}

const generate = (paymentIntentId: string, client: TestClient = app.client()) => client.post("/api/generate-access-code", { paymentIntentId, deviceFingerprint: {} });
const paymentRow = async (intentId: string) =>
  await app.ctx.store.get<{ status: string; fulfilled: number; amount: number }>("SELECT status, fulfilled, amount FROM payments WHERE intent_id = ?", intentId);
const codesFor = async (intentId: string) =>
  await app.ctx.store.all<{ code: string }>("SELECT c.code FROM access_codes c JOIN payments p ON p.id = c.payment_id WHERE p.intent_id = ?", intentId);

describe("access purchase through Stripe", () => {
  test("payment-config names Stripe and the publishable key", async () => {
    expect((await app.client().get("/api/payment-config")).body).toEqual({ mode: "stripe", publishableKey: "pk_test_x", accessPrice: 100, currency: "gbp" });
  });

  test("the intent is created server-side in GBP at the server's price, whatever amount the client sends", async () => {
    const intent = await createAccessIntent(app.client(), { amount: 1 });
    expect(intent.ok).toBe(true);
    expect(intent.clientSecret).toBe(`${intent.paymentIntentId}_secret_fake`);
    const created = stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents").at(-1)!;
    expect(created.params.amount).toBe("100");
    expect(created.params.currency).toBe("gbp");
    expect(created.params.metadata).toMatchObject({ kind: "access", app: "dreadcast" });
    expect(await paymentRow(intent.paymentIntentId)).toMatchObject({ amount: 100, status: "requires_payment_method", fulfilled: 0 });
  });

  test("an unknown product is refused", async () => {
    const res = await app.client().post("/api/create-payment-intent", { amount: 100, product: "something-else" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Unknown product");
  });

  test("no code for an intent that has not succeeded", async () => {
    const intent = await createAccessIntent();
    for (const status of ["requires_payment_method", "processing", "canceled"]) {
      stripe.setStatus(intent.paymentIntentId, status);
      const res = await generate(intent.paymentIntentId);
      expect(res.status).toBe(402);
      expect(res.body.error).toBe("Payment has not been completed.");
    }
    expect(await codesFor(intent.paymentIntentId)).toHaveLength(0);
  });

  test("a succeeded intent gets one code, the same on every ask, also concurrently", async () => {
    const intent = await createAccessIntent();
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    const results = await Promise.all(Array.from({ length: 6 }, () => generate(intent.paymentIntentId)));
    const codes = new Set(results.map((r) => r.body.accessCode));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(codes.size).toBe(1);
    expect([...codes][0]).toMatch(/^SKP-/);
    expect((await generate(intent.paymentIntentId)).body.accessCode).toBe([...codes][0]);
    expect(await codesFor(intent.paymentIntentId)).toHaveLength(1);
    expect(await paymentRow(intent.paymentIntentId)).toMatchObject({ status: "succeeded", fulfilled: 1 });
  });

  test("two buyers' requests and the webhook racing them: one code, one e-mail, the same answer to both", async () => {
    for (let round = 0; round < 5; round++) {
      const email = `racer${round}@example.com`;
      const intent = await createAccessIntent(app.client(), { email });
      stripe.setStatus(intent.paymentIntentId, "succeeded");
      const [first, second, hook] = await Promise.all([
        generate(intent.paymentIntentId),
        generate(intent.paymentIntentId),
        stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId),
      ]);
      expect([first.status, second.status, hook.status]).toEqual([200, 200, 200]);
      expect(first.body.accessCode).toBe(second.body.accessCode);
      expect((await codesFor(intent.paymentIntentId)).map((c) => c.code)).toEqual([first.body.accessCode]);
      const mails = await app.ctx.store.all<{ n: number }>("SELECT COUNT(*) AS n FROM email_queue WHERE to_address = ?", email);
      expect(mails[0]!.n).toBe(1);
    }
  });

  test("unknown intents, other products' intents and malformed ids are 404", async () => {
    const foreign = stripe.addIntent({ amount: 100, status: "succeeded" });
    for (const id of ["pi_doesnotexist", foreign.id, "not-an-intent", "pi_../../v1/charges"]) {
      const res = await generate(id);
      expect(res.status).toBe(404);
    }
  });

  test("an intent tagged as ours but paid below the price issues no code", async () => {
    const cheap = stripe.addIntent({ amount: 1, status: "succeeded", metadata: { app: "dreadcast", kind: "access" } });
    const res = await generate(cheap.id);
    expect(res.status).toBe(409);
    expect(await codesFor(cheap.id)).toHaveLength(0);
  });

  test("the demo endpoints do not exist with live keys", async () => {
    expect((await app.client().post("/api/demo/confirm-payment", { clientSecret: "x", cardNumber: "4242424242424242" })).status).toBe(404);
    expect((await app.client().get("/api/demo/payment-intent?clientSecret=x")).status).toBe(404);
  });
});

describe("the Stripe webhook", () => {
  test("fulfils a purchase before the buyer asks, and the buyer then gets that same code", async () => {
    const intent = await createAccessIntent(app.client(), { email: "buyer@example.com" });
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    const res = await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, duplicate: false });
    const [issued] = await codesFor(intent.paymentIntentId);
    expect(issued!.code).toMatch(/^SKP-/);
    const queued = await app.ctx.store.all<{ to_address: string; text_body: string }>("SELECT to_address, text_body FROM email_queue WHERE dedupe_key LIKE 'access-code:%'");
    expect(queued.filter((m) => m.text_body.includes(issued!.code))).toEqual([expect.objectContaining({ to_address: "buyer@example.com" })]);
    expect((await generate(intent.paymentIntentId)).body.accessCode).toBe(issued!.code);
  });

  test("the same event delivered twice is handled once", async () => {
    const intent = await createAccessIntent();
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    const first = await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId, { eventId: "evt_twice" });
    const second = await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId, { eventId: "evt_twice" });
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect(await codesFor(intent.paymentIntentId)).toHaveLength(1);
  });

  test("late 'processing' and 'payment_failed' events do not undo a success", async () => {
    const intent = await createAccessIntent();
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId);
    stripe.setStatus(intent.paymentIntentId, "processing");
    await stripe.deliverIntentEvent(app.url, "payment_intent.processing", intent.paymentIntentId);
    stripe.setStatus(intent.paymentIntentId, "requires_payment_method");
    await stripe.deliverIntentEvent(app.url, "payment_intent.payment_failed", intent.paymentIntentId);
    expect(await paymentRow(intent.paymentIntentId)).toMatchObject({ status: "succeeded", fulfilled: 1 });
    expect(await codesFor(intent.paymentIntentId)).toHaveLength(1);
  });

  test("a failure followed by a success fulfils once", async () => {
    const intent = await createAccessIntent();
    stripe.setStatus(intent.paymentIntentId, "requires_payment_method");
    await stripe.deliverIntentEvent(app.url, "payment_intent.payment_failed", intent.paymentIntentId);
    expect(await codesFor(intent.paymentIntentId)).toHaveLength(0);
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId);
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId);
    expect(await codesFor(intent.paymentIntentId)).toHaveLength(1);
  });

  test("a bad signature is refused with 400 and changes nothing", async () => {
    const intent = await createAccessIntent();
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    const wrongSecret = await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId, { secret: "whsec_wrong" });
    expect(wrongSecret.status).toBe(400);
    expect(await wrongSecret.json()).toEqual({ error: "Invalid webhook signature" });
    const unsigned = await fetch(`${app.url}/api/stripe/webhook`, { method: "POST", body: JSON.stringify({ id: "evt_x", type: "payment_intent.succeeded" }) });
    expect(unsigned.status).toBe(400);
    expect((await fetch(`${app.url}/api/stripe/webhook`, { method: "POST" })).status).toBe(400);
    expect(await codesFor(intent.paymentIntentId)).toHaveLength(0);
  });

  test("a payload altered after signing is refused", async () => {
    const payload = JSON.stringify({ id: "evt_tamper", type: "payment_intent.succeeded", data: { object: { id: "pi_x" } } });
    const signed = await new Stripe("sk_test_x").webhooks.generateTestHeaderStringAsync({ payload, secret: "whsec_x" });
    const res = await fetch(`${app.url}/api/stripe/webhook`, {
      method: "POST",
      headers: { "stripe-signature": signed, "content-type": "application/json" },
      body: payload.replace("pi_x", "pi_y"),
    });
    expect(res.status).toBe(400);
  });

  test("events for other products on the account are acknowledged and ignored", async () => {
    const foreign = stripe.addIntent({ amount: 5000, status: "succeeded" });
    const res = await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", foreign.id);
    expect(res.status).toBe(200);
    expect(await paymentRow(foreign.id)).toBeNull();
  });
});

describe("donations through Stripe", () => {
  let viewer: TestClient;
  beforeAll(async () => {
    viewer = app.client();
    const code = await app.ctx.access.issueAccessCode("SKP");
    expect((await enter(viewer, code.code, "Benefactor")).body.valid).toBe(true);
  });

  test("a donation intent needs a viewer session", async () => {
    const res = await app.client().post("/api/create-donation-intent", { amount: 500 });
    expect(res.status).toBe(401);
  });

  const badAmounts: [unknown, string][] = [
    [99, "The smallest donation is £1.00"],
    [100001, "The largest donation is £1,000.00"],
    [5.5, "Donation amount must be a whole number of pence"],
  ];
  for (const [amount, message] of badAmounts) {
    test(`a donation of ${amount} pence is refused`, async () => {
      const res = await viewer.post("/api/create-donation-intent", { amount });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });
  }

  test("a donation counts once, only when it succeeded, and is announced once", async () => {
    const before = (await app.client().get("/api/livestream-settings")).body.currentDonation;
    const res = await viewer.post("/api/create-donation-intent", { amount: 500 });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const id = res.body.paymentIntentId as string;
    expect(stripe.intents.get(id)).toMatchObject({ amount: 500, currency: "gbp", metadata: { kind: "donation", username: "Benefactor" } });

    stripe.setStatus(id, "requires_payment_method");
    await stripe.deliverIntentEvent(app.url, "payment_intent.payment_failed", id);
    expect((await app.client().get("/api/livestream-settings")).body.currentDonation).toBe(before);

    stripe.setStatus(id, "succeeded");
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", id);
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", id);
    expect((await app.client().get("/api/livestream-settings")).body.currentDonation).toBe(before + 500);
    const announced = donations.filter((d) => d.paymentIntentId === id);
    expect(announced).toEqual([{ paymentIntentId: id, amount: 500, currency: "gbp", username: "Benefactor", userId: expect.any(Number), total: before + 500, goal: 5000 }]);
  });

  test("a donation intent cannot be turned into an access code", async () => {
    const res = await viewer.post("/api/create-donation-intent", { amount: 1000 });
    stripe.setStatus(res.body.paymentIntentId, "succeeded");
    const code = await generate(res.body.paymentIntentId);
    expect(code.status).toBe(400);
    expect(code.body.error).toBe("This payment is not an access purchase");
  });
});

test("when Stripe cannot be reached the purchase fails with 502 and no key material in the message", async () => {
  const down = await startTestApp({ stripeSecretKey: "sk_test_secret123", stripePublishableKey: "pk_test_x", stripeApiUrl: "http://127.0.0.1:9" });
  try {
    const res = await down.client().post("/api/create-payment-intent", { amount: 100, product: "livestream-access" });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: "The payment provider could not be reached. Please try again." });
  } finally {
    await down.close();
  }
});

test("when Stripe goes silent the buyer is told within the call's deadline, nothing is written, and the next purchase goes through once it answers", async () => {
  const silent = await startFakeStripe();
  const url = new URL(silent.url);
  const proxy = new TcpProxy(url.hostname, Number(url.port));
  await proxy.listen();
  const shop = await startTestApp({ ...silent.appConfig, stripeApiUrl: `http://127.0.0.1:${proxy.port}` });
  try {
    expect((await shop.client().post("/api/create-payment-intent", { product: "livestream-access" })).status).toBe(200);
    const before = (await shop.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM payments"))!.n;
    proxy.freeze();
    const started = performance.now();
    const res = await shop.client().post("/api/create-payment-intent", { product: "livestream-access" });
    const waited = performance.now() - started;
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: "The payment provider could not be reached. Please try again." });
    // Told at the call's deadline: a Stripe-compatible test URL gets no retries.
    expect(waited).toBeGreaterThanOrEqual(STRIPE_TIMEOUT_MS - 500);
    expect(waited).toBeLessThan(STRIPE_TIMEOUT_MS + 5_000);
    expect((await shop.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM payments"))!.n).toBe(before);
    proxy.thaw();
    const again = await shop.client().post("/api/create-payment-intent", { product: "livestream-access" });
    expect(again.status).toBe(200);
    expect(again.body.clientSecret).toStartWith("pi_");
  } finally {
    await shop.close();
    await proxy.close();
    await silent.close();
  }
}, 30_000);

test("the fake's events are listed as Stripe lists them to the SDK: newest first, by type and time, page after page", async () => {
  const own = await startFakeStripe();
  try {
    const sdk = new Stripe(own.appConfig.stripeSecretKey, { host: "127.0.0.1", port: new URL(own.url).port, protocol: "http", maxNetworkRetries: 0 });
    const ids = Array.from({ length: 5 }, () => own.addIntent({ amount: 100 }).id);
    for (const id of ids) own.setStatus(id, "succeeded");
    own.advanceClock(100);
    own.refund(ids[0]!);
    const everything = [];
    for await (const event of sdk.events.list({ limit: 2 })) everything.push(event.type);
    expect(everything).toEqual(["charge.refunded", "refund.created", ...ids.map(() => "payment_intent.succeeded")]);
    const later = await sdk.events.list({ created: { gte: own.now() }, types: ["refund.created", "payment_intent.succeeded"] });
    expect(later.data.map((e) => e.type)).toEqual(["refund.created"]);
    expect(later.has_more).toBe(false);
    const sales = await sdk.events.list({ type: "payment_intent.*", limit: 3 });
    expect(sales.data.map((e) => (e.data.object as { id: string }).id)).toEqual([ids[4]!, ids[3]!, ids[2]!]);
    expect(sales.has_more).toBe(true);
    await expect(sdk.events.list({ limit: 101 })).rejects.toThrow("Invalid integer: limit");
    await expect(sdk.events.list({ types: Array.from({ length: 21 }, (_, i) => `x.${i}`) })).rejects.toThrow("20 or fewer");
  } finally {
    await own.close();
  }
});

describe("reconciling with Stripe after a restore", () => {
  test("reads back the events since a time, applies each once (a second pass finds them known), skips one it cannot read, and removes the restore's marker", async () => {
    const own = await startFakeStripe();
    const warnings: string[] = [];
    const lines: string[] = [];
    const restored = await startTestApp(own.appConfig, { log: { info: (m) => lines.push(m), warn: (m) => warnings.push(m), error: () => {} } });
    try {
      const since = Date.now() - 60_000;
      // Sold while the restored database was not looking: the intent is the app's, the buyer never came back for the code.
      const intent = own.addIntent({ amount: 100, metadata: { app: "dreadcast", kind: "access", product: "livestream-access" }, receipt_email: "late@example.com" });
      own.setStatus(intent.id, "succeeded");
      // And one Stripe sends that no webhook handler could read.
      own.events.push({ ...own.events.at(-1)!, id: "evt_malformed", data: { object: { id: "pi_x" } } });
      const first = await restored.ctx.payments.reconcile(since, restored.url);
      expect(first).toEqual({ read: 2, known: 0, passes: 1, donations: 0 });
      expect(warnings.some((w) => w.includes("evt_malformed") && w.includes("skipped"))).toBe(true);
      const code = (await restored.client().post("/api/generate-access-code", { paymentIntentId: intent.id, deviceFingerprint: {} })).body.accessCode as string;
      expect(code).toMatch(/^SKP-/);
      const mailed = await restored.ctx.store.all<{ to_address: string; text_body: string }>("SELECT to_address, text_body FROM email_queue WHERE dedupe_key LIKE 'access-code:%'");
      expect(mailed).toHaveLength(1);
      expect(mailed[0]!.to_address).toBe("late@example.com");
      expect(mailed[0]!.text_body).toContain(code);

      // Again (a restart before the marker went): nothing twice.
      own.refund(intent.id);
      expect(await restored.ctx.payments.reconcile(since, restored.url)).toEqual({ read: 4, known: 1, passes: 0, donations: 0 });
      expect((await enter(restored.client(), code, "Latecomer")).body.valid).not.toBe(true);

      // Through the marker a restore leaves: one line, and the marker gone.
      writeRestoreMarker(restored.ctx.config.dataDir, { archive: "/backups/night.dreadcast", takenAt: new Date(since).toISOString() });
      await reconcileAfterRestore({
        dataDir: restored.ctx.config.dataDir,
        store: restored.ctx.store,
        payments: restored.ctx.payments,
        log: restored.ctx.log,
        siteUrl: () => restored.url,
      });
      expect(lines.filter((l) => l.startsWith("payments: reconciled with Stripe after the restore of the backup taken at "))).toHaveLength(1);
      expect(existsSync(join(restored.ctx.config.dataDir, RESTORE_MARKER_FILE))).toBe(false);
    } finally {
      await restored.close();
      await own.close();
    }
  });
});

test("a restored event that sold through Stripe, started without its keys, keeps the restore's marker until it starts with them", async () => {
  const own = await startFakeStripe();
  const dataDir = mkdtempSync(join(tmpdir(), "dreadcast-restored-"));
  const first = await startTestApp({ ...own.appConfig, dataDir });
  const intent = (await first.client().post("/api/create-payment-intent", { amount: 100, product: "livestream-access" })).body.paymentIntentId as string;
  own.setStatus(intent, "succeeded");
  expect((await first.client().post("/api/generate-access-code", { paymentIntentId: intent, deviceFingerprint: {} })).status).toBe(200);
  await first.close();
  const warnings: string[] = [];
  const demo = await startTestApp({ dataDir }, { log: { info: () => {}, warn: (m) => warnings.push(m), error: () => {} } });
  try {
    writeRestoreMarker(dataDir, { archive: "/backups/night.dreadcast", takenAt: new Date().toISOString() });
    await reconcileAfterRestore({ dataDir, store: demo.ctx.store, payments: demo.ctx.payments, log: demo.ctx.log, siteUrl: () => demo.url });
    expect(warnings.join("\n")).toContain("the restored event sold through Stripe and this server runs without its keys: start it with --stripe-secret-key");
    expect(existsSync(join(dataDir, RESTORE_MARKER_FILE))).toBe(true);
  } finally {
    await demo.close();
    await own.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
