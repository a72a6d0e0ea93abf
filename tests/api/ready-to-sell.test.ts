import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SALES_CLOSED_MESSAGE } from "../../src/contracts/ready-to-sell.ts";
import { loginAsAdmin, memberOf, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.mjs";
import { buyDemoCode } from "../support/viewer.ts";

const buyPass = (client: TestClient) => client.post("/api/create-payment-intent", { amount: 100, product: "livestream-access" });
const doneOf = (body: { items: { key: string; done: boolean }[] }) => Object.fromEntries(body.items.map((i) => [i.key, i.done]));

describe("the ready-to-sell checklist in demo mode", () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await loginAsAdmin(app);
  });
  afterAll(() => app.close());

  test("lists what a buyer meets before the first sale, each ticked once it is set; demo mode sells without legal links", async () => {
    const first = await admin.get("/api/admin/ready-to-sell");
    expect(first.status).toBe(200);
    expect(first.body.items.map((i: { label: string }) => i.label)).toEqual([
      "Organiser and contact",
      "Privacy policy",
      "Terms of service",
      "Payments in demo mode",
      "Stream source",
      "A test purchase",
    ]);
    expect(doneOf(first.body)).toEqual({ organizer: false, privacy: false, terms: false, payments: false, stream: false, testPurchase: false });
    expect(first.body.items[0].detail).toBe("Set the organiser's name and contact e-mail in Settings: every e-mail and the footer name them.");
    expect(first.body).toMatchObject({ paymentMode: "demo", salesOpen: true, closedReason: null });
    expect((await app.client().get("/api/livestream-settings")).body.salesOpen).toBe(true);

    await admin.put("/api/admin/livestream-settings", {
      organizerName: "Night Owl Events",
      contactEmail: "help@nightowl.example",
      privacyUrl: "https://nightowl.example/privacy",
      termsUrl: "https://nightowl.example/terms",
      embedUrl: "https://player.example/embed/night",
    });
    await buyDemoCode(app.client());
    const after = await admin.get("/api/admin/ready-to-sell");
    expect(doneOf(after.body)).toEqual({ organizer: true, privacy: true, terms: true, payments: false, stream: true, testPurchase: true });
    expect(after.body.items.find((i: { key: string }) => i.key === "organizer").detail).toBe("Night Owl Events · help@nightowl.example");
    expect(after.body.items.find((i: { key: string }) => i.key === "testPurchase").detail).toBe("1 pass bought so far.");
  });

  test("every member who sees the dashboard reads it; without a session it is 401", async () => {
    expect((await (await memberOf(app, "crow", "moderator")).get("/api/admin/ready-to-sell")).status).toBe(200);
    expect((await app.client().get("/api/admin/ready-to-sell")).status).toBe(401);
  });
});

describe("live payments before the legal links exist", () => {
  let stripe: FakeStripe;
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    app = await startTestApp(stripe.appConfig, { legalLinks: false });
    admin = await loginAsAdmin(app);
  });
  afterAll(async () => {
    await app.close();
    await stripe.close();
  });

  test("BUY NOW stays closed, the server refuses the purchase with 409, and the panel says which links are missing", async () => {
    expect((await app.client().get("/api/livestream-settings")).body.salesOpen).toBe(false);
    const refused = await buyPass(app.client());
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: SALES_CLOSED_MESSAGE });
    const ready = await admin.get("/api/admin/ready-to-sell");
    expect(ready.body).toMatchObject({
      paymentMode: "stripe",
      salesOpen: false,
      closedReason: "BUY NOW stays closed until the privacy policy and terms of service links are set in Settings: real card payments need them published first.",
    });
    expect(doneOf(ready.body).payments).toBe(true);
    expect(ready.body.items.find((i: { key: string }) => i.key === "payments").label).toBe("Payments live");

    await admin.put("/api/admin/livestream-settings", { privacyUrl: "https://nightowl.example/privacy" });
    expect((await admin.get("/api/admin/ready-to-sell")).body.closedReason).toBe(
      "BUY NOW stays closed until the terms of service link is set in Settings: real card payments need them published first.",
    );
    expect((await buyPass(app.client())).status).toBe(409);
  });

  test("once both are set, passes are on sale", async () => {
    await admin.put("/api/admin/livestream-settings", { privacyUrl: "https://nightowl.example/privacy", termsUrl: "https://nightowl.example/terms" });
    expect((await app.client().get("/api/livestream-settings")).body.salesOpen).toBe(true);
    expect((await admin.get("/api/admin/ready-to-sell")).body).toMatchObject({ salesOpen: true, closedReason: null });
    const intent = await buyPass(app.client());
    expect(intent.status).toBe(200);
    expect(intent.body.clientSecret).toBeString();
  });

  test("clearing a link closes the sale again", async () => {
    await admin.put("/api/admin/livestream-settings", { termsUrl: "" });
    expect((await app.client().get("/api/livestream-settings")).body.salesOpen).toBe(false);
    expect((await buyPass(app.client())).status).toBe(409);
  });
});
