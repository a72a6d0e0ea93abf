/**
 * Stripe at the network layer for browser tests: a local stand-in for Stripe's PaymentIntents, Charges and
 * Refunds APIs (which the server's real `stripe` SDK talks to through --stripe-api-url; Idempotency-Key
 * honoured), and a fake Stripe.js served in place of https://js.stripe.com that satisfies
 * @stripe/react-stripe-js and confirms through the same intents.
 */
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import Stripe from "stripe";

export const FAKE_STRIPE_SECRET_KEY = "sk_test_x";
export const FAKE_STRIPE_PUBLISHABLE_KEY = "pk_test_x";
/** The signing secret of the app's webhook, for a test that passes it with --stripe-webhook-secret. */
export const FAKE_STRIPE_WEBHOOK_SECRET = "whsec_e2e";
/** Card numbers the fake Stripe.js understands (as Stripe's test cards do). */
export const STRIPE_TEST_CARDS = { success: "4242424242424242", declined: "4000000000000002", processing: "4000000000000077" };

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

function send(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const stripeError = (message, extra = {}) => ({ error: { type: "invalid_request_error", message, ...extra } });

/**
 * @returns {Promise<{ url: string, intents: Map<string, any>, charges: Map<string, any>, refunds: any[],
 *   requests: { method: string, path: string, params: any, idempotencyKey: string | null }[],
 *   confirm(id: string, card: string, receiptEmail?: string): { status: number, body: any },
 *   failRefund(id: string, reason?: string): any, deliverEvent(appUrl: string, type: string, object: any): Promise<Response>,
 *   close(): Promise<void> }>}
 */
export async function startFakeStripeApi() {
  const intents = new Map();
  const charges = new Map();
  const refunds = [];
  /** Idempotency-Key → the answer first given, replayed as Stripe does. */
  const idempotent = new Map();
  const requests = [];
  let counter = 0;
  const signer = new Stripe(FAKE_STRIPE_SECRET_KEY);
  const newId = (prefix) => `${prefix}_fake${String(++counter).padStart(6, "0")}${randomUUID().replace(/-/g, "").slice(0, 8)}`;

  /** POST /v1/refunds: part or all of what is left of the intent's charge. */
  const refund = (params) => {
    const intent = intents.get(String(params.payment_intent ?? ""));
    if (!intent) return { status: 404, body: stripeError(`No such payment_intent: '${params.payment_intent}'`, { code: "resource_missing" }) };
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : null;
    if (!charge) return { status: 400, body: stripeError("This PaymentIntent does not have a successful charge to refund.") };
    const left = charge.amount - charge.amount_refunded;
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > left) return { status: 400, body: stripeError("Refund amount is greater than the amount left to refund.", { code: "charge_already_refunded" }) };
    const reason = params.reason ?? null;
    if (reason !== null && !["requested_by_customer", "duplicate", "fraudulent"].includes(reason)) return { status: 400, body: stripeError("Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer") };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const created = { id: newId("re"), object: "refund", amount, currency: charge.currency, charge: charge.id, payment_intent: intent.id, status: "succeeded", created: Math.floor(Date.now() / 1000), reason };
    refunds.push(created);
    return { status: 200, body: created };
  };

  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const params = parseForm(req.method === "POST" ? text : url.search.slice(1));
      const idempotencyKey = req.headers["idempotency-key"] ?? null;
      requests.push({ method: req.method ?? "", path: url.pathname, params, idempotencyKey });
      if (req.headers.authorization !== `Bearer ${FAKE_STRIPE_SECRET_KEY}`) return send(res, 401, stripeError("Invalid API Key provided"));
      if (req.method === "POST" && url.pathname === "/v1/refunds") {
        const answer = (idempotencyKey && idempotent.get(idempotencyKey)) ?? refund(params);
        if (idempotencyKey) idempotent.set(idempotencyKey, answer);
        return send(res, answer.status, answer.body);
      }
      const charge = /^\/v1\/charges\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && charge) {
        const found = charges.get(decodeURIComponent(charge[1]));
        return found ? send(res, 200, found) : send(res, 404, stripeError(`No such charge: '${charge[1]}'`, { code: "resource_missing" }));
      }
      if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
        const id = newId("pi");
        const intent = {
          id,
          object: "payment_intent",
          amount: Number(params.amount),
          currency: params.currency ?? "gbp",
          status: "requires_payment_method",
          client_secret: `${id}_secret_fake`,
          description: params.description ?? null,
          metadata: params.metadata ?? {},
          receipt_email: params.receipt_email ?? null,
          latest_charge: null,
          livemode: false,
          created: Math.floor(Date.now() / 1000),
        };
        intents.set(id, intent);
        return send(res, 200, intent);
      }
      const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && match) {
        const intent = intents.get(decodeURIComponent(match[1]));
        return intent ? send(res, 200, intent) : send(res, 404, stripeError(`No such payment_intent: '${match[1]}'`, { code: "resource_missing" }));
      }
      return send(res, 404, stripeError(`Unrecognized request URL (${req.method}: ${url.pathname})`));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    charges,
    refunds,
    requests,
    /** What Stripe does when the buyer pays with `card` in the Payment Element. */
    confirm(id, card, receiptEmail) {
      const intent = intents.get(id);
      if (!intent) return { status: 404, body: stripeError("No such payment_intent") };
      const digits = String(card).replace(/\D/g, "");
      if (digits === STRIPE_TEST_CARDS.declined) {
        return { status: 402, body: { error: { type: "card_error", code: "card_declined", message: "Your card was declined." } } };
      }
      if (digits === STRIPE_TEST_CARDS.processing) intent.status = "processing";
      else if (digits === STRIPE_TEST_CARDS.success) {
        intent.status = "succeeded";
        const charge = { id: newId("ch"), object: "charge", amount: intent.amount, amount_refunded: 0, refunded: false, currency: intent.currency, payment_intent: id };
        charges.set(charge.id, charge);
        intent.latest_charge = charge.id;
      } else return { status: 402, body: { error: { type: "card_error", code: "incorrect_number", message: "Your card number is incorrect." } } };
      if (receiptEmail) intent.receipt_email = receiptEmail;
      return { status: 200, body: intent };
    },
    /** The refund fails (a closed card, say): its money returns to the account and the charge counts it no more. */
    failRefund(id, reason = "expired_or_canceled_card") {
      const refund = refunds.find((r) => r.id === id && r.status === "succeeded");
      if (!refund) throw new Error(`fake Stripe has no refund ${id} that could fail`);
      const charge = charges.get(refund.charge);
      charge.amount_refunded -= refund.amount;
      charge.refunded = false;
      Object.assign(refund, { status: "failed", failure_reason: reason });
      return { ...refund };
    },
    /** A signed event about `object`, delivered to the app's webhook as Stripe does. */
    async deliverEvent(appUrl, type, object) {
      const payload = JSON.stringify({ id: newId("evt"), object: "event", api_version: "2025-01-01", created: Math.floor(Date.now() / 1000), type, livemode: false, pending_webhooks: 1, data: { object } });
      const signature = await signer.webhooks.generateTestHeaderStringAsync({ payload, secret: FAKE_STRIPE_WEBHOOK_SECRET });
      return fetch(`${appUrl}/api/stripe/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body: payload });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The fake Stripe.js: enough of Stripe() for Elements, the Payment Element and confirmPayment. */
export const FAKE_STRIPE_JS = `
(function () {
  function intentId(secret) { return String(secret).split("_secret_")[0]; }
  function Stripe(publishableKey) {
    var created = [];
    function makeElement(type, options) {
      var node = null;
      var handlers = {};
      var element = {
        mount: function (target) {
          node = typeof target === "string" ? document.querySelector(target) : target;
          node.innerHTML = '<div class="fake-stripe-element" data-element-type="' + type + '" data-layout="' + ((options && options.layout) || "") + '">' +
            '<label style="display:grid;gap:.35rem;color:#f3ece4;font-size:.9rem">Card number (Stripe)' +
            '<input name="fake-stripe-card" inputmode="numeric" style="min-height:44px;padding:.6rem;border-radius:8px;border:1px solid #5a1e27;background:#160a0d;color:#f3ece4"></label></div>';
          setTimeout(function () { (handlers.ready || []).forEach(function (h) { h({ elementType: type }); }); }, 0);
        },
        on: function (event, handler) { (handlers[event] = handlers[event] || []).push(handler); return element; },
        off: function (event, handler) { handlers[event] = (handlers[event] || []).filter(function (h) { return h !== handler; }); return element; },
        update: function () {},
        destroy: function () { if (node) node.innerHTML = ""; },
        unmount: function () { if (node) node.innerHTML = ""; },
        focus: function () {}, blur: function () {}, clear: function () {}, collapse: function () {}
      };
      created.push({ type: type, element: element });
      window.__fakeStripe.elementOptions.push({ type: type, options: options || {} });
      return element;
    }
    var elements = function (options) {
      window.__fakeStripe.elementsOptions = options;
      return {
        create: makeElement,
        getElement: function (type) { var found = created.filter(function (c) { return c.type === type; })[0]; return found ? found.element : null; },
        update: function () {},
        submit: function () { return Promise.resolve({}); },
        fetchUpdates: function () { return Promise.resolve({}); }
      };
    };
    function api(path, init) {
      return fetch("https://api.stripe.com/v1/" + path, init).then(function (r) { return r.json(); });
    }
    return {
      elements: elements,
      retrievePaymentIntent: function (clientSecret) {
        return api("payment_intents/" + intentId(clientSecret) + "?client_secret=" + encodeURIComponent(clientSecret)).then(function (body) {
          return body.error ? { error: body.error } : { paymentIntent: body };
        });
      },
      confirmPayment: function (args) {
        window.__fakeStripe.confirmCalls.push({ confirmParams: args.confirmParams, redirect: args.redirect, hasElements: !!args.elements });
        var input = document.querySelector('[name="fake-stripe-card"]');
        var secret = args.elements && window.__fakeStripe.elementsOptions ? window.__fakeStripe.elementsOptions.clientSecret : args.clientSecret;
        return api("payment_intents/" + intentId(secret) + "/confirm", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ card: input ? input.value : "", receipt_email: args.confirmParams && args.confirmParams.receipt_email })
        }).then(function (body) { return body.error ? { error: body.error } : { paymentIntent: body }; });
      },
      createToken: function () { return Promise.resolve({}); },
      createPaymentMethod: function () { return Promise.resolve({}); },
      confirmCardPayment: function () { return Promise.resolve({}); },
      _registerWrapper: function () {},
      registerAppInfo: function () {}
    };
  }
  Stripe.version = "endive";
  window.__fakeStripe = { elementsOptions: null, elementOptions: [], confirmCalls: [] };
  window.Stripe = Stripe;
})();
`;

/**
 * Serves the fake Stripe.js for https://js.stripe.com and answers the fake's calls to https://api.stripe.com
 * from `fake`. Returns the Stripe.js URLs the page asked for.
 * @param {import("playwright-core").BrowserContext | import("playwright-core").Page} target
 * @param {Awaited<ReturnType<typeof startFakeStripeApi>>} fake
 */
export async function routeStripe(target, fake) {
  const scriptRequests = [];
  await target.route("https://js.stripe.com/**", (route) => {
    scriptRequests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "application/javascript", body: FAKE_STRIPE_JS });
  });
  await target.route("https://api.stripe.com/**", async (route) => {
    const url = new URL(route.request().url());
    const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(url.pathname);
    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type" };
    if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    let result = { status: 404, body: stripeError("Unrecognized request URL") };
    if (confirm) {
      const { card, receipt_email: email } = JSON.parse(route.request().postData() ?? "{}");
      result = fake.confirm(decodeURIComponent(confirm[1]), card, email);
    } else if (retrieve) {
      const intent = fake.intents.get(decodeURIComponent(retrieve[1]));
      const secret = url.searchParams.get("client_secret");
      result = intent && intent.client_secret === secret ? { status: 200, body: intent } : { status: 404, body: stripeError("No such payment_intent") };
    }
    return route.fulfill({ status: result.status, contentType: "application/json", headers: cors, body: JSON.stringify(result.body) });
  });
  return scriptRequests;
}
