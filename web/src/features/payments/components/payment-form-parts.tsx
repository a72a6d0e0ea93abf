import type { PaymentIntentState } from "@contracts/payments";
import { emailSchema } from "@contracts/admin";
import { FormField } from "@/components/ui/form-field";
import type { ProductType } from "../api/payments";

/** What the dialog hands the Stripe and the demo card forms. */
export interface PaymentFormProps {
  clientSecret: string;
  productType: ProductType;
  compact: boolean;
  onSucceeded: (intent: PaymentIntentState) => void;
  onCancel: () => void;
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
