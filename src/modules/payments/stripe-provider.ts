import Stripe from "stripe";
import type { Config } from "../../config.ts";
import { HttpError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { CreateIntentRequest, PaymentProvider, ProviderIntent, ProviderRefund } from "./provider.ts";
import type { RefundReason } from "../../contracts/payments-ledger.ts";

/**
 * How long one call to Stripe may take, and how often a call that could not reach it is tried again (with
 * the same idempotency key, so a retry never charges or refunds twice). Someone is usually waiting on the
 * answer — a buyer on the payment dialog, an admin on a refund — so a Stripe that has gone silent is
 * reported within about 20 seconds rather than after a minute or more.
 */
export const STRIPE_TIMEOUT_MS = 10_000;
const STRIPE_RETRIES = 1;

export function createStripeClient(config: Config): Stripe {
  const options: Stripe.StripeConfig = { maxNetworkRetries: STRIPE_RETRIES, telemetry: false, timeout: STRIPE_TIMEOUT_MS };
  if (config.stripeApiUrl) {
    const url = new URL(config.stripeApiUrl);
    Object.assign(options, {
      host: url.hostname,
      port: url.port || (url.protocol === "https:" ? 443 : 80),
      protocol: url.protocol === "https:" ? "https" : "http",
      maxNetworkRetries: 0,
    });
  }
  return new Stripe(config.stripeSecretKey!, options);
}

export function intentFromStripe(intent: Stripe.PaymentIntent): ProviderIntent {
  const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    metadata: { ...(intent.metadata ?? {}) },
    email: intent.receipt_email ?? charge?.billing_details?.email ?? null,
  };
}

/** PaymentIntents and refunds through the real Stripe SDK. */
export class StripePaymentProvider implements PaymentProvider {
  readonly mode = "stripe" as const;

  constructor(
    private readonly stripe: Stripe,
    private readonly log: Logger,
  ) {}

  async createIntent(request: CreateIntentRequest): Promise<{ id: string; clientSecret: string }> {
    try {
      const intent = await this.stripe.paymentIntents.create({
        amount: request.amount,
        currency: request.currency,
        automatic_payment_methods: { enabled: true },
        description: request.description,
        metadata: request.metadata,
        ...(request.email ? { receipt_email: request.email } : {}),
      });
      return { id: intent.id, clientSecret: intent.client_secret! };
    } catch (error) {
      throw this.unavailable("creating a payment intent", error);
    }
  }

  async retrieveIntent(id: string): Promise<ProviderIntent | null> {
    try {
      return intentFromStripe(await this.stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] }));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 404 || error.code === "resource_missing")) return null;
      throw this.unavailable(`retrieving payment intent ${id}`, error);
    }
  }

  async refund(intentId: string, amount: number, idempotencyKey: string, reason?: RefundReason): Promise<ProviderRefund> {
    try {
      // The charge comes with it, so the ledger learns at once of refunds made elsewhere (the dashboard).
      const refund = await this.stripe.refunds.create({ payment_intent: intentId, amount, expand: ["charge"], ...(reason ? { reason } : {}) }, { idempotencyKey });
      const charge = refund.charge;
      const chargeRefunded = charge && typeof charge === "object" && Number.isSafeInteger(charge.amount_refunded) ? charge.amount_refunded : null;
      return { id: refund.id, amount: refund.amount, status: refund.status ?? "succeeded", created: refund.created, chargeRefunded };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeIdempotencyError) {
        // The same refund tried again with other details (another reason): the first may have gone through.
        this.log.warn(`Stripe refused a retried refund of ${intentId} with other details: ${error.message}`);
        throw new HttpError(409, "This refund was just tried with other details, and may have gone through. Reload the payments and check before refunding again.");
      }
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        this.log.warn(`Stripe refused to refund ${intentId}: ${error.message}`);
        throw new HttpError(409, "The payment provider refused this refund. It may already be refunded or disputed.");
      }
      throw this.unavailable(`refunding payment intent ${intentId}`, error);
    }
  }

  /** Stripe's own message stays in the log: it can name keys and accounts. */
  private unavailable(action: string, error: unknown): HttpError {
    this.log.error(`Stripe failed while ${action}`, error);
    return new HttpError(502, "The payment provider could not be reached. Please try again.");
  }
}
