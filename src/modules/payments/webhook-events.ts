import type Stripe from "stripe";
import { z } from "zod";
import { badRequest } from "../../lib/errors.ts";

/**
 * Events about one refund (its object a Refund): `charge.refund.updated` on every API version, the
 * `refund.*` ones since 2024-10-28. They say when a refund fails or is canceled, and name refunds made in
 * Stripe's dashboard.
 */
const REFUND_EVENTS = new Set(["charge.refund.updated", "refund.created", "refund.updated", "refund.failed"]);

/** Events about one dispute (its object a Dispute); `updated` says when an inquiry becomes a dispute. */
const DISPUTE_EVENTS = ["charge.dispute.created", "charge.dispute.updated", "charge.dispute.funds_withdrawn", "charge.dispute.funds_reinstated", "charge.dispute.closed"];

/** The Stripe events that change a payment after the sale; subscribe to these with `payment_intent.succeeded`. */
export const LEDGER_EVENTS = new Set(["charge.refunded", ...REFUND_EVENTS, ...DISPUTE_EVENTS]);

const amount = z.number().int().min(0).max(100_000_000);
const intentId = z.string().min(1).max(255).nullable().optional();

/** The fields of a Charge we read: which intent it paid and how much of it has been refunded so far. */
const chargeSchema = z.object({
  id: z.string().min(1).max(255),
  payment_intent: intentId,
  amount,
  amount_refunded: amount,
});

/** The fields of a PaymentIntent we read (the rest passes through to `intentFromStripe`). */
const intentSchema = z.looseObject({
  id: z.string().min(1).max(255),
  status: z.string().min(1).max(64),
  amount,
  currency: z.string().min(1).max(10),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  receipt_email: z.string().nullable().optional(),
});

/** A signed `payment_intent.*` event's object, checked: a malformed one is a 400 and nothing is written. */
export function checkIntentObject(type: string, object: unknown): Stripe.PaymentIntent {
  if (!intentSchema.safeParse(object).success) throw badRequest(`Malformed ${type} event`);
  return object as Stripe.PaymentIntent;
}

/** Stripe's times: epoch seconds. */
const seconds = z.number().int().min(0).max(10_000_000_000);

/** The fields of a Refund we read. */
const refundSchema = z.object({
  id: z.string().min(1).max(255),
  payment_intent: intentId,
  amount: amount.min(1),
  status: z.string().min(1).max(64),
  created: seconds,
  failure_reason: z.string().max(255).nullable().optional(),
});

/** The fields of a Dispute we read. */
const disputeSchema = z.object({
  id: z.string().min(1).max(255),
  payment_intent: intentId,
  amount,
  status: z.string().min(1).max(64),
});

/** A refund's money stays with the account: it no longer counts as refunded. */
export const UNDONE_REFUND = new Set(["failed", "canceled"]);

export type LedgerEvent =
  /** The charge's cumulative refund as of `at` (Stripe's time, epoch seconds). */
  | { kind: "refund"; intentId: string | null; amountRefunded: number; at: number }
  /** One refund's state as of `at`: a failed or canceled one no longer counts. */
  | { kind: "refund_state"; intentId: string | null; refundId: string; amount: number; status: string; failureReason: string | null; created: number; at: number }
  | { kind: "dispute"; intentId: string | null; disputeId: string; amount: number; status: string; at: number };

/** A signed event's object, checked: a malformed one is a 400 and nothing is written. `at`: the event's `created`. */
export function parseLedgerEvent(type: string, object: unknown, at: unknown): LedgerEvent {
  const when = seconds.safeParse(at);
  if (!when.success) throw badRequest(`Malformed ${type} event`);
  if (type === "charge.refunded") {
    const charge = chargeSchema.safeParse(object);
    if (!charge.success) throw badRequest(`Malformed ${type} event`);
    return { kind: "refund", intentId: charge.data.payment_intent ?? null, amountRefunded: charge.data.amount_refunded, at: when.data };
  }
  if (REFUND_EVENTS.has(type)) {
    const refund = refundSchema.safeParse(object);
    if (!refund.success) throw badRequest(`Malformed ${type} event`);
    const { id, payment_intent, amount: refunded, status, created, failure_reason } = refund.data;
    return { kind: "refund_state", intentId: payment_intent ?? null, refundId: id, amount: refunded, status, failureReason: failure_reason ?? null, created, at: when.data };
  }
  const dispute = disputeSchema.safeParse(object);
  if (!dispute.success) throw badRequest(`Malformed ${type} event`);
  const { id, payment_intent, amount: disputed, status } = dispute.data;
  return { kind: "dispute", intentId: payment_intent ?? null, disputeId: id, amount: disputed, status, at: when.data };
}
