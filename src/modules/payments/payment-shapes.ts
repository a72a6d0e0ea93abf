/** The shapes the payments service reads and answers, and the events it takes from the provider. */
import type { AccessCodeRecord } from "../access/service.ts";
import type { LedgerEffects } from "./ledger.ts";
import type { PaymentKind } from "./provider.ts";
import { LEDGER_EVENTS } from "./webhook-events.ts";

/** A donation that has just been counted (once, after its payment succeeded). */
export interface CountedDonation {
  paymentIntentId: string;
  /** minor units of `currency` */
  amount: number;
  currency: string;
  username: string;
  userId: number | null;
  /** all counted donations in the event's currency, net of refunds and disputes */
  total: number;
  goal: number;
}

export interface PaymentRow {
  id: number;
  intent_id: string;
  kind: PaymentKind;
  amount: number;
  currency: string;
  status: string;
  email: string | null;
  user_id: number | null;
  username: string | null;
  site_url: string | null;
  fulfilled: number;
}

export interface Applied {
  code?: AccessCodeRecord;
  donation?: CountedDonation;
  effects?: LedgerEffects;
}

export const INTENT_EVENTS = new Set([
  "payment_intent.succeeded",
  "payment_intent.processing",
  "payment_intent.payment_failed",
  "payment_intent.canceled",
  "payment_intent.requires_action",
]);
export const INTENT_ID = /^pi_[A-Za-z0-9_]{1,250}$/;
/** What a reconciliation reads back from Stripe's events: the sales, and what changed them after. */
export const RECONCILED_EVENTS = ["payment_intent.succeeded", ...LEDGER_EVENTS];

/** What a reconciliation did: events read (and of them already applied here), payments it fulfilled. */
export interface Reconciled {
  read: number;
  known: number;
  passes: number;
  donations: number;
}
