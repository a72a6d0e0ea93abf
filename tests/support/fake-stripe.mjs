/**
 * Stripe at the network layer: a local stand-in for its PaymentIntents, Charges and Refunds APIs
 * (Idempotency-Key honoured), its Events (each change to an intent, refund or dispute made through the fake
 * is an event, listed by GET /v1/events as Stripe lists them) and its webhooks, for the server's real `stripe` SDK to talk to through
 * --stripe-api-url. Plain JavaScript on node:http, so that both the Bun suites and the browser tests (run
 * by Node) use this one; the browser tests' fake Stripe.js confirms payments through `confirm`.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import Stripe from "stripe";

export const FAKE_STRIPE_SECRET_KEY = "sk_test_x";
export const FAKE_STRIPE_PUBLISHABLE_KEY = "pk_test_x";
/** The signing secret of the app's webhook that the fake signs its events with by default. */
export const FAKE_STRIPE_WEBHOOK_SECRET = "whsec_x";
/** The command-line flags that point the app at a fake Stripe API at `url`, with its keys. */
export function fakeStripeFlags(url) {
  return ["--stripe-secret-key", FAKE_STRIPE_SECRET_KEY, "--stripe-publishable-key", FAKE_STRIPE_PUBLISHABLE_KEY, "--stripe-api-url", url];
}
/** Card numbers `confirm` understands (as Stripe's test cards do). */
export const STRIPE_TEST_CARDS = { success: "4242424242424242", declined: "4000000000000002", processing: "4000000000000077" };

const REFUND_REASONS = ["requested_by_customer", "duplicate", "fraudulent"];

/** Stripe's form encoding (`metadata[kind]=access`, `expand[0]=x`) → a nested object. */
function parseForm(text) {
  const out = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[]+)\[([^\]]*)\]$/.exec(key);
    if (!match) out[key] = value;
    else (out[match[1]] ??= {})[match[2]] = value;
  }
  return out;
}

/** A Stripe event about `object` (a snapshot of it now, as Stripe sends), as the JSON Stripe would POST. */
export function stripeEventPayload(type, object, eventId = `evt_${randomUUID().replace(/-/g, "")}`, created = Math.floor(Date.now() / 1000)) {
  return JSON.stringify({
    id: eventId,
    object: "event",
    api_version: "2025-01-01",
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
}

/** An answer as the fake gives it: a status and Stripe's JSON body. */
const answer = (status, body) => ({ status, body });
const stripeError = (status, message, code) => answer(status, { error: { type: "invalid_request_error", message, ...(code ? { code } : {}) } });

/** @param {{ secretKey?: string, webhookSecret?: string }} [options] */
export async function startFakeStripe(options = {}) {
  const secretKey = options.secretKey ?? FAKE_STRIPE_SECRET_KEY;
  const webhookSecret = options.webhookSecret ?? FAKE_STRIPE_WEBHOOK_SECRET;
  const intents = new Map();
  const requests = [];
  const charges = new Map();
  const refunds = [];
  const disputes = new Map();
  /** Every event the fake's changes made, oldest first (Stripe lists them newest first). */
  const events = [];
  /** Idempotency-Key → the request's body and the answer first given, replayed as Stripe does for the same body. */
  const idempotent = new Map();
  let counter = 0;
  const signer = new Stripe(secretKey);
  let clockOffset = 0;
  const now = () => Math.floor(Date.now() / 1000) + clockOffset;
  const newId = (prefix) => `${prefix}_fake${String(++counter).padStart(6, "0")}${randomUUID().replace(/-/g, "").slice(0, 8)}`;

  /** An event about `object` as it is now, as Stripe records one for each change. */
  const record = (type, object) => {
    const event = JSON.parse(stripeEventPayload(type, structuredClone(object), newId("evt"), now()));
    events.push(event);
    return event;
  };

  const chargeOf = (intentId) => {
    const intent = intents.get(intentId);
    if (!intent?.latest_charge) throw new Error(`fake Stripe: ${intentId} has no charge`);
    return charges.get(intent.latest_charge);
  };

  /** What the provider does once the buyer has paid (or failed to); a success makes the intent's charge. */
  const setStatus = (id, status) => {
    const intent = intents.get(id);
    if (!intent) throw new Error(`fake Stripe has no intent ${id}`);
    const before = intent.status;
    intent.status = status;
    if (status === "succeeded" && !intent.latest_charge) {
      const charge = {
        id: newId("ch"),
        object: "charge",
        amount: intent.amount,
        amount_refunded: 0,
        refunded: false,
        currency: intent.currency,
        payment_intent: id,
        disputed: false,
      };
      charges.set(charge.id, charge);
      intent.latest_charge = charge.id;
    }
    const type = { succeeded: "payment_intent.succeeded", processing: "payment_intent.processing", canceled: "payment_intent.canceled" }[status];
    if (type && before !== status) record(type, intent);
    else if (status === "requires_payment_method" && before !== "requires_payment_method") record("payment_intent.payment_failed", intent);
    return intent;
  };

  /** Refunds against a charge, as Stripe's Refunds API does; null when there is nothing left to refund. */
  const refundCharge = (charge, amount, reason = null) => {
    const left = charge.amount - charge.amount_refunded;
    const wanted = amount ?? left;
    if (charge.disputed || wanted < 1 || wanted > left) return null;
    charge.amount_refunded += wanted;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund = {
      id: newId("re"),
      object: "refund",
      amount: wanted,
      currency: charge.currency,
      payment_intent: charge.payment_intent,
      charge: charge.id,
      status: "succeeded",
      created: now(),
      reason,
    };
    refunds.push(refund);
    record("refund.created", refund);
    record("charge.refunded", charge);
    return refund;
  };

  const postRefund = (params) => {
    const intent = intents.get(String(params.payment_intent ?? ""));
    if (!intent) return stripeError(404, `No such payment_intent: '${params.payment_intent}'`, "resource_missing");
    if (!intent.latest_charge) return stripeError(400, "This PaymentIntent does not have a successful charge to refund.");
    const amount = params.amount === undefined ? undefined : Number(params.amount);
    if (amount !== undefined && (!Number.isInteger(amount) || amount < 1)) return stripeError(400, "Invalid integer: amount");
    const reason = params.reason === undefined ? null : String(params.reason);
    if (reason !== null && !REFUND_REASONS.includes(reason)) return stripeError(400, "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer");
    const charge = chargeOf(intent.id);
    const refund = refundCharge(charge, amount, reason);
    if (!refund) return stripeError(400, "Refund amount is greater than the amount left to refund, or the charge is disputed.", "charge_already_refunded");
    // `expand[]=charge`: the charge as it is after this refund, in place of its id.
    const expand = Object.values(params.expand ?? {});
    return answer(200, expand.includes("charge") ? { ...refund, charge: { ...charge } } : refund);
  };

  const create = (fields) => {
    const id = fields.id ?? newId("pi");
    const intent = {
      object: "payment_intent",
      currency: "gbp",
      status: "requires_payment_method",
      client_secret: `${id}_secret_fake`,
      description: null,
      metadata: {},
      receipt_email: null,
      latest_charge: null,
      livemode: false,
      created: now(),
      ...fields,
      id,
    };
    intents.set(id, intent);
    return intent;
  };

  /** The API's answer to one request. */
  const handle = (method, url, body, headers) => {
    const params = parseForm(body);
    const idempotencyKey = headers["idempotency-key"] ?? null;
    requests.push({ method, path: url.pathname, params, authorization: headers.authorization ?? null, idempotencyKey });
    if (headers.authorization !== `Bearer ${secretKey}`) return stripeError(401, "Invalid API Key provided");
    if (method === "POST" && url.pathname === "/v1/refunds") {
      const replay = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
      if (replay && replay.body !== body) {
        return answer(400, {
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      }
      if (replay) return replay.answer;
      const result = postRefund(params);
      // A snapshot: the refund may change afterwards (fail, say), and the replay is the answer as first given.
      if (idempotencyKey) idempotent.set(idempotencyKey, { body, answer: structuredClone(result) });
      return result;
    }
    const chargeMatch = /^\/v1\/charges\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && chargeMatch) {
      const charge = charges.get(decodeURIComponent(chargeMatch[1]));
      return charge ? answer(200, charge) : stripeError(404, `No such charge: '${chargeMatch[1]}'`, "resource_missing");
    }
    if (method === "POST" && url.pathname === "/v1/payment_intents") {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1) return stripeError(400, "Invalid integer: amount");
      return answer(
        200,
        create({
          amount,
          currency: String(params.currency ?? "gbp"),
          description: params.description ?? null,
          metadata: params.metadata ?? {},
          receipt_email: params.receipt_email ?? null,
        }),
      );
    }
    const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && match) {
      const intent = intents.get(decodeURIComponent(match[1]));
      return intent ? answer(200, intent) : stripeError(404, `No such payment_intent: '${match[1]}'`, "resource_missing");
    }
    if (method === "GET" && url.pathname === "/v1/events") return listEvents(params);
    return stripeError(404, `Unrecognized request URL (${method}: ${url.pathname})`);
  };

  /**
   * GET /v1/events as Stripe answers it: newest first, `limit` (1–100, 10 by default) at a time with
   * `has_more`, paged by `starting_after` / `ending_before`, filtered by `created[gt|gte|lt|lte]` and by
   * `type` (a `*` wildcard allowed) or `types[]` (up to 20, not both); only the last 30 days are kept.
   */
  const listEvents = (params) => {
    const limit = params.limit === undefined ? 10 : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return stripeError(400, "Invalid integer: limit; must be between 1 and 100", "parameter_invalid_integer");
    if (params.type !== undefined && params.types !== undefined) return stripeError(400, "You may only specify one of these parameters: type, types.");
    const types = params.types === undefined ? null : Object.values(params.types);
    if (types && types.length > 20) return stripeError(400, "Invalid array: types; must contain 20 or fewer items");
    const typePattern = params.type === undefined ? null : new RegExp(`^${String(params.type).replace(/[.]/g, "\\.").replace(/\*/g, ".*")}$`);
    const created = params.created;
    const bound = (key) => {
      if (typeof created !== "object" || created[key] === undefined) return null;
      const value = Number(created[key]);
      return Number.isInteger(value) ? value : NaN;
    };
    const [gt, gte, lt, lte] = ["gt", "gte", "lt", "lte"].map(bound);
    if ([gt, gte, lt, lte].some(Number.isNaN)) return stripeError(400, "Invalid integer: created", "parameter_invalid_integer");
    const exact = typeof created === "string" ? Number(created) : null;
    const kept = now() - 30 * 24 * 3600;
    let list = events
      .filter((e) => e.created >= kept)
      .filter((e) => (types ? types.includes(e.type) : typePattern ? typePattern.test(e.type) : true))
      .filter((e) => (exact === null || e.created === exact) && (gt === null || e.created > gt) && (gte === null || e.created >= gte))
      .filter((e) => (lt === null || e.created < lt) && (lte === null || e.created <= lte))
      .reverse();
    const cursor = params.starting_after ?? params.ending_before;
    const at = cursor === undefined ? -1 : list.findIndex((e) => e.id === cursor);
    if (cursor !== undefined && at < 0) return stripeError(404, `No such event: '${cursor}'`, "resource_missing");
    // ending_before: the page just newer than the cursor, still newest first.
    if (params.ending_before !== undefined) {
      return answer(200, { object: "list", url: "/v1/events", has_more: at > limit, data: list.slice(Math.max(0, at - limit), at) });
    }
    const rest = list.slice(at + 1);
    return answer(200, { object: "list", url: "/v1/events", has_more: rest.length > limit, data: rest.slice(0, limit) });
  };

  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const method = req.method ?? "GET";
      const result = handle(method, url, method === "POST" ? text : url.search.slice(1), req.headers);
      res.writeHead(result.status, { "content-type": "application/json" });
      res.end(JSON.stringify(result.body));
    });
  });
  // Stripe keeps an idle keep-alive connection for a minute or more; a shorter wait (Node's is 5 s) would
  // close one that a test holds silent, and the SDK would see a reset instead of silence.
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  const deliverRaw = async (appUrl, payload, secret) => {
    const signature = await signer.webhooks.generateTestHeaderStringAsync({ payload, secret });
    return fetch(`${appUrl}/api/stripe/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body: payload });
  };
  const deliverEvent = (appUrl, type, object, opts = {}) => deliverRaw(appUrl, stripeEventPayload(type, object, opts.eventId, opts.created ?? now()), opts.secret ?? webhookSecret);

  return {
    url,
    appConfig: { stripeSecretKey: secretKey, stripePublishableKey: FAKE_STRIPE_PUBLISHABLE_KEY, stripeWebhookSecret: webhookSecret, stripeApiUrl: url },
    requests,
    intents,
    charges,
    refunds,
    setStatus,
    confirm(id, card, receiptEmail) {
      const intent = intents.get(id);
      if (!intent) return stripeError(404, "No such payment_intent");
      const digits = String(card).replace(/\D/g, "");
      if (digits === STRIPE_TEST_CARDS.declined) return answer(402, { error: { type: "card_error", code: "card_declined", message: "Your card was declined." } });
      if (digits === STRIPE_TEST_CARDS.processing) setStatus(id, "processing");
      else if (digits === STRIPE_TEST_CARDS.success) setStatus(id, "succeeded");
      else return answer(402, { error: { type: "card_error", code: "incorrect_number", message: "Your card number is incorrect." } });
      if (receiptEmail) intent.receipt_email = receiptEmail;
      return answer(200, intent);
    },
    chargeOf,
    refund(intentId, amount) {
      const refund = refundCharge(chargeOf(intentId), amount);
      if (!refund) throw new Error(`fake Stripe cannot refund ${amount ?? "the rest"} of ${intentId}`);
      return refund;
    },
    failRefund(refundId, reason = "expired_or_canceled_card") {
      const refund = refunds.find((r) => r.id === refundId);
      if (!refund || refund.status !== "succeeded") throw new Error(`fake Stripe has no refund ${refundId} that could fail`);
      const charge = charges.get(refund.charge);
      charge.amount_refunded -= refund.amount;
      charge.refunded = false;
      refund.status = reason === "canceled" ? "canceled" : "failed";
      if (reason !== "canceled") refund.failure_reason = reason;
      record(reason === "canceled" ? "refund.updated" : "refund.failed", refund);
      return { ...refund };
    },
    advanceClock(seconds) {
      clockOffset += seconds;
    },
    now,
    openDispute(intentId, status = "needs_response") {
      const charge = chargeOf(intentId);
      charge.disputed = !status.startsWith("warning");
      const dispute = { id: newId("dp"), object: "dispute", amount: charge.amount, currency: charge.currency, charge: charge.id, payment_intent: intentId, status };
      disputes.set(dispute.id, dispute);
      record("charge.dispute.created", dispute);
      return { ...dispute };
    },
    updateDispute(disputeId, status) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`fake Stripe has no dispute ${disputeId}`);
      dispute.status = status;
      if (!status.startsWith("warning")) chargeOf(dispute.payment_intent).disputed = true;
      record("charge.dispute.updated", dispute);
      return { ...dispute };
    },
    closeDispute(disputeId, status) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`fake Stripe has no dispute ${disputeId}`);
      dispute.status = status;
      record("charge.dispute.closed", dispute);
      return { ...dispute };
    },
    events,
    deliverRecorded: (appUrl, event) => deliverRaw(appUrl, JSON.stringify(event), webhookSecret),
    deliverEvent,
    addIntent: create,
    async deliverIntentEvent(appUrl, type, intentId, opts = {}) {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`fake Stripe has no intent ${intentId}`);
      return deliverEvent(appUrl, type, intent, opts);
    },
    deliverRaw,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
