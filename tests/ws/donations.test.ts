import { afterAll, beforeAll, expect, test } from "bun:test";
import { DEMO_CARD_DECLINED, DEMO_CARD_SUCCESS } from "../../src/contracts/payments.ts";
import { startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { joinAs } from "../support/viewer.ts";
import { WsClient } from "../support/ws.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function donationIntent(viewer: TestClient, pence: number): Promise<{ clientSecret: string; paymentIntentId: string }> {
  const res = await viewer.post("/api/create-donation-intent", { amount: pence });
  if (res.status !== 200) throw new Error(`create-donation-intent: ${res.status} ${res.text}`);
  return res.body;
}

const donationCount = async () => (await app.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM donations"))!.n;

test("a paid donation counts once however often it is reported, and everyone sees it", async () => {
  const donor = await joinAs(app, "Patron");
  const ws = await WsClient.connect(app, donor);
  const watcher = await WsClient.connect(app, await joinAs(app, "Onlooker"));
  const intent = await donationIntent(donor, 2000);

  expect(await ws.expectError({ type: "donation", paymentIntentId: intent.paymentIntentId, amount: 20, username: "Patron" })).toBe("That payment has not succeeded.");
  expect(await donationCount()).toBe(0);

  const paid = await donor.post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: DEMO_CARD_SUCCESS });
  expect(paid.body.paymentIntent.status).toBe("succeeded");
  for (let i = 0; i < 2; i++) ws.send({ type: "donation", paymentIntentId: intent.paymentIntentId, amount: 999_999, username: "Someone" });

  const line = (await watcher.next("chat", (e) => e.message.type === "donation")).message;
  expect(line).toMatchObject({ username: "Patron", type: "donation", donation: 20, text: "donated £20.00", isPinned: false });
  expect(await watcher.next("donation_update", (e) => e.current === 2000)).toEqual({ type: "donation_update", current: 2000, goal: 5000 });

  await Bun.sleep(300);
  expect(await donationCount()).toBe(1);
  expect(watcher.of("chat").filter((e) => e.message.type === "donation")).toHaveLength(1);
  expect(ws.of("error")).toHaveLength(1);
  // The donation line is part of the history a newcomer gets.
  const late = await WsClient.connect(app, await joinAs(app, "Latecomer"));
  expect(
    late
      .of("chatHistory")[0]!
      .messages.filter((m) => m.type === "donation")
      .map((m) => m.donation),
  ).toEqual([20]);
  for (const s of [ws, watcher, late]) s.close();
});

test("a declined donation is never counted", async () => {
  const donor = await joinAs(app, "Skint");
  const ws = await WsClient.connect(app, donor);
  const intent = await donationIntent(donor, 500);
  await donor.post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: DEMO_CARD_DECLINED });
  const before = await donationCount();
  expect(await ws.expectError({ type: "donation", paymentIntentId: intent.paymentIntentId, amount: 5 })).toBe("That payment has not succeeded.");
  await Bun.sleep(100);
  expect(await donationCount()).toBe(before);
  expect(ws.of("chat").some((e) => e.message.type === "donation")).toBe(false);
  ws.close();
});

test("a viewer cannot claim someone else's donation or an unknown intent", async () => {
  const donor = await joinAs(app, "Giver");
  const intent = await donationIntent(donor, 500);
  const thief = await WsClient.connect(app, await joinAs(app, "Claimer"));
  expect(await thief.expectError({ type: "donation", paymentIntentId: intent.paymentIntentId })).toBe("Donation not found.");
  expect(await thief.expectError({ type: "donation", paymentIntentId: "pi_does_not_exist" })).toBe("Donation not found.");
  expect(await thief.expectError({ type: "donation", amount: 50 })).toBe("Invalid donation message: paymentIntentId: Invalid input: expected string, received undefined");
  thief.close();
});

test("donation reports are limited per person, since each may ask the payment provider", async () => {
  const ws = await WsClient.connect(app, await joinAs(app, "Reporter"));
  const errors: string[] = [];
  for (let i = 0; i < 11; i++) errors.push(await ws.expectError({ type: "donation", paymentIntentId: `pi_unknown_${i}` }));
  expect(errors.slice(0, 10).every((e) => e === "Donation not found.")).toBe(true);
  expect(errors[10]).toBe("Too many donation reports. Please wait a minute.");
  ws.close();
});

test("with Stripe and no webhook, a donation the viewer reports is counted once the provider says it succeeded", async () => {
  const { startFakeStripe } = await import("../support/fake-stripe.mjs");
  const stripe = await startFakeStripe();
  const live = await startTestApp({
    stripeSecretKey: "sk_test_x",
    stripePublishableKey: "pk_test_x",
    stripeApiUrl: stripe.url,
    enableTestCodes: true,
  });
  try {
    const donor = await joinAs(live, "Benefactor");
    const ws = await WsClient.connect(live, donor);
    const res = await donor.post("/api/create-donation-intent", { amount: 5000 });
    expect(res.status).toBe(200);
    const id = res.body.paymentIntentId as string;
    expect(await ws.expectError({ type: "donation", paymentIntentId: id })).toBe("That payment has not succeeded.");

    stripe.setStatus(id, "succeeded");
    ws.send({ type: "donation", paymentIntentId: id });
    ws.send({ type: "donation", paymentIntentId: id });
    expect((await ws.next("donation_update", (e) => e.current === 5000)).current).toBe(5000);
    await Bun.sleep(200);
    expect((await live.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM donations"))!.n).toBe(1);
    ws.close();
  } finally {
    await live.close();
    await stripe.close();
  }
});
