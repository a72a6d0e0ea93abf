import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PASS_ENDED_MESSAGE } from "../../src/contracts/notices.ts";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.mjs";
import { WsClient } from "../support/ws.ts";
import { enter, makeFingerprint } from "../support/viewer.ts";

let stripe: FakeStripe;
let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  stripe = await startFakeStripe();
  // Each buyer from an address of their own: the file buys more than one address may in ten minutes.
  app = await startTestApp({ ...stripe.appConfig, trustProxy: ["127.0.0.1"] });
  admin = await loginAsAdmin(app);
});
afterAll(async () => {
  await app.close();
  await stripe.close();
});

let buyers = 0;
const ownAddress = () => ({ "x-forwarded-for": `198.51.100.${++buyers}` });

/** A pass bought through Stripe and fulfilled by its webhook; the buyer let in on a live socket. */
async function buyAndWatch(username: string, email = `${username.toLowerCase()}@example.com`) {
  const buyer = app.client();
  const address = ownAddress();
  const intent = (await buyer.post("/api/create-payment-intent", { amount: 100, product: "livestream-access", email }, address)).body;
  stripe.setStatus(intent.paymentIntentId, "succeeded");
  expect((await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId)).status).toBe(200);
  const code = (await buyer.post("/api/generate-access-code", { paymentIntentId: intent.paymentIntentId, deviceFingerprint: makeFingerprint() })).body.accessCode as string;
  expect((await enter(buyer, code, username, makeFingerprint(), undefined, address)).body.valid).toBe(true);
  const socket = await WsClient.connect(app, buyer);
  return { buyer, code, intentId: intent.paymentIntentId as string, socket };
}

/** A donation paid through Stripe by a viewer, counted by its webhook. */
async function donate(viewer: TestClient, amount: number): Promise<string> {
  const id = (await viewer.post("/api/create-donation-intent", { amount }, ownAddress())).body.paymentIntentId as string;
  stripe.setStatus(id, "succeeded");
  expect((await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", id)).status).toBe(200);
  return id;
}

const total = async () => (await app.client().get("/api/livestream-settings")).body.currentDonation as number;
const ledgerOf = async (intentId: string) =>
  ((await admin.get("/api/admin/payments")).body as { paymentIntentId: string }[]).find((p) => p.paymentIntentId === intentId) as Record<string, unknown>;
const chargeEvent = (intentId: string, opts?: { eventId?: string; created?: number }) => stripe.deliverEvent(app.url, "charge.refunded", stripe.chargeOf(intentId), opts);
const verify = (client: TestClient, code: string, username: string) =>
  client.post("/api/verify-stream-access", { accessCode: code, username, deviceFingerprint: makeFingerprint() });

describe("refunds from Stripe's webhook", () => {
  test("a full refund revokes the pass at once: socket closed with a notice, session ended, /access and re-verify refuse it, buyer e-mailed", async () => {
    const { buyer, code, intentId, socket } = await buyAndWatch("Refunded");
    stripe.refund(intentId);
    const res = await chargeEvent(intentId);
    expect(res.status).toBe(200);
    expect((await socket.closed).code).toBe(4001);
    expect(socket.events.some((e) => e.type === "system_message" && e.message === PASS_ENDED_MESSAGE)).toBe(true);
    expect((await buyer.get("/api/user-data")).status).toBe(401);
    expect((await verify(buyer, code, "Refunded")).body.valid).toBe(false);
    expect((await enter(app.client(), code, "Refunded")).body.valid).toBe(false);
    expect(await ledgerOf(intentId)).toMatchObject({
      kind: "access",
      amount: 100,
      currency: "gbp",
      status: "refunded",
      refundedAmount: 100,
      code,
      username: "Refunded",
      email: "refunded@example.com",
    });
    const mails = await app.ctx.store.all<{ to_address: string; subject: string; text_body: string }>(
      "SELECT to_address, subject, text_body FROM email_queue WHERE dedupe_key LIKE 'pass-refunded:%'",
    );
    expect(mails).toEqual([expect.objectContaining({ to_address: "refunded@example.com", subject: "Your DREADCAST access pass has been refunded" })]);
    expect(mails[0]!.text_body).toContain(code);
    expect(mails[0]!.text_body).toContain("£1.00");
  });

  test("a partial refund of a pass leaves it working; the ledger says partly refunded", async () => {
    const { buyer, code, intentId, socket } = await buyAndWatch("HalfBack");
    stripe.refund(intentId, 40);
    expect((await chargeEvent(intentId)).status).toBe(200);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "partly_refunded", refundedAmount: 40 });
    expect((await verify(buyer, code, "HalfBack")).body.valid).toBe(true);
    socket.send({ type: "chat_message", text: "still here" });
    await socket.next("chat", (e) => e.message.text === "still here");
    socket.close();
  });

  test("the same refund event twice and an older event after a newer one change nothing more", async () => {
    const viewer = (await buyAndWatch("Twice")).buyer;
    const id = await donate(viewer, 1000);
    const before = await total();
    stripe.refund(id, 300);
    const older = structuredClone(stripe.chargeOf(id));
    const olderAt = stripe.now();
    stripe.advanceClock(1);
    stripe.refund(id, 200);
    await chargeEvent(id, { eventId: "evt_refund_dup" });
    expect(await (await chargeEvent(id, { eventId: "evt_refund_dup" })).json()).toEqual({ received: true, duplicate: true });
    expect((await stripe.deliverEvent(app.url, "charge.refunded", older, { created: olderAt })).status).toBe(200);
    expect(await total()).toBe(before - 500);
    expect(await ledgerOf(id)).toMatchObject({ kind: "donation", status: "partly_refunded", refundedAmount: 500 });
  });

  test("a refunded donation leaves the total and every viewer's meter moves", async () => {
    const { buyer, socket } = await buyAndWatch("Donor");
    const watcher = await WsClient.connect(app, (await buyAndWatch("Watcher")).buyer);
    const id = await donate(buyer, 2500);
    const counted = await total();
    await watcher.next("donation_update", (e) => e.current === counted);
    stripe.refund(id);
    await chargeEvent(id);
    expect(await total()).toBe(counted - 2500);
    await watcher.next("donation_update", (e) => e.current === counted - 2500);
    await socket.next("donation_update", (e) => e.current === counted - 2500);
    watcher.close();
    socket.close();
  });

  test("a refund that arrives before the success: the pass is issued revoked and the donation never counts", async () => {
    const buyer = app.client();
    const intent = (await buyer.post("/api/create-payment-intent", { amount: 100, product: "livestream-access" })).body;
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    stripe.refund(intent.paymentIntentId);
    expect((await chargeEvent(intent.paymentIntentId)).status).toBe(200);
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId);
    const code = (await buyer.post("/api/generate-access-code", { paymentIntentId: intent.paymentIntentId, deviceFingerprint: makeFingerprint() })).body.accessCode;
    expect((await enter(buyer, code, "TooLate")).body.valid).toBe(false);

    const viewer = (await buyAndWatch("EarlyRefund")).buyer;
    const before = await total();
    const id = (await viewer.post("/api/create-donation-intent", { amount: 700 })).body.paymentIntentId;
    stripe.setStatus(id, "succeeded");
    stripe.refund(id);
    await chargeEvent(id);
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", id);
    expect(await total()).toBe(before);
    expect(await ledgerOf(id)).toMatchObject({ status: "refunded", refundedAmount: 700 });
  });

  test("a dispute opened and won before the success still ends the pass: it is issued revoked", async () => {
    const buyer = app.client();
    const intent = (await buyer.post("/api/create-payment-intent", { amount: 100, product: "livestream-access" })).body;
    stripe.setStatus(intent.paymentIntentId, "succeeded");
    const dispute = stripe.openDispute(intent.paymentIntentId);
    expect((await stripe.deliverEvent(app.url, "charge.dispute.created", dispute)).status).toBe(200);
    expect((await stripe.deliverEvent(app.url, "charge.dispute.closed", stripe.closeDispute(dispute.id, "won"))).status).toBe(200);
    await stripe.deliverIntentEvent(app.url, "payment_intent.succeeded", intent.paymentIntentId);
    const code = (await buyer.post("/api/generate-access-code", { paymentIntentId: intent.paymentIntentId, deviceFingerprint: makeFingerprint() })).body.accessCode;
    expect(code).toMatch(/^SKP-/);
    expect((await enter(buyer, code, "WonTooEarly")).body.valid).toBe(false);
    expect(await ledgerOf(intent.paymentIntentId)).toMatchObject({ status: "dispute_won" });
  });

  test("a refund or dispute for an intent this server never sold is acknowledged with 200 and changes nothing", async () => {
    const foreign = stripe.addIntent({ amount: 4000 });
    stripe.setStatus(foreign.id, "succeeded");
    stripe.refund(foreign.id);
    const before = await total();
    expect((await chargeEvent(foreign.id)).status).toBe(200);
    expect((await stripe.deliverEvent(app.url, "charge.dispute.created", stripe.openDispute(foreign.id))).status).toBe(200);
    expect((await stripe.deliverEvent(app.url, "charge.refunded", { ...stripe.chargeOf(foreign.id), payment_intent: null })).status).toBe(200);
    expect(await total()).toBe(before);
    expect(await ledgerOf(foreign.id)).toBeUndefined();
  });

  test("a malformed refund event is a 400 and is not recorded, so a corrected delivery still applies", async () => {
    const bad = await stripe.deliverEvent(app.url, "charge.refunded", { id: "ch_x", amount: "lots" }, { eventId: "evt_malformed" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Malformed charge.refunded event" });
    expect(await app.ctx.store.get("SELECT 1 FROM webhook_events WHERE id = 'evt_malformed'")).toBeNull();
    for (const [type, object] of [
      ["charge.dispute.created", { id: "dp_x", amount: 100 }],
      ["payment_intent.succeeded", null],
      ["payment_intent.succeeded", { id: "pi_x", status: "succeeded", amount: 1, currency: "gbp", metadata: { n: 1 } }],
    ] as const) {
      const res = await stripe.deliverEvent(app.url, type, object);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(`Malformed ${type} event`);
    }
  });
});

describe("disputes from Stripe's webhook", () => {
  test("a disputed pass is revoked; won or lost it stays so", async () => {
    const { buyer, code, intentId, socket } = await buyAndWatch("Chargeback");
    const dispute = stripe.openDispute(intentId);
    expect((await stripe.deliverEvent(app.url, "charge.dispute.created", dispute)).status).toBe(200);
    expect((await socket.closed).code).toBe(4001);
    expect((await verify(buyer, code, "Chargeback")).body.valid).toBe(false);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "disputed", disputedAmount: 100 });
    await stripe.deliverEvent(app.url, "charge.dispute.closed", stripe.closeDispute(dispute.id, "lost"));
    expect(await ledgerOf(intentId)).toMatchObject({ status: "dispute_lost", disputedAmount: 100 });
  });

  test("a disputed donation leaves the total; a dispute won restores it, one lost does not", async () => {
    const viewer = (await buyAndWatch("Disputer")).buyer;
    const won = await donate(viewer, 1500);
    const lost = await donate(viewer, 900);
    const counted = await total();
    const wonDispute = stripe.openDispute(won);
    const lostDispute = stripe.openDispute(lost);
    await stripe.deliverEvent(app.url, "charge.dispute.created", wonDispute);
    await stripe.deliverEvent(app.url, "charge.dispute.created", lostDispute);
    expect(await total()).toBe(counted - 2400);
    await stripe.deliverEvent(app.url, "charge.dispute.closed", stripe.closeDispute(wonDispute.id, "won"));
    await stripe.deliverEvent(app.url, "charge.dispute.closed", stripe.closeDispute(lostDispute.id, "lost"));
    expect(await total()).toBe(counted - 900);
    expect(await ledgerOf(won)).toMatchObject({ status: "dispute_won", disputedAmount: 0 });
    expect(await ledgerOf(lost)).toMatchObject({ status: "dispute_lost", disputedAmount: 900 });
  });

  test("an inquiry takes no money: the pass is revoked, the payment can still be refunded in full, and that answers it", async () => {
    const { intentId, socket } = await buyAndWatch("Inquired");
    const inquiry = stripe.openDispute(intentId, "warning_needs_response");
    expect((await stripe.deliverEvent(app.url, "charge.dispute.created", inquiry)).status).toBe(200);
    expect((await socket.closed).code).toBe(4001);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "inquiry", disputedAmount: 0, refundedAmount: 0 });
    const codeId = (await app.ctx.store.get<{ id: number }>("SELECT c.id FROM access_codes c JOIN payments p ON p.id = c.payment_id WHERE p.intent_id = ?", intentId))!.id;
    const kept = await admin.post(`/api/admin/access-codes/${codeId}/restore`);
    expect(kept.status).toBe(409);
    expect(kept.body.error).toBe("The buyer's bank is asking about this pass's payment, so it stays revoked until the inquiry is closed.");
    const refund = await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId, expectedRefunded: 0 });
    expect(refund.status).toBe(200);
    expect(refund.body.payment).toMatchObject({ status: "refunded", refundedAmount: 100 });
    stripe.advanceClock(1);
    expect((await stripe.deliverEvent(app.url, "charge.dispute.closed", stripe.closeDispute(inquiry.id, "warning_closed"))).status).toBe(200);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "refunded", refundedAmount: 100, disputedAmount: 0 });
  });

  test("an inquiry closed without a dispute: the pass it revoked can be restored, and the payment's later events leave it working", async () => {
    const { code, intentId } = await buyAndWatch("Answered");
    const inquiry = stripe.openDispute(intentId, "warning_needs_response");
    expect((await stripe.deliverEvent(app.url, "charge.dispute.created", inquiry)).status).toBe(200);
    const codeId = (await app.ctx.store.get<{ id: number }>("SELECT c.id FROM access_codes c JOIN payments p ON p.id = c.payment_id WHERE p.intent_id = ?", intentId))!.id;
    expect((await admin.post(`/api/admin/access-codes/${codeId}/restore`)).status).toBe(409);
    stripe.advanceClock(1);
    expect((await stripe.deliverEvent(app.url, "charge.dispute.closed", stripe.closeDispute(inquiry.id, "warning_closed"))).status).toBe(200);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "succeeded", codeRevoked: true, disputedAmount: 0 });
    const restored = await admin.post(`/api/admin/access-codes/${codeId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ code, revoked: false });
    const viewer = app.client();
    expect((await enter(viewer, code, "Answered", makeFingerprint(), undefined, ownAddress())).body.valid).toBe(true);
    // The closed inquiry's event again, and a partial refund, leave the restored pass working.
    stripe.advanceClock(1);
    expect((await stripe.deliverEvent(app.url, "charge.dispute.closed", stripe.closeDispute(inquiry.id, "warning_closed"))).status).toBe(200);
    stripe.refund(intentId, 30);
    expect((await chargeEvent(intentId)).status).toBe(200);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "partly_refunded", codeRevoked: false });
    expect((await viewer.get("/api/user-data")).status).toBe(200);
  });

  test("an inquiry that becomes a dispute takes the money then; its older 'inquiry' word arriving late changes nothing", async () => {
    const id = await donate((await buyAndWatch("Escalated")).buyer, 800);
    const counted = await total();
    const inquiry = stripe.openDispute(id, "warning_under_review");
    const inquiredAt = stripe.now();
    await stripe.deliverEvent(app.url, "charge.dispute.created", inquiry);
    expect(await total()).toBe(counted);
    expect(await ledgerOf(id)).toMatchObject({ status: "inquiry", disputedAmount: 0 });
    stripe.advanceClock(2);
    expect((await stripe.deliverEvent(app.url, "charge.dispute.updated", stripe.updateDispute(inquiry.id, "needs_response"))).status).toBe(200);
    expect(await total()).toBe(counted - 800);
    expect(await ledgerOf(id)).toMatchObject({ status: "disputed", disputedAmount: 800 });
    expect((await stripe.deliverEvent(app.url, "charge.dispute.updated", inquiry, { created: inquiredAt })).status).toBe(200);
    expect(await ledgerOf(id)).toMatchObject({ status: "disputed", disputedAmount: 800 });
    const refused = await admin.post("/api/admin/payments/refund", { paymentIntentId: id, expectedRefunded: 0 });
    expect(refused.status).toBe(409);
  });

  test("a dispute closed before its 'created' event arrives keeps the outcome", async () => {
    const viewer = (await buyAndWatch("OutOfOrder")).buyer;
    const id = await donate(viewer, 1200);
    const counted = await total();
    const opened = stripe.openDispute(id);
    await stripe.deliverEvent(app.url, "charge.dispute.closed", stripe.closeDispute(opened.id, "won"));
    await stripe.deliverEvent(app.url, "charge.dispute.created", opened);
    expect(await total()).toBe(counted);
    expect(await ledgerOf(id)).toMatchObject({ status: "dispute_won" });
  });
});

describe("refunds that fail or are canceled", () => {
  const refundEvent = (type: string, refund: unknown, opts?: { eventId?: string; created?: number }) => stripe.deliverEvent(app.url, type, refund, opts);

  test("a refund that fails after Stripe counted it is taken back: the total rises again and the admin sees why", async () => {
    const { buyer, socket } = await buyAndWatch("Bounced");
    const id = await donate(buyer, 1000);
    const counted = await total();
    const refund = stripe.refund(id, 400);
    await chargeEvent(id);
    expect(await total()).toBe(counted - 400);
    stripe.advanceClock(5);
    const failed = stripe.failRefund(refund.id);
    expect((await refundEvent("charge.refund.updated", failed)).status).toBe(200);
    await socket.next("donation_update", (e) => e.current === counted);
    expect(await total()).toBe(counted);
    expect(await ledgerOf(id)).toMatchObject({ status: "succeeded", refundedAmount: 0, failedRefundAmount: 400, refundFailure: "expired_or_canceled_card" });
    // The newer API's own event for the same failure, and the charge's event from before it, change nothing more.
    expect((await refundEvent("refund.failed", failed)).status).toBe(200);
    expect((await chargeEvent(id, { created: stripe.now() - 5 })).status).toBe(200);
    expect(await ledgerOf(id)).toMatchObject({ refundedAmount: 0, failedRefundAmount: 400 });
    // A late "succeeded" update of the failed refund does not bring it back.
    expect((await refundEvent("refund.updated", { ...failed, status: "succeeded", failure_reason: null }, { created: stripe.now() - 4 })).status).toBe(200);
    expect(await total()).toBe(counted);
    const csv = (await admin.get("/api/admin/payments.csv")).text.split("\r\n").find((line) => line.startsWith(`${id},`));
    expect(csv).toMatch(/,donation,10\.00,GBP,succeeded,0\.00,0\.00,10\.00,.*,4\.00$/);
    socket.close();
  });

  test("after a failed refund, Stripe's later word on the charge counts: a new refund made in the dashboard is not hidden by the old one", async () => {
    const id = await donate((await buyAndWatch("Second")).buyer, 1000);
    const first = stripe.refund(id, 300);
    await chargeEvent(id);
    stripe.advanceClock(5);
    expect((await refundEvent("charge.refund.updated", stripe.failRefund(first.id))).status).toBe(200);
    expect(await ledgerOf(id)).toMatchObject({ refundedAmount: 0 });
    stripe.advanceClock(5);
    stripe.refund(id, 100);
    await chargeEvent(id);
    expect(await ledgerOf(id)).toMatchObject({ status: "partly_refunded", refundedAmount: 100, failedRefundAmount: 300 });
  });

  test("a canceled refund no longer counts, and its reason is 'canceled'", async () => {
    const id = await donate((await buyAndWatch("Canceled")).buyer, 600);
    const refund = stripe.refund(id, 600);
    await chargeEvent(id);
    expect(await ledgerOf(id)).toMatchObject({ status: "refunded" });
    stripe.advanceClock(2);
    expect((await refundEvent("refund.updated", stripe.failRefund(refund.id, "canceled"))).status).toBe(200);
    expect(await ledgerOf(id)).toMatchObject({ status: "succeeded", refundedAmount: 0, failedRefundAmount: 600, refundFailure: "canceled" });
  });

  test("a refund event for a refund made in the dashboard counts before the charge's own event: a full one revokes the pass", async () => {
    const { intentId, socket } = await buyAndWatch("RefundFirst");
    const refund = stripe.refund(intentId);
    expect((await refundEvent("refund.created", { ...refund, status: "pending" })).status).toBe(200);
    expect((await socket.closed).code).toBe(4001);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "refunded", refundedAmount: 100, failedRefundAmount: 0, refundFailure: null });
  });

  test("the admin's refund that failed can be made again, under a new idempotency key; the pass it revoked stays revoked", async () => {
    const { code, intentId, socket } = await buyAndWatch("TryAgain");
    const first = await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId, expectedRefunded: 0 });
    expect(first.body).toMatchObject({ payment: { status: "refunded" }, revokedCode: code });
    expect((await socket.closed).code).toBe(4001);
    stripe.advanceClock(3);
    const refundId = stripe.refunds.find((r) => r.payment_intent === intentId)!.id;
    expect((await refundEvent("refund.failed", stripe.failRefund(refundId, "lost_or_stolen_card"))).status).toBe(200);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "succeeded", refundedAmount: 0, failedRefundAmount: 100, refundFailure: "lost_or_stolen_card" });
    expect((await enter(app.client(), code, "TryAgain")).body.valid).toBe(false);
    const again = await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId, expectedRefunded: 0 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ payment: { status: "refunded", refundedAmount: 100, failedRefundAmount: 100 }, revokedCode: null });
    const keys = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.params.payment_intent === intentId).map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
    expect(stripe.refunds.filter((r) => r.payment_intent === intentId).map((r) => r.status)).toEqual(["failed", "succeeded"]);
    // The buyer was told of the refund, of its failure, and of the refund that went through.
    const paymentId = (await app.ctx.store.get<{ id: number }>("SELECT id FROM payments WHERE intent_id = ?", intentId))!.id;
    const told = await app.ctx.store.all<{ dedupe_key: string }>(
      "SELECT dedupe_key FROM email_queue WHERE dedupe_key LIKE ? OR dedupe_key = ? ORDER BY id",
      `pass-refunded:${paymentId}%`,
      `pass-refund-failed:${refundId}`,
    );
    expect(told.map((m) => m.dedupe_key)).toEqual([`pass-refunded:${paymentId}`, `pass-refund-failed:${refundId}`, `pass-refunded:${paymentId}:after-100`]);
  });

  test("a pass revoked with a refund that failed can be restored from Access Codes; one refunded in full or disputed cannot", async () => {
    const codeId = async (code: string) => ((await admin.get("/api/admin/access-codes")).body as { id: number; code: string }[]).find((c) => c.code === code)!.id;
    const { code, intentId } = await buyAndWatch("Restorable");
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId, expectedRefunded: 0 })).body).toMatchObject({ revokedCode: code });
    const id = await codeId(code);
    const listed = async (code: string) =>
      ((await admin.get("/api/admin/access-codes")).body as { code: string; revoked: boolean; hold: string | null }[]).find((c) => c.code === code);
    expect(await listed(code)).toMatchObject({ revoked: true, hold: "refunded" });
    // Refunded in full: the ledger would revoke it again.
    const refused = await admin.post(`/api/admin/access-codes/${id}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("This pass was refunded in full, so it stays revoked. Generate a new code to let the buyer in again.");
    stripe.advanceClock(3);
    const refundId = stripe.refunds.find((r) => r.payment_intent === intentId)!.id;
    expect((await stripe.deliverEvent(app.url, "refund.failed", stripe.failRefund(refundId))).status).toBe(200);
    expect(await listed(code)).toMatchObject({ revoked: true, hold: null });
    const restored = await admin.post(`/api/admin/access-codes/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ code, revoked: false, hold: null });
    expect(await ledgerOf(intentId)).toMatchObject({ status: "succeeded", codeRevoked: false, failedRefundAmount: 100 });
    const viewer = app.client();
    expect((await enter(viewer, code, "Restorable", makeFingerprint(), undefined, ownAddress())).body.valid).toBe(true);
    // The failed refund's later events leave the restored pass alone; a new full refund revokes it again.
    expect(
      (
        await stripe.deliverEvent(
          app.url,
          "charge.refund.updated",
          stripe.refunds.find((r) => r.id === refundId),
        )
      ).status,
    ).toBe(200);
    expect((await viewer.get("/api/user-data")).status).toBe(200);
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId, expectedRefunded: 0 })).body).toMatchObject({ revokedCode: code });
    expect((await viewer.get("/api/user-data")).status).toBe(401);

    const disputed = await buyAndWatch("Contested");
    await stripe.deliverEvent(app.url, "charge.dispute.created", stripe.openDispute(disputed.intentId));
    const contested = await admin.post(`/api/admin/access-codes/${await codeId(disputed.code)}/restore`);
    expect(contested.status).toBe(409);
    expect(contested.body.error).toBe("This pass's payment was disputed, so it stays revoked. Generate a new code to let the buyer in again.");
    expect(await listed(disputed.code)).toMatchObject({ revoked: true, hold: "disputed" });
    expect((await enter(app.client(), disputed.code, "Contested", makeFingerprint(), undefined, ownAddress())).body.valid).toBe(false);
  });

  test("a buyer told their pass was refunded is told when the refund fails, and told again of a second refund; a partial one that fails too (its refund was mailed); a canceled refund tells no one", async () => {
    const mails = (like: string) =>
      app.ctx.store.all<{ dedupe_key: string; to_address: string; subject: string; text_body: string; html_body: string }>(
        "SELECT dedupe_key, to_address, subject, text_body, html_body FROM email_queue WHERE dedupe_key LIKE ? ORDER BY id",
        like,
      );
    const before = (await mails("pass-refund-failed:%")).length; // earlier tests' failed refunds
    const { code, intentId } = await buyAndWatch("ToldTwice");
    const paymentId = (await app.ctx.store.get<{ id: number }>("SELECT id FROM payments WHERE intent_id = ?", intentId))!.id;
    await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId, expectedRefunded: 0 });
    expect((await mails(`pass-refunded:${paymentId}%`)).map((m) => m.dedupe_key)).toEqual([`pass-refunded:${paymentId}`]);
    stripe.advanceClock(3);
    const refundId = stripe.refunds.find((r) => r.payment_intent === intentId)!.id;
    const failed = stripe.failRefund(refundId);
    expect((await stripe.deliverEvent(app.url, "refund.failed", failed)).status).toBe(200);
    // The same failure told again (by the charge's event) mails once.
    expect((await stripe.deliverEvent(app.url, "charge.refund.updated", failed)).status).toBe(200);
    const told = (await mails("pass-refund-failed:%")).filter((m) => m.dedupe_key === `pass-refund-failed:${refundId}`);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ to_address: "toldtwice@example.com", subject: "Your DREADCAST refund did not go through" });
    expect(told[0]!.text_body).toContain("The refund of £1.00 for your access pass could not be paid back to your card: the card has expired or was canceled.");
    expect(told[0]!.text_body).toContain(code);
    expect(told[0]!.html_body).toContain(code);

    // Restored, then refunded again: the buyer is told of this refund too.
    const id = ((await admin.get("/api/admin/access-codes")).body as { id: number; code: string }[]).find((c) => c.code === code)!.id;
    expect((await admin.post(`/api/admin/access-codes/${id}/restore`)).status).toBe(200);
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId, expectedRefunded: 0 })).body).toMatchObject({ revokedCode: code });
    expect((await mails(`pass-refunded:${paymentId}%`)).map((m) => m.dedupe_key)).toEqual([`pass-refunded:${paymentId}`, `pass-refunded:${paymentId}:after-100`]);

    // Half a pass refunded (the buyer is told), then failed: told that too. A full refund canceled: no mail.
    const half = await buyAndWatch("HalfFailed");
    const partial = stripe.refund(half.intentId, 50);
    await chargeEvent(half.intentId);
    stripe.advanceClock(2);
    expect((await stripe.deliverEvent(app.url, "refund.failed", stripe.failRefund(partial.id))).status).toBe(200);
    const whole = await buyAndWatch("CanceledWhole");
    const canceled = stripe.refund(whole.intentId);
    await chargeEvent(whole.intentId);
    stripe.advanceClock(2);
    expect((await stripe.deliverEvent(app.url, "refund.updated", stripe.failRefund(canceled.id, "canceled"))).status).toBe(200);
    expect((await mails("pass-partly-refunded:%")).map((m) => m.to_address)).toContain("halffailed@example.com");
    expect((await mails("pass-refund-failed:%")).map((m) => m.dedupe_key)).toContain(`pass-refund-failed:${partial.id}`);
    expect((await mails("pass-refund-failed:%")).map((m) => m.dedupe_key)).not.toContain(`pass-refund-failed:${canceled.id}`);
    expect(await mails("pass-refund-failed:%")).toHaveLength(before + 2);
  });

  test("a malformed refund event is a 400 and is not recorded", async () => {
    const good = { id: "re_x", object: "refund", amount: 100, status: "failed", payment_intent: "pi_x", created: 1_700_000_000 };
    for (const [type, object] of [
      ["refund.failed", { ...good, amount: 0 }],
      ["refund.updated", { ...good, status: undefined }],
      ["charge.refund.updated", { ...good, created: "yesterday" }],
      ["refund.created", { ...good, failure_reason: 7 }],
    ] as const) {
      const res = await refundEvent(type, object, { eventId: `evt_bad_${type}` });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(`Malformed ${type} event`);
      expect(await app.ctx.store.get("SELECT 1 FROM webhook_events WHERE id = ?", `evt_bad_${type}`)).toBeNull();
    }
    expect(await app.ctx.store.get("SELECT 1 FROM refunds WHERE id = 're_x'")).toBeNull();
    const badTime = await refundEvent("refund.failed", good, { created: -1 });
    expect(badTime.status).toBe(400);
  });
});

describe("the admin's refunds", () => {
  test("a refund goes through Stripe's Refunds API with an idempotency key: a double click refunds once", async () => {
    const { code, intentId, socket } = await buyAndWatch("DoubleClick");
    const [first, second] = await Promise.all([
      admin.post("/api/admin/payments/refund", { paymentIntentId: intentId }),
      admin.post("/api/admin/payments/refund", { paymentIntentId: intentId }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    // Both see the refund; whichever was applied first revoked the pass (on PostgreSQL either may be).
    for (const res of [first, second]) expect(res.body.payment).toMatchObject({ status: "refunded", refundedAmount: 100 });
    expect([first.body.revokedCode, second.body.revokedCode].filter(Boolean)).toEqual([code]);
    expect(stripe.refunds.filter((r) => r.payment_intent === intentId)).toHaveLength(1);
    const calls = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.params.payment_intent === intentId);
    expect(calls.length).toBe(2);
    expect(calls[0]!.idempotencyKey).toBeTruthy();
    expect(calls[1]!.idempotencyKey).toBe(calls[0]!.idempotencyKey);
    expect((await socket.closed).code).toBe(4001);
    // Stripe's own charge.refunded then arrives and changes nothing more.
    await chargeEvent(intentId);
    expect(await ledgerOf(intentId)).toMatchObject({ status: "refunded", refundedAmount: 100 });
  });

  test("a double click whose second request is read only after the first was answered is still one refund; a click after the answer is refused", async () => {
    const { code, intentId } = await buyAndWatch("SlowSecond");
    // Both clicks left the browser now; the first is answered before the server reads the second.
    const clickedAt = performance.now();
    const first = await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId });
    expect(first.status).toBe(200);
    expect(first.body.revokedCode).toBe(code);
    const second = await app.ctx.refunds.refund(intentId, undefined, app.url, undefined, undefined, clickedAt);
    expect(second.outcome.payment).toMatchObject({ status: "refunded", refundedAmount: 100 });
    expect(second.outcome.revokedCode).toBeNull();
    const calls = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.params.payment_intent === intentId);
    expect(calls.map((c) => c.idempotencyKey)).toEqual([calls[0]!.idempotencyKey, calls[0]!.idempotencyKey]);
    expect(stripe.refunds.filter((r) => r.payment_intent === intentId)).toHaveLength(1);
    // A click made once the answer was in is a new refund, and nothing is left.
    const later = await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId });
    expect(later.status).toBe(409);
    expect(later.body.error).toBe("This payment has already been refunded in full.");
  });

  test("the admin's reason goes to Stripe (a fraudulent payment's card is then blocked there); none is sent when none is given", async () => {
    const { intentId } = await buyAndWatch("StolenCard");
    const res = await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId, expectedRefunded: 0, reason: "fraudulent" });
    expect(res.status).toBe(200);
    const [call] = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.params.payment_intent === intentId);
    expect(call!.params.reason).toBe("fraudulent");
    expect(stripe.refunds.find((r) => r.payment_intent === intentId)!.reason).toBe("fraudulent");
    const id = await donate((await buyAndWatch("NoReason")).buyer, 500);
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: id, expectedRefunded: 0 })).status).toBe(200);
    const plain = stripe.requests.find((r) => r.path === "/v1/refunds" && r.params.payment_intent === id)!;
    expect("reason" in plain.params).toBe(false);
  });

  test("a refund retried with another reason is not made twice: Stripe refuses the key's other details, and so does the server, with 409", async () => {
    const id = await donate((await buyAndWatch("Changed")).buyer, 600);
    // The first attempt reached Stripe, but its answer was lost before the ledger heard of it.
    const first = await fetch(`${stripe.url}/v1/refunds`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${stripe.appConfig.stripeSecretKey}`,
        "idempotency-key": `dreadcast-refund-${id}-0-600`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ payment_intent: id, amount: "600", "expand[0]": "charge", reason: "duplicate" }).toString(),
    });
    expect(first.status).toBe(200);
    const retried = await admin.post("/api/admin/payments/refund", { paymentIntentId: id, expectedRefunded: 0, reason: "fraudulent" });
    expect(retried.status).toBe(409);
    expect(retried.body.error).toBe("This refund was just tried with other details, and may have gone through. Reload the payments and check before refunding again.");
    expect(stripe.refunds.filter((r) => r.payment_intent === id)).toHaveLength(1);
  });

  test("partial refunds add up to the amount and no further", async () => {
    const viewer = (await buyAndWatch("Partial")).buyer;
    const id = await donate(viewer, 1000);
    const counted = await total();
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 250 })).body.payment).toMatchObject({ status: "partly_refunded", refundedAmount: 250 });
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 250 })).body.payment).toMatchObject({ refundedAmount: 500 });
    const tooMuch = await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 501 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe("At most £5.00 of this payment can be refunded.");
    expect(await total()).toBe(counted - 500);
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: id })).body.payment).toMatchObject({ status: "refunded", refundedAmount: 1000 });
    const again = await admin.post("/api/admin/payments/refund", { paymentIntentId: id });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("This payment has already been refunded in full.");
  });

  test("a refund retried after its answer was lost is not made twice: what the admin saw refunded must still be so", async () => {
    const viewer = (await buyAndWatch("LostAnswer")).buyer;
    const id = await donate(viewer, 1000);
    // The admin refunds £2.50 with the payment as they saw it (nothing refunded yet).
    const first = await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 250, expectedRefunded: 0 });
    expect(first.status).toBe(200);
    expect(first.body.payment).toMatchObject({ status: "partly_refunded", refundedAmount: 250 });
    // Its answer never reached the browser; the admin presses Refund again from the same dialog.
    const retry = await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 250, expectedRefunded: 0 });
    expect(retry.status).toBe(409);
    expect(retry.body.error).toBe("This payment has changed since you opened it: £2.50 of it is refunded now. Check it before refunding again.");
    expect(stripe.refunds.filter((r) => r.payment_intent === id)).toHaveLength(1);
    // A refund made in Stripe's dashboard and recorded by its webhook counts the same way.
    stripe.refund(id, 100);
    expect((await chargeEvent(id)).status).toBe(200);
    expect(await ledgerOf(id)).toMatchObject({ refundedAmount: 350 });
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 100, expectedRefunded: 250 })).status).toBe(409);
    // Looking again, the admin refunds from what they now see.
    const next = await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 100, expectedRefunded: 350 });
    expect(next.status).toBe(200);
    expect(stripe.refunds.filter((r) => r.payment_intent === id)).toHaveLength(3);
    expect(next.body.payment).toMatchObject({ refundedAmount: 450 });
    expect((await chargeEvent(id)).status).toBe(200);
    expect(await ledgerOf(id)).toMatchObject({ refundedAmount: 450 });
  });

  test("a refund retried after the server stopped before recording it is the same refund, not a second one", async () => {
    const viewer = (await buyAndWatch("Replayed")).buyer;
    const id = await donate(viewer, 600);
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 200, expectedRefunded: 0 })).status).toBe(200);
    // As if the server had stopped between Stripe's answer and the ledger: the refund is not recorded.
    await app.ctx.store.run("DELETE FROM refunds WHERE intent_id = ?", id);
    await app.ctx.store.run("DELETE FROM charge_refunds WHERE intent_id = ?", id);
    expect((await ledgerOf(id)).refundedAmount).toBe(0);
    const retry = await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 200, expectedRefunded: 0 });
    expect(retry.status).toBe(200);
    expect(retry.body.payment).toMatchObject({ status: "partly_refunded", refundedAmount: 200 });
    // Same idempotency key, so Stripe answered with the refund it had made.
    const calls = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.params.payment_intent === id);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.idempotencyKey).toBe(calls[0]!.idempotencyKey);
    expect(stripe.refunds.filter((r) => r.payment_intent === id)).toHaveLength(1);
  });

  test("a refund made in Stripe's dashboard whose event has not arrived yet counts as soon as the admin refunds", async () => {
    const viewer = (await buyAndWatch("Dashboard")).buyer;
    const id = await donate(viewer, 800);
    stripe.refund(id, 300);
    expect(await ledgerOf(id)).toMatchObject({ refundedAmount: 0 });
    const res = await admin.post("/api/admin/payments/refund", { paymentIntentId: id, amount: 200, expectedRefunded: 0 });
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ status: "partly_refunded", refundedAmount: 500 });
    // Stripe's events then arrive (the dashboard's, carrying less than is refunded by now) and change nothing.
    expect((await chargeEvent(id)).status).toBe(200);
    expect(await ledgerOf(id)).toMatchObject({ refundedAmount: 500 });
    // The rest is what Stripe has left: £3.00.
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: id, expectedRefunded: 500 })).body.payment).toMatchObject({
      status: "refunded",
      refundedAmount: 800,
    });
    expect(stripe.chargeOf(id).amount_refunded).toBe(800);
  });

  test("a disputed payment cannot be refunded", async () => {
    const { intentId } = await buyAndWatch("HeldBack");
    await stripe.deliverEvent(app.url, "charge.dispute.created", stripe.openDispute(intentId));
    const res = await admin.post("/api/admin/payments/refund", { paymentIntentId: intentId });
    expect(res.status).toBe(409);
  });

  const bad: [string, unknown, number, string][] = [
    ["an unknown payment", { paymentIntentId: "pi_nope" }, 404, "Payment not found"],
    ["no payment id", {}, 400, "paymentIntentId is required"],
    ["a fractional amount", { paymentIntentId: "pi_nope", amount: 1.5 }, 400, "Refund amount must be a whole number of pence"],
    ["a zero amount", { paymentIntentId: "pi_nope", amount: 0 }, 400, "Refund amount must be at least 1 pence"],
    ["a string amount", { paymentIntentId: "pi_nope", amount: "100" }, 400, "Refund amount must be a number of pence"],
    ["a negative amount seen refunded", { paymentIntentId: "pi_nope", expectedRefunded: -1 }, 400, "expectedRefunded cannot be negative"],
    ["a fractional amount seen refunded", { paymentIntentId: "pi_nope", expectedRefunded: 0.5 }, 400, "expectedRefunded must be a whole number of pence"],
    ["a string amount seen refunded", { paymentIntentId: "pi_nope", expectedRefunded: "0" }, 400, "expectedRefunded must be a number of pence"],
    ["a reason Stripe does not take", { paymentIntentId: "pi_nope", reason: "changed_my_mind" }, 400, "reason must be requested_by_customer, duplicate or fraudulent"],
  ];
  for (const [name, body, status, error] of bad) {
    test(`a refund of ${name} is refused with ${status}`, async () => {
      const res = await admin.post("/api/admin/payments/refund", body);
      expect(res.status).toBe(status);
      expect(res.body.error).toBe(error);
    });
  }

  test("payments and refunds are for admins only", async () => {
    expect((await app.client().get("/api/admin/payments")).status).toBe(401);
    expect((await app.client().post("/api/admin/payments/refund", { paymentIntentId: "pi_x" })).status).toBe(401);
  });

  test("the CSV lists every payment with its net", async () => {
    const res = await admin.get("/api/admin/payments.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const [header, ...rows] = res.text.trim().split("\r\n");
    expect(header).toBe("payment_intent,kind,amount,currency,status,refunded,disputed,net,email,username,code,created_at,failed_refunds");
    expect(rows.length).toBe(((await admin.get("/api/admin/payments")).body as unknown[]).length);
    expect(rows.some((r) => /,access,1\.00,GBP,refunded,1\.00,0\.00,0\.00,doubleclick@example\.com,DoubleClick,SKP-/.test(r))).toBe(true);
  });

  test("the donation total equals the ledger's net of donations", async () => {
    const payments = (await admin.get("/api/admin/payments")).body as { kind: string; amount: number; refundedAmount: number; disputedAmount: number }[];
    const net = payments.filter((p) => p.kind === "donation").reduce((sum, p) => sum + p.amount - Math.min(p.amount, p.refundedAmount + p.disputedAmount), 0);
    expect(await total()).toBe(net);
  });
});
