import { queryOptions } from "@/lib/query";
import type { DemoConfirmPaymentBody, PaymentConfig, PaymentIntentSetup, PaymentIntentState } from "@contracts/payments";
import { api } from "@/lib/api-client";

/** What the dialog pays for: an access pass, or anything else (a donation). */
export type ProductType = "access" | "donation";

/** The fixed access-product identifier (ACCESS_PRODUCT in the payments contract). */
const ACCESS_PRODUCT = "livestream-access";

export function paymentConfigQueryOptions() {
  return queryOptions({ queryKey: ["payment-config"], queryFn: () => api.get<PaymentConfig>("/api/payment-config") });
}

/** Starts a payment: create-payment-intent for the access pass, create-donation-intent otherwise (amount in pence). */
export async function createPaymentSetup(productType: ProductType, amount: number): Promise<PaymentIntentSetup> {
  const setup =
    productType === "access"
      ? await api.post<PaymentIntentSetup>("/api/create-payment-intent", { amount, product: ACCESS_PRODUCT })
      : await api.post<PaymentIntentSetup>("/api/create-donation-intent", { amount });
  if (!setup?.ok || !setup.clientSecret) throw new Error("The payment could not be set up");
  return setup;
}

export function getDemoPaymentIntent(clientSecret: string): Promise<PaymentIntentState> {
  return api.get<PaymentIntentState>(`/api/demo/payment-intent?clientSecret=${encodeURIComponent(clientSecret)}`);
}

export async function confirmDemoPayment(body: DemoConfirmPaymentBody): Promise<PaymentIntentState> {
  const result = await api.post<{ ok: boolean; paymentIntent: PaymentIntentState }>("/api/demo/confirm-payment", body);
  return result.paymentIntent;
}
