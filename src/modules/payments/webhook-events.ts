import type Stripe from "stripe";
import { z } from "zod";
import { badRequest } from "../../lib/errors.ts";

/** The Stripe events that change a payment after the sale; subscribe to these with `payment_intent.succeeded`. */
export const LEDGER_EVENTS = new Set(["charge.refunded", "charge.dispute.created", "charge.dispute.closed"]);

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

/** The fields of a Dispute we read. */
const disputeSchema = z.object({
  id: z.string().min(1).max(255),
  payment_intent: intentId,
  amount,
  status: z.string().min(1).max(64),
});

export type LedgerEvent =
  | { kind: "refund"; intentId: string | null; amountRefunded: number }
  | { kind: "dispute"; intentId: string | null; disputeId: string; amount: number; status: string };

/** A signed event's object, checked: a malformed one is a 400 and nothing is written. */
export function parseLedgerEvent(type: string, object: unknown): LedgerEvent {
  if (type === "charge.refunded") {
    const charge = chargeSchema.safeParse(object);
    if (!charge.success) throw badRequest(`Malformed ${type} event`);
    return { kind: "refund", intentId: charge.data.payment_intent ?? null, amountRefunded: charge.data.amount_refunded };
  }
  const dispute = disputeSchema.safeParse(object);
  if (!dispute.success) throw badRequest(`Malformed ${type} event`);
  const { id, payment_intent, amount: disputed, status } = dispute.data;
  return { kind: "dispute", intentId: payment_intent ?? null, disputeId: id, amount: disputed, status };
}
