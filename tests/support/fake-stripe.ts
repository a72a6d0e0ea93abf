import Stripe from "stripe";

/** The slice of a PaymentIntent our server reads and the fake keeps. */
export interface FakeIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  receipt_email: string | null;
  latest_charge: string | null;
  livemode: false;
  created: number;
}

export interface FakeCharge {
  id: string;
  object: "charge";
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  currency: string;
  payment_intent: string;
  disputed: boolean;
}

export interface FakeRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string;
  status: "succeeded" | "failed" | "canceled";
  created: number;
  failure_reason?: string;
  /** requested_by_customer, duplicate or fraudulent, as asked; null when none was given. */
  reason: string | null;
}

export interface FakeDispute {
  id: string;
  object: "dispute";
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: string;
}

export interface FakeStripeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  authorization: string | null;
  idempotencyKey: string | null;
}

export interface FakeStripe {
  url: string;
  /** The server settings that point an app at this fake, with its keys and webhook secret. */
  appConfig: { stripeSecretKey: string; stripePublishableKey: string; stripeWebhookSecret: string; stripeApiUrl: string };
  requests: FakeStripeRequest[];
  intents: Map<string, FakeIntent>;
  charges: Map<string, FakeCharge>;
  refunds: FakeRefund[];
  /** What the provider would do after the buyer pays (or fails to); a success makes the intent's charge. */
  setStatus(id: string, status: string): FakeIntent;
  /** The charge of a succeeded intent. */
  chargeOf(intentId: string): FakeCharge;
  /** A refund made in Stripe's dashboard (not through the app); the whole remaining amount by default. */
  refund(intentId: string, amount?: number): FakeRefund;
  /**
   * A refund fails (the card was closed, say) or is canceled: its money returns to the account, the
   * charge's `amount_refunded` drops by it. Returns the refund as Stripe's events then carry it.
   */
  failRefund(refundId: string, reason?: string | "canceled"): FakeRefund;
  /** Moves the fake's clock (its objects' and events' `created`) forward. */
  advanceClock(seconds: number): void;
  /** The fake's clock: epoch seconds. */
  now(): number;
  /**
   * The buyer's bank opens a dispute over the whole charge, or (with "warning_needs_response") an inquiry
   * that takes no money yet.
   */
  openDispute(intentId: string, status?: string): FakeDispute;
  /** The dispute moves on (an inquiry becomes a dispute: "needs_response"). */
  updateDispute(disputeId: string, status: string): FakeDispute;
  /** The dispute is decided: "won" gives the money back, "lost" keeps it with the buyer; an inquiry ends "warning_closed". */
  closeDispute(disputeId: string, status: "won" | "lost" | "warning_closed"): FakeDispute;
  /** A signed event about any object (charge, dispute, intent) delivered to the app's webhook. */
  deliverEvent(appUrl: string, type: string, object: unknown, options?: { eventId?: string; secret?: string; created?: number }): Promise<Response>;
  /** An intent created behind the app's back (another product on the same account, say). */
  addIntent(fields: Partial<FakeIntent> & { amount: number }): FakeIntent;
  /** A signed `payment_intent.*` event delivered to the app's webhook; returns the app's response. */
  deliverIntentEvent(appUrl: string, type: string, intentId: string, options?: { eventId?: string; secret?: string }): Promise<Response>;
  /** Delivers an exact payload with a signature made with `secret` (for replay and tampering tests). */
  deliverRaw(appUrl: string, payload: string, secret: string): Promise<Response>;
  close(): Promise<void>;
}

/** Stripe's form encoding (`metadata[kind]=access`, `expand[0]=x`) → a nested object. */
function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[]+)\[([^\]]*)\]$/.exec(key);
    if (!match) {
      out[key] = value;
      continue;
    }
    const bucket = (out[match[1]!] ??= {}) as Record<string, string>;
    bucket[match[2]!] = value;
  }
  return out;
}

/** A Stripe event about `object` (a snapshot of it now, as Stripe sends), as the JSON Stripe would POST. */
export function stripeEventPayload(type: string, object: unknown, eventId = `evt_${crypto.randomUUID().replace(/-/g, "")}`, created = Math.floor(Date.now() / 1000)): string {
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

function stripeError(status: number, message: string, code?: string): Response {
  return Response.json({ error: { type: "invalid_request_error", message, ...(code ? { code } : {}) } }, { status });
}

/**
 * A local stand-in for Stripe's PaymentIntents, Charges and Refunds APIs (Idempotency-Key honoured) and
 * its webhooks, for the real `stripe` SDK to talk to.
 */
export async function startFakeStripe(options: { secretKey?: string; webhookSecret?: string } = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? "sk_test_x";
  const webhookSecret = options.webhookSecret ?? "whsec_x";
  const intents = new Map<string, FakeIntent>();
  const requests: FakeStripeRequest[] = [];
  const charges = new Map<string, FakeCharge>();
  const refunds: FakeRefund[] = [];
  const disputes = new Map<string, FakeDispute>();
  /** Idempotency-Key → the answer first given, as Stripe replays it. */
  /** Idempotency-Key → the request's body and the answer first given, replayed as Stripe does for the same body. */
  const idempotent = new Map<string, { body: string; response: Response }>();
  let counter = 0;
  const signer = new Stripe(secretKey);
  let clockOffset = 0;
  const now = () => Math.floor(Date.now() / 1000) + clockOffset;
  const newId = (prefix: string) => `${prefix}_fake${String(++counter).padStart(6, "0")}${crypto.randomUUID().replace(/-/g, "").slice(0, 8)}`;

  const chargeOf = (intentId: string): FakeCharge => {
    const intent = intents.get(intentId);
    if (!intent?.latest_charge) throw new Error(`fake Stripe: ${intentId} has no charge`);
    return charges.get(intent.latest_charge)!;
  };

  /** Refunds against a charge, as Stripe's Refunds API does; null when there is nothing left to refund. */
  const refundCharge = (charge: FakeCharge, amount?: number, reason: string | null = null): FakeRefund | null => {
    const left = charge.amount - charge.amount_refunded;
    const wanted = amount ?? left;
    if (charge.disputed || wanted < 1 || wanted > left) return null;
    charge.amount_refunded += wanted;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund: FakeRefund = { id: newId("re"), object: "refund", amount: wanted, currency: charge.currency, payment_intent: charge.payment_intent, charge: charge.id, status: "succeeded", created: now(), reason };
    refunds.push(refund);
    return refund;
  };

  const postRefund = (params: Record<string, unknown>): Response => {
    const intent = intents.get(String(params.payment_intent ?? ""));
    if (!intent) return stripeError(404, `No such payment_intent: '${params.payment_intent}'`, "resource_missing");
    if (!intent.latest_charge) return stripeError(400, "This PaymentIntent does not have a successful charge to refund.");
    const amount = params.amount === undefined ? undefined : Number(params.amount);
    if (amount !== undefined && (!Number.isInteger(amount) || amount < 1)) return stripeError(400, "Invalid integer: amount");
    const reason = params.reason === undefined ? null : String(params.reason);
    if (reason !== null && !["requested_by_customer", "duplicate", "fraudulent"].includes(reason)) return stripeError(400, `Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer`);
    const charge = chargeOf(intent.id);
    const refund = refundCharge(charge, amount, reason);
    if (!refund) return stripeError(400, "Refund amount is greater than the amount left to refund, or the charge is disputed.", "charge_already_refunded");
    // `expand[]=charge`: the charge as it is after this refund, in place of its id.
    const expand = Object.values((params.expand as Record<string, string> | undefined) ?? {});
    return Response.json(expand.includes("charge") ? { ...refund, charge: { ...charge } } : refund);
  };

  const create = (fields: Partial<FakeIntent> & { amount: number }): FakeIntent => {
    const id = fields.id ?? newId("pi");
    const intent: FakeIntent = {
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

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // Stripe keeps an idle keep-alive connection for a minute or more; Bun's default (10 s) would close one
    // that a test holds silent, and the SDK would see a reset instead of silence.
    idleTimeout: 120,
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === "POST" ? await request.text() : url.search.slice(1);
      const params = parseForm(body);
      const idempotencyKey = request.headers.get("idempotency-key");
      requests.push({ method: request.method, path: url.pathname, params, authorization: request.headers.get("authorization"), idempotencyKey });
      if (request.headers.get("authorization") !== `Bearer ${secretKey}`) return stripeError(401, "Invalid API Key provided");
      if (request.method === "POST" && url.pathname === "/v1/refunds") {
        const replay = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
        if (replay && replay.body !== body) {
          return Response.json({ error: { type: "idempotency_error", message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.` } }, { status: 400 });
        }
        if (replay) return replay.response.clone();
        const response = postRefund(params);
        if (idempotencyKey) idempotent.set(idempotencyKey, { body, response: response.clone() });
        return response;
      }
      const chargeMatch = /^\/v1\/charges\/([^/]+)$/.exec(url.pathname);
      if (request.method === "GET" && chargeMatch) {
        const charge = charges.get(decodeURIComponent(chargeMatch[1]!));
        return charge ? Response.json(charge) : stripeError(404, `No such charge: '${chargeMatch[1]}'`, "resource_missing");
      }
      if (request.method === "POST" && url.pathname === "/v1/payment_intents") {
        const amount = Number(params.amount);
        if (!Number.isInteger(amount) || amount < 1) return stripeError(400, "Invalid integer: amount");
        return Response.json(
          create({
            amount,
            currency: String(params.currency ?? "gbp"),
            description: (params.description as string | undefined) ?? null,
            metadata: (params.metadata as Record<string, string> | undefined) ?? {},
            receipt_email: (params.receipt_email as string | undefined) ?? null,
          }),
        );
      }
      const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (request.method === "GET" && match) {
        const intent = intents.get(decodeURIComponent(match[1]!));
        return intent ? Response.json(intent) : stripeError(404, `No such payment_intent: '${match[1]}'`, "resource_missing");
      }
      return stripeError(404, `Unrecognized request URL (${request.method}: ${url.pathname})`);
    },
  });

  const deliverRaw = async (appUrl: string, payload: string, secret: string) => {
    const signature = await signer.webhooks.generateTestHeaderStringAsync({ payload, secret });
    return fetch(`${appUrl}/api/stripe/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
  };

  const deliverEvent = (appUrl: string, type: string, object: unknown, opts: { eventId?: string; secret?: string; created?: number } = {}) =>
    deliverRaw(appUrl, stripeEventPayload(type, object, opts.eventId, opts.created ?? now()), opts.secret ?? webhookSecret);

  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    appConfig: { stripeSecretKey: secretKey, stripePublishableKey: "pk_test_x", stripeWebhookSecret: webhookSecret, stripeApiUrl: url },
    requests,
    intents,
    charges,
    refunds,
    setStatus(id, status) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`fake Stripe has no intent ${id}`);
      intent.status = status;
      if (status === "succeeded" && !intent.latest_charge) {
        const charge: FakeCharge = { id: newId("ch"), object: "charge", amount: intent.amount, amount_refunded: 0, refunded: false, currency: intent.currency, payment_intent: id, disputed: false };
        charges.set(charge.id, charge);
        intent.latest_charge = charge.id;
      }
      return intent;
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
      const charge = charges.get(refund.charge)!;
      charge.amount_refunded -= refund.amount;
      charge.refunded = false;
      refund.status = reason === "canceled" ? "canceled" : "failed";
      if (reason !== "canceled") refund.failure_reason = reason;
      return { ...refund };
    },
    advanceClock(seconds) {
      clockOffset += seconds;
    },
    now,
    openDispute(intentId, status = "needs_response") {
      const charge = chargeOf(intentId);
      charge.disputed = !status.startsWith("warning");
      const dispute: FakeDispute = { id: newId("dp"), object: "dispute", amount: charge.amount, currency: charge.currency, charge: charge.id, payment_intent: intentId, status };
      disputes.set(dispute.id, dispute);
      return { ...dispute };
    },
    updateDispute(disputeId, status) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`fake Stripe has no dispute ${disputeId}`);
      dispute.status = status;
      if (!status.startsWith("warning")) chargeOf(dispute.payment_intent).disputed = true;
      return { ...dispute };
    },
    closeDispute(disputeId, status) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`fake Stripe has no dispute ${disputeId}`);
      dispute.status = status;
      return { ...dispute };
    },
    deliverEvent,
    addIntent: create,
    async deliverIntentEvent(appUrl, type, intentId, opts = {}) {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`fake Stripe has no intent ${intentId}`);
      return deliverEvent(appUrl, type, intent, opts);
    },
    deliverRaw,
    close: () => server.stop(true),
  };
}
