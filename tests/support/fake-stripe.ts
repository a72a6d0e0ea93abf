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

export interface FakeStripeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  authorization: string | null;
}

export interface FakeStripe {
  url: string;
  requests: FakeStripeRequest[];
  intents: Map<string, FakeIntent>;
  /** What the provider would do after the buyer pays (or fails to). */
  setStatus(id: string, status: string): FakeIntent;
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

function stripeError(status: number, message: string, code?: string): Response {
  return Response.json({ error: { type: "invalid_request_error", message, ...(code ? { code } : {}) } }, { status });
}

/** A local stand-in for Stripe's PaymentIntents API and webhooks, for the real `stripe` SDK to talk to. */
export async function startFakeStripe(options: { secretKey?: string; webhookSecret?: string } = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? "sk_test_x";
  const webhookSecret = options.webhookSecret ?? "whsec_x";
  const intents = new Map<string, FakeIntent>();
  const requests: FakeStripeRequest[] = [];
  let counter = 0;
  const signer = new Stripe(secretKey);

  const create = (fields: Partial<FakeIntent> & { amount: number }): FakeIntent => {
    const id = fields.id ?? `pi_fake${String(++counter).padStart(6, "0")}${crypto.randomUUID().replace(/-/g, "").slice(0, 8)}`;
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
      created: Math.floor(Date.now() / 1000),
      ...fields,
      id,
    };
    intents.set(id, intent);
    return intent;
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === "POST" ? await request.text() : url.search.slice(1);
      const params = parseForm(body);
      requests.push({ method: request.method, path: url.pathname, params, authorization: request.headers.get("authorization") });
      if (request.headers.get("authorization") !== `Bearer ${secretKey}`) return stripeError(401, "Invalid API Key provided");
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

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    intents,
    setStatus(id, status) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`fake Stripe has no intent ${id}`);
      intent.status = status;
      return intent;
    },
    addIntent: create,
    async deliverIntentEvent(appUrl, type, intentId, opts = {}) {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`fake Stripe has no intent ${intentId}`);
      const event = {
        id: opts.eventId ?? `evt_${crypto.randomUUID().replace(/-/g, "")}`,
        object: "event",
        api_version: "2025-01-01",
        created: Math.floor(Date.now() / 1000),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: { ...intent } },
      };
      return deliverRaw(appUrl, JSON.stringify(event), opts.secret ?? webhookSecret);
    },
    deliverRaw,
    close: () => server.stop(true),
  };
}
