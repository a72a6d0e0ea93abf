import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CountedDonation } from "../../src/modules/payments/service.ts";
import { startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { enter, makeFingerprint } from "../support/viewer.ts";

let app: TestApp;
const donations: CountedDonation[] = [];
beforeAll(async () => {
  app = await startTestApp();
  app.ctx.payments.onDonation((d) => donations.push(d));
});
afterAll(() => app.close());

const startPurchase = async (client: TestClient = app.client(), amount: unknown = 100) => {
  const res = await client.post("/api/create-payment-intent", { amount, product: "livestream-access" });
  expect(res.status).toBe(200);
  return res.body as { ok: true; clientSecret: string; paymentIntentId: string };
};
const confirm = (clientSecret: string, cardNumber: string) => app.client().post("/api/demo/confirm-payment", { clientSecret, cardNumber });
const generate = (paymentIntentId: string) => app.client().post("/api/generate-access-code", { paymentIntentId, deviceFingerprint: makeFingerprint() });
const intentState = (clientSecret: string) => app.client().get(`/api/demo/payment-intent?clientSecret=${encodeURIComponent(clientSecret)}`);

describe("demo purchase", () => {
  test("payment-config says demo with no publishable key", async () => {
    expect((await app.client().get("/api/payment-config")).body).toEqual({ mode: "demo", publishableKey: null, accessPrice: 100, currency: "gbp" });
  });

  test("the intent costs the server's price and its client secret names it", async () => {
    const intent = await startPurchase(app.client(), 1);
    expect(intent.ok).toBe(true);
    expect(intent.paymentIntentId).toMatch(/^pi_demo_/);
    expect(intent.clientSecret.startsWith(`${intent.paymentIntentId}_secret_`)).toBe(true);
    const stored = await app.ctx.store.get<{ amount: number }>("SELECT amount FROM demo_payment_intents WHERE id = ?", intent.paymentIntentId);
    expect(stored!.amount).toBe(100);
    expect((await intentState(intent.clientSecret)).body).toEqual({ id: intent.paymentIntentId, status: "requires_payment_method" });
  });

  test("the declined test card fails with 402 and the card message; the good card then succeeds", async () => {
    const intent = await startPurchase();
    const declined = await confirm(intent.clientSecret, "4000 0000 0000 0002");
    expect(declined.status).toBe(402);
    expect(declined.body).toEqual({ error: "Your card was declined." });
    expect((await generate(intent.paymentIntentId)).status).toBe(402);
    const paid = await confirm(intent.clientSecret, "4242424242424242");
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ ok: true, paymentIntent: { id: intent.paymentIntentId, status: "succeeded" } });
    expect((await intentState(intent.clientSecret)).body.status).toBe("succeeded");
  });

  const refused: [string, number][] = [
    ["5555 5555 5555 4444", 400],
    ["not a card", 400],
    ["", 400],
  ];
  for (const [card, status] of refused) {
    test(`card ${JSON.stringify(card)} is refused with ${status}`, async () => {
      const intent = await startPurchase();
      const res = await confirm(intent.clientSecret, card);
      expect(res.status).toBe(status);
      expect(res.body.error).toBe("Demo mode takes only the test card 4242 4242 4242 4242.");
    });
  }

  test("an unknown client secret is 404", async () => {
    expect((await confirm("pi_demo_nothing_secret_nothing", "4242424242424242")).status).toBe(404);
    expect((await intentState("pi_demo_nothing_secret_nothing")).status).toBe(404);
  });

  test("purchase, confirm, generate: one code, the same when asked again and concurrently", async () => {
    const intent = await startPurchase();
    expect((await generate(intent.paymentIntentId)).status).toBe(402);
    await confirm(intent.clientSecret, "4242 4242 4242 4242");
    const first = await generate(intent.paymentIntentId);
    expect(first.status).toBe(200);
    expect(first.body.accessCode).toMatch(/^SKP-[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    const again = await Promise.all(Array.from({ length: 8 }, () => generate(intent.paymentIntentId)));
    expect(new Set(again.map((r) => r.body.accessCode))).toEqual(new Set([first.body.accessCode]));
    const count = (await app.ctx.store.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM access_codes c JOIN payments p ON p.id = c.payment_id WHERE p.intent_id = ?",
      intent.paymentIntentId,
    ))!.n;
    expect(count).toBe(1);
  });

  test("an e-mail given when the card is confirmed is where the access code goes", async () => {
    const intent = await startPurchase();
    const res = await app.client().post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: "4242424242424242", email: "buyer@example.com" });
    expect(res.status).toBe(200);
    const code = (await generate(intent.paymentIntentId)).body.accessCode as string;
    const row = await app.ctx.store.get<{ email: string | null }>("SELECT email FROM access_codes WHERE code = ?", code);
    expect(row!.email).toBe("buyer@example.com");
  });

  test("a malformed e-mail at confirmation is refused before the card is charged", async () => {
    const intent = await startPurchase();
    const res = await app.client().post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: "4242424242424242", email: "nope" });
    expect(res.status).toBe(400);
    expect((await intentState(intent.clientSecret)).body.status).toBe("requires_payment_method");
  });

  test("the webhook does not exist in demo mode", async () => {
    expect((await app.client().post("/api/stripe/webhook", "{}")).status).toBe(404);
  });
});

describe("demo donation", () => {
  let viewer: TestClient;
  beforeAll(async () => {
    viewer = app.client();
    const code = await app.ctx.access.issueAccessCode("SKP");
    await enter(viewer, code.code, "Patron");
  });

  test("counts once after the test card succeeds and moves the public total", async () => {
    const res = await viewer.post("/api/create-donation-intent", { amount: 2000 });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(typeof res.body.clientSecret).toBe("string");
    expect((await app.client().get("/api/livestream-settings")).body.currentDonation).toBe(0);
    await confirm(res.body.clientSecret, "4000000000000002");
    expect((await app.client().get("/api/livestream-settings")).body.currentDonation).toBe(0);
    await confirm(res.body.clientSecret, "4242424242424242");
    await confirm(res.body.clientSecret, "4242424242424242");
    expect((await app.client().get("/api/livestream-settings")).body.currentDonation).toBe(2000);
    expect(donations).toEqual([
      { paymentIntentId: res.body.paymentIntentId, amount: 2000, currency: "gbp", username: "Patron", userId: expect.any(Number), total: 2000, goal: 5000 },
    ]);
  });

  test("a banned viewer cannot start a donation", async () => {
    const code = await app.ctx.access.issueAccessCode("SKP");
    const banned = app.client();
    await enter(banned, code.code, "Heckler");
    await app.ctx.store.run("INSERT INTO banned_users (username, access_code_id, created_at) VALUES ('Heckler', ?, 0)", code.id);
    expect((await banned.post("/api/create-donation-intent", { amount: 500 })).status).toBe(403);
  });
});
