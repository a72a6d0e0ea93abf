export declare const FAKE_STRIPE_SECRET_KEY: string;
export declare const FAKE_STRIPE_PUBLISHABLE_KEY: string;
/** The signing secret of the app's webhook that the fake signs its events with by default. */
export declare const FAKE_STRIPE_WEBHOOK_SECRET: string;
/** The command-line flags that point the app at a fake Stripe API at `url`, with its keys. */
export declare function fakeStripeFlags(url: string): string[];
/** Card numbers `confirm` understands (as Stripe's test cards do). */
export declare const STRIPE_TEST_CARDS: { success: string; declined: string; processing: string };

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

/** An event as Stripe records it (and lists it at GET /v1/events, and POSTs it to a webhook). */
export interface FakeEvent {
  id: string;
  object: "event";
  type: string;
  /** Epoch seconds, on the fake's clock. */
  created: number;
  data: { object: any };
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
  /**
   * Every event the fake's changes made, oldest first: an intent's success, processing or failure, a refund
   * (`refund.created` and `charge.refunded`), its failure, a dispute opened, updated or closed.
   */
  events: FakeEvent[];
  /** A recorded event delivered to the app's webhook, as Stripe delivers it (the same id). */
  deliverRecorded(appUrl: string, event: FakeEvent): Promise<Response>;
  /** What the provider would do after the buyer pays (or fails to); a success makes the intent's charge. */
  setStatus(id: string, status: string): FakeIntent;
  /**
   * What Stripe answers when the buyer pays with `card` (one of STRIPE_TEST_CARDS) in the Payment Element:
   * succeeded, processing, or a card error (402).
   */
  confirm(id: string, card: string, receiptEmail?: string): { status: number; body: any };
  /** The charge of a succeeded intent. */
  chargeOf(intentId: string): FakeCharge;
  /** A refund made in Stripe's dashboard (not through the app); the whole remaining amount by default. */
  refund(intentId: string, amount?: number): FakeRefund;
  /**
   * A refund fails (the card was closed, say) or is canceled: its money returns to the account, the
   * charge's `amount_refunded` drops by it. Returns the refund as Stripe's events then carry it.
   */
  failRefund(refundId: string, reason?: "canceled" | (string & {})): FakeRefund;
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

/** A Stripe event about `object` (a snapshot of it now, as Stripe sends), as the JSON Stripe would POST. */
export declare function stripeEventPayload(type: string, object: unknown, eventId?: string, created?: number): string;

/**
 * A local stand-in for Stripe's PaymentIntents, Charges, Refunds and Events APIs (Idempotency-Key
 * honoured) and its webhooks, for the real `stripe` SDK to talk to.
 */
export declare function startFakeStripe(options?: { secretKey?: string; webhookSecret?: string }): Promise<FakeStripe>;
