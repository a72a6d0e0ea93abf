import { useCallback, useState } from "react";
import { useLocation } from "wouter";
import { paymentStatusMessage, type PaymentIntentState } from "@contracts/payments";
import { paths } from "@/config/paths";
import { onDialogEntry } from "@/hooks/use-back-closes";
import { toast } from "@/hooks/use-toast";
import { LOCAL_KEYS, removeLocal, writeLocal } from "@/lib/storage";
import type { ProductType } from "@/lib/payments";

export const UNEXPECTED_PAYMENT_ERROR = "An unexpected error occurred.";

/**
 * What the dialog says about the last Pay Now beside the Payment Failed toast: refused (nothing taken), or no answer
 * (it may have gone through: the buyer can check), or checked and found unpaid.
 */
export type PaymentProblem = { kind: "refused"; message: string } | { kind: "unanswered"; checking: boolean; stillUnanswered: boolean } | { kind: "not-charged" };

/**
 * The payment dialog's rules after the provider answers, the same for Stripe and demo:
 * the status line on load, the toasts, the stored intent id and where the buyer goes next.
 */
export function usePaymentOutcome(productType: ProductType, onSucceeded: (intent: PaymentIntentState) => void) {
  const [, navigate] = useLocation();
  const [statusMessage, setStatusMessage] = useState<string | null>(null);
  const [problem, setProblem] = useState<PaymentProblem | null>(null);

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
      setProblem(null);
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

  /**
   * Pay Now failed. `answered` is false when no answer came back (the connection dropped, the server
   * failed): the charge may have gone through, so the dialog offers to check rather than saying "declined".
   */
  const failed = useCallback((message: string | null | undefined, answered: boolean) => {
    toast({ variant: "destructive", title: "Payment Failed", description: message || UNEXPECTED_PAYMENT_ERROR });
    setProblem(answered ? { kind: "refused", message: message || UNEXPECTED_PAYMENT_ERROR } : { kind: "unanswered", checking: false, stillUnanswered: false });
  }, []);

  /** Pay Now is pressed again: the last attempt's words go. */
  const retrying = useCallback(() => setProblem(null), []);

  /** After a lost answer: asks the provider how the intent stands and carries on from there. */
  const check = useCallback(
    async (retrieve: () => Promise<PaymentIntentState>, email?: string) => {
      setProblem({ kind: "unanswered", checking: true, stillUnanswered: false });
      let intent: PaymentIntentState;
      try {
        intent = await retrieve();
      } catch {
        setProblem({ kind: "unanswered", checking: false, stillUnanswered: true });
        return;
      }
      if (intent.status === "succeeded" || intent.status === "processing") confirmed(intent, email);
      else {
        setStatusMessage(paymentStatusMessage(intent.status));
        setProblem({ kind: "not-charged" });
      }
    },
    [confirmed],
  );

  return { statusMessage, problem, loaded, confirmed, failed, retrying, check };
}
