import { z } from "zod";
import { emailSchema } from "./admin.ts";
import type { Currency } from "./money.ts";

/** Payment payloads, shared by the server and the web app. Money in minor units (see money.ts). */
/** The fixed product identifier the web sends with an access purchase. */
export const ACCESS_PRODUCT = "livestream-access";
export const DEMO_CARD_SUCCESS = "4242424242424242";
export const DEMO_CARD_DECLINED = "4000000000000002";
export const CARD_DECLINED_MESSAGE = "Your card was declined.";

export const createPaymentIntentBody = z.object({
  // The client's amount is accepted for compatibility and ignored: the price is the server's.
  amount: z.unknown().optional(),
  product: z.literal(ACCESS_PRODUCT, { error: "Unknown product" }),
  email: emailSchema.optional(),
});
export type CreatePaymentIntentBody = z.infer<typeof createPaymentIntentBody>;

/** Whole minor units; the range depends on the event's currency and is checked with `donationAmountProblem`. */
export const donationAmountSchema = z.number({ error: "Donation amount must be a number of pence" }).int("Donation amount must be a whole number of pence");

export const createDonationIntentBody = z.object({ amount: donationAmountSchema });
export type CreateDonationIntentBody = z.infer<typeof createDonationIntentBody>;

export const demoConfirmPaymentBody = z.object({
  clientSecret: z.string().min(1, "clientSecret is required").max(200),
  cardNumber: z.string().max(40, "Card number is too long"),
  // Where the access code is e-mailed; the intent is created before the buyer types it.
  email: emailSchema.optional(),
});
export type DemoConfirmPaymentBody = z.infer<typeof demoConfirmPaymentBody>;

export type PaymentMode = "demo" | "stripe";

/** GET /api/payment-config */
export interface PaymentConfig {
  mode: PaymentMode;
  publishableKey: string | null;
  /** The event's price for new purchases, in minor units of `currency`. */
  accessPrice: number;
  currency: Currency;
}

/** POST /api/create-payment-intent */
export interface PaymentIntentSetup {
  ok: true;
  clientSecret: string;
  paymentIntentId: string;
}

/** POST /api/create-donation-intent */
export interface DonationIntentSetup {
  ok: true;
  clientSecret: string;
  paymentIntentId: string;
}

/** The intent fields the payment dialog reads (GET /api/demo/payment-intent, POST /api/demo/confirm-payment). */
export interface PaymentIntentState {
  id: string;
  status: string;
}

/** The payment dialog's line for an intent status on load. */
export function paymentStatusMessage(status: string): string {
  switch (status) {
    case "succeeded":
      return "Payment succeeded!";
    case "processing":
      return "Your payment is processing.";
    case "requires_payment_method":
      return "Please provide your payment details.";
    default:
      return "Something went wrong.";
  }
}
