import { useCallback, useState } from "react";
import { useLocation } from "wouter";
import { paymentStatusMessage, type PaymentIntentState } from "@contracts/payments";
import { paths } from "@/config/paths";
import { onDialogEntry } from "@/hooks/use-back-closes";
import { toast } from "@/hooks/use-toast";
import { LOCAL_KEYS, removeLocal, writeLocal } from "@/lib/storage";
import type { ProductType } from "../api/payments";

export const UNEXPECTED_PAYMENT_ERROR = "An unexpected error occurred.";

/**
 * The payment dialog's rules after the provider answers (spec section 4), the same for Stripe and demo:
 * the status line on load, the toasts, the stored intent id and where the buyer goes next.
 */
export function usePaymentOutcome(productType: ProductType, onSucceeded: (intent: PaymentIntentState) => void) {
  const [, navigate] = useLocation();
  const [statusMessage, setStatusMessage] = useState<string | null>(null);

  /** The intent as it stands when the form loads. */
  const loaded = useCallback(
    (intent: PaymentIntentState) => {
      setStatusMessage(paymentStatusMessage(intent.status));
      if (intent.status === "succeeded") onSucceeded(intent);
    },
    [onSucceeded],
  );

  /** The provider's answer to Pay Now. */
  const confirmed = useCallback(
    (intent: PaymentIntentState, email?: string) => {
      if (intent.status === "succeeded") {
        if (productType === "access") {
          writeLocal(LOCAL_KEYS.paymentIntentId, intent.id);
          // The success page says the code was e-mailed only when this purchase gave an address.
          if (email) writeLocal(LOCAL_KEYS.email, email);
          else removeLocal(LOCAL_KEYS.email);
        }
        setStatusMessage(paymentStatusMessage(intent.status));
        toast({ title: "Payment Successful", description: "Thank you for your purchase!" });
        onSucceeded(intent);
        return;
      }
      if (productType === "access") {
        navigate(`${paths.checkoutSuccess}?payment_intent=${encodeURIComponent(intent.id)}`, { replace: onDialogEntry() });
        return;
      }
      // A donation has no success page: say where it stands.
      setStatusMessage(paymentStatusMessage(intent.status));
    },
    [navigate, onSucceeded, productType],
  );

  const failed = useCallback((message?: string | null) => {
    toast({ variant: "destructive", title: "Payment Failed", description: message || UNEXPECTED_PAYMENT_ERROR });
  }, []);

  return { statusMessage, loaded, confirmed, failed };
}
