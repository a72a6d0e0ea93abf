import type { PaymentMode } from "../../contracts/payments.ts";
import type { RefundReason } from "../../contracts/payments-ledger.ts";

export type PaymentKind = "access" | "donation";

/** What we read of a payment intent, whichever provider holds it. */
export interface ProviderIntent {
  id: string;
  status: string;
  /** minor units of `currency` */
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  email: string | null;
}

export interface ProviderRefund {
  id: string;
  /** minor units */
  amount: number;
  /** The provider's word for it: pending, succeeded, failed, canceled… */
  status: string;
  /** When the provider made it (its clock, epoch seconds). */
  created: number;
  /**
   * All that is refunded of the charge now, this refund included (refunds made elsewhere too, such as in
   * Stripe's dashboard); null when the provider does not say.
   */
  chargeRefunded: number | null;
}

export interface CreateIntentRequest {
  /** minor units of `currency` */
  amount: number;
  currency: string;
  kind: PaymentKind;
  metadata: Record<string, string>;
  email?: string | null;
  description: string;
}

/** Stripe in production; a local demo provider when no keys are set. The two never mix. */
export interface PaymentProvider {
  readonly mode: PaymentMode;
  createIntent(request: CreateIntentRequest): Promise<{ id: string; clientSecret: string }>;
  /** null when the provider does not know the id. */
  retrieveIntent(id: string): Promise<ProviderIntent | null>;
  /** Refunds part or all of a succeeded intent; the same idempotency key refunds once. */
  refund(intentId: string, amount: number, idempotencyKey: string, reason?: RefundReason): Promise<ProviderRefund>;
}

/** Marks our intents, so a shared Stripe account's other payments are left alone. */
export const INTENT_APP_TAG = "dreadcast";
