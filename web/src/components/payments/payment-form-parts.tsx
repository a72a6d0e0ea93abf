import { useEffect, useLayoutEffect, useRef } from "react";
import type { PaymentIntentState } from "@contracts/payments";
import { emailSchema } from "@contracts/admin";
import { FormField } from "@/components/ui/form-field";
import { AlertIcon } from "@/components/ui/site-icons";
import type { PaymentProblem } from "@/hooks/use-payment-outcome";
import type { ProductType } from "@/lib/payments";

/** What the dialog hands the Stripe and the demo card forms. */
export interface PaymentFormProps {
  clientSecret: string;
  productType: ProductType;
  compact: boolean;
  onSucceeded: (intent: PaymentIntentState) => void;
  onCancel: () => void;
  /** True while a payment is being sent or checked: the dialog cannot be closed then. */
  onBusyChange: (busy: boolean) => void;
}

/** Tells the dialog when the form is busy (before "Processing..." is painted), and that it is not once the form goes. */
export function useReportBusy(busy: boolean, onBusyChange: (busy: boolean) => void) {
  useLayoutEffect(() => {
    onBusyChange(busy);
  }, [busy, onBusyChange]);
  useEffect(() => () => onBusyChange(false), [onBusyChange]);
}

/** The intent's status line ('Please provide your payment details.' and the like). */
export function PaymentStatusLine({ message }: { message: string | null }) {
  return (
    <p className="payment-status" role="status" aria-live="polite">
      {message}
    </p>
  );
}

/** The optional address the access code is e-mailed to. */
export function BuyerEmailField({ value, error, disabled, onChange }: { value: string; error?: string; disabled: boolean; onChange: (value: string) => void }) {
  return (
    <FormField
      label="Email (optional)"
      type="email"
      name="email"
      autoComplete="email"
      inputMode="email"
      placeholder="you@example.com"
      hint="We'll e-mail your access code here too."
      value={value}
      error={error}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** The last Pay Now's outcome in the dialog itself, where the buyer is looking (the toast may be anywhere). */
export function PaymentProblemNotice({ problem, onCheck }: { problem: PaymentProblem | null; onCheck: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  // The notice pushes the buttons down: the dialog scrolls so that both are in view.
  useEffect(() => {
    ref.current?.nextElementSibling?.scrollIntoView({ block: "nearest" });
  }, [problem?.kind]);
  if (!problem) return null;
  if (problem.kind === "not-charged") {
    return (
      <div ref={ref} className="payment-problem" data-kind="not-charged" role="status" data-toast-avoid>
        <p className="payment-problem-title">This payment did not go through</p>
        <p>Nothing was taken from your card. You can press Pay Now again.</p>
      </div>
    );
  }
  if (problem.kind === "refused") {
    return (
      <div ref={ref} className="payment-problem" role="alert" data-toast-avoid>
        <p className="payment-problem-title">
          <AlertIcon width={16} height={16} />
          {problem.message}
        </p>
        <p>Nothing was taken from your card. Check the details or use another card, then press Pay Now again.</p>
      </div>
    );
  }
  return (
    <div ref={ref} className="payment-problem" data-kind="unanswered" role="alert" data-toast-avoid>
      <p className="payment-problem-title">
        <AlertIcon width={16} height={16} />
        Your payment may have gone through
      </p>
      <p>The connection dropped before the answer came back. Check it before paying again: Pay Now in this window never charges you twice.</p>
      {problem.stillUnanswered ? <p className="payment-problem-again">Still no answer. Check your connection, then try again.</p> : null}
      <button type="button" className="btn btn-outline btn-block" onClick={onCheck} disabled={problem.checking}>
        {problem.checking ? (
          <>
            <span className="spinner spinner-sm" aria-hidden="true" />
            Checking...
          </>
        ) : (
          "Check my payment"
        )}
      </button>
    </div>
  );
}

export function PaymentActions({ submitting, ready, onCancel }: { submitting: boolean; ready: boolean; onCancel: () => void }) {
  return (
    <div className="payment-actions">
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={submitting}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={submitting || !ready}>
        {submitting ? (
          <>
            <span className="spinner spinner-sm" aria-hidden="true" />
            Processing...
          </>
        ) : (
          "Pay Now"
        )}
      </button>
    </div>
  );
}

/** The e-mail message for the field, or undefined when it is empty or valid. */
export function buyerEmailError(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  return emailSchema.safeParse(trimmed).success ? undefined : "Please enter a valid email address";
}
