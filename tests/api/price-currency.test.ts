import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.mjs";
import { eventually } from "../support/eventually.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";
import { AdminPanelService } from "../../src/modules/admin-panel/service.ts";

let stripe: FakeStripe;
let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  stripe = await startFakeStripe();
  app = await startTestApp(stripe.appConfig);
  admin = await loginAsAdmin(app);
});
afterAll(async () => {
  await app.close();
  await stripe.close();
});

/** PUT the admin settings with these fields changed. */
async function save(changes: Record<string, unknown>) {
  const { fakeViewersEnabled, fakeViewersTarget, hasSales, ...current } = (await admin.get("/api/admin/livestream-settings")).body;
  return admin.put("/api/admin/livestream-settings", { ...current, ...changes });
}

describe("the event's price and currency", () => {
  test("default £1.00 in GBP, in the admin and public settings and the payment config", async () => {
    expect((await admin.get("/api/admin/livestream-settings")).body).toMatchObject({ accessPrice: 100, currency: "gbp", hasSales: false });
    expect((await app.client().get("/api/livestream-settings")).body).toMatchObject({ accessPrice: 100, currency: "gbp" });
    expect((await app.client().get("/api/payment-config")).body).toMatchObject({ accessPrice: 100, currency: "gbp" });
  });

  const refused: [Record<string, unknown>, string][] = [
    [{ accessPrice: 29 }, "Access price must be at least £0.30"],
    [{ accessPrice: 100_001 }, "Access price must be at most £1,000.00"],
    [{ accessPrice: 299, currency: "sek" }, "Access price must be at least kr 3.00"],
    [{ accessPrice: 4.5 }, "Access price must be whole pence"],
    [{ accessPrice: "450" }, "Access price must be a number"],
    [{ currency: "jpy" }, "Choose one of the listed currencies"],
    [{ currency: "GBP" }, "Choose one of the listed currencies"],
  ];
  for (const [changes, error] of refused) {
    test(`${JSON.stringify(changes)} is refused: ${error}`, async () => {
      const res = await save(changes);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
      expect((await admin.get("/api/admin/livestream-settings")).body).toMatchObject({ accessPrice: 100, currency: "gbp" });
    });
  }

  test("€4.50 set before any sale: new intents are charged €4.50 whatever the client sends, donations in euros", async () => {
    const res = await save({ accessPrice: 450, currency: "eur" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accessPrice: 450, currency: "eur" });
    expect((await app.client().get("/api/livestream-settings")).body).toMatchObject({ accessPrice: 450, currency: "eur" });
    const intent = (await app.client().post("/api/create-payment-intent", { amount: 100, product: "livestream-access" })).body;
    expect(stripe.intents.get(intent.paymentIntentId)).toMatchObject({ amount: 450, currency: "eur" });
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId);

    const viewer = app.client();
    expect((await enter(viewer, (await app.ctx.access.issueAccessCode("SKP")).code, "EuroDonor")).body.valid).toBe(true);
    const tooSmall = await viewer.post("/api/create-donation-intent", { amount: 99 });
    expect(tooSmall.body.error).toBe("The smallest donation is €1.00");
    const donation = (await viewer.post("/api/create-donation-intent", { amount: 500 })).body;
    expect(stripe.intents.get(donation.paymentIntentId)).toMatchObject({ amount: 500, currency: "eur" });
    stripe.setStatus(donation.paymentIntentId, "succeeded");
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", donation.paymentIntentId);
    expect((await app.client().get("/api/livestream-settings")).body.currentDonation).toBe(500);
    expect((await admin.get("/api/admin/stats")).body).toMatchObject({ donationTotal: 500, currency: "eur" });
    // The donation line is announced once the donation is counted, after the webhook is answered.
    const line = await eventually(() => app.ctx.store.get<{ text: string }>("SELECT text FROM chat_messages WHERE type = 'donation' ORDER BY seq DESC LIMIT 1"));
    expect(line.text).toBe("donated €5.00");
  });

  test("after the first sale a new currency needs confirming; amounts paid keep theirs and totals never mix", async () => {
    const refused = await save({ currency: "usd" });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("Payments have already been taken in EUR. Confirm the change of currency to USD.");
    const saved = await save({ currency: "usd", accessPrice: 500, confirmCurrencyChange: true });
    expect(saved.status).toBe(200);
    expect((await app.client().get("/api/livestream-settings")).body).toMatchObject({ currency: "usd", accessPrice: 500, currentDonation: 0 });
    const payments = (await admin.get("/api/admin/payments")).body as { currency: string; amount: number }[];
    expect(payments.map((p) => [p.amount, p.currency]).sort()).toEqual([
      [450, "eur"],
      [500, "eur"],
    ]);
    const intent = (await app.client().post("/api/create-payment-intent", { product: "livestream-access" })).body;
    expect(stripe.intents.get(intent.paymentIntentId)).toMatchObject({ amount: 500, currency: "usd" });
  });

  test("after the change the dashboard gives one donation total per currency, and the euro donation's chat line stays in euros", async () => {
    expect((await admin.get("/api/admin/stats")).body).toMatchObject({
      currency: "usd",
      donationTotal: 0,
      donationTotals: [
        { currency: "usd", amount: 0 },
        { currency: "eur", amount: 500 },
      ],
    });
    const lastDonationLine = () => app.ctx.chat.messages.history().findLast((m) => m.type === "donation");
    expect(lastDonationLine()).toMatchObject({ text: "donated €5.00", donation: 5, currency: "eur" });
    // As a restarted server reads it back, and as a joining viewer gets it.
    await app.ctx.chat.messages.load();
    expect(lastDonationLine()).toMatchObject({ text: "donated €5.00", donation: 5, currency: "eur" });
  });
});

test("demo mode charges the event's price in its currency too", async () => {
  const demo = await startTestApp();
  try {
    const demoAdmin = await loginAsAdmin(demo);
    const current = (await demoAdmin.get("/api/admin/livestream-settings")).body;
    const { fakeViewersEnabled, fakeViewersTarget, hasSales, ...body } = current;
    expect((await demoAdmin.put("/api/admin/livestream-settings", { ...body, accessPrice: 450, currency: "eur" })).status).toBe(200);
    const { paymentIntentId } = await buyDemoCode(demo.client());
    expect(await demo.ctx.store.get("SELECT amount, currency FROM demo_payment_intents WHERE id = ?", paymentIntentId)).toEqual({ amount: 450, currency: "eur" });
    expect(((await demoAdmin.get("/api/admin/payments")).body as unknown[])[0]).toMatchObject({ paymentIntentId, amount: 450, currency: "eur", status: "succeeded" });
    const refund = await demoAdmin.post("/api/admin/payments/refund", { paymentIntentId });
    expect(refund.body).toMatchObject({ payment: { status: "refunded", refundedAmount: 450 }, revokedCode: expect.stringMatching(/^SKP-/) });
  } finally {
    await demo.close();
  }
});

test("the dashboard's donation history counts only the event's currency: a sample taken under another one shows the last total in it", async () => {
  const own = await startTestApp();
  try {
    const ownAdmin = await loginAsAdmin(own);
    const panel = new AdminPanelService(own.ctx.store, own.ctx.access);
    const now = Date.now();
    const at = (minutesAgo: number) => now - minutesAgo * 60_000;
    // £12 and £20 donated, then the event sold in euros (€5 donated), then in pounds again; one sample from before samples kept their currency.
    await own.ctx.store.run("INSERT INTO stats_samples (sampled_at, viewer_count, donation_total) VALUES (?, 3, 700)", at(60));
    for (const [minutes, total, currency] of [
      [50, 1200, "gbp"],
      [40, 2000, "gbp"],
      [30, 0, "eur"],
      [20, 500, "eur"],
      [10, 2000, "gbp"],
    ] as const) {
      await panel.recordSample(4, total, currency, at(minutes));
    }
    const donations = async () => {
      const { samples } = (await ownAdmin.get("/api/admin/stats/history")).body as { samples: { sampledAt: string; donationTotal: number }[] };
      return [60, 50, 40, 30, 20, 10].map((m) => samples.find((s) => s.sampledAt === new Date(at(m)).toISOString())?.donationTotal);
    };
    expect(await donations()).toEqual([700, 1200, 2000, 2000, 2000, 2000]);

    const { fakeViewersEnabled, fakeViewersTarget, hasSales, ...current } = (await ownAdmin.get("/api/admin/livestream-settings")).body;
    expect((await ownAdmin.put("/api/admin/livestream-settings", { ...current, currency: "eur" })).status).toBe(200);
    // The sample from before counts as the event's currency, whichever it is now.
    expect(await donations()).toEqual([700, 700, 700, 0, 500, 500]);
  } finally {
    await own.close();
  }
});
