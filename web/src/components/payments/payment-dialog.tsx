import * as Dialog from "@radix-ui/react-dialog";
import { useQuery } from "@/lib/query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { PaymentIntentState } from "@contracts/payments";
import { CloseIcon } from "@/components/ui/site-icons";
import { useBackCloses } from "@/hooks/use-back-closes";
import { useLazyPart } from "@/hooks/use-lazy-part";
import { useFormatMoney } from "@/lib/money";
import { createPaymentSetup, paymentConfigQueryOptions, type ProductType } from "@/lib/payments";
import { DemoPaymentForm } from "./demo-payment-form";
import { importFresh } from "@/lib/app-version";

// Stripe's form comes only in Stripe mode; a fetch of it that fails shows the dialog's own error and Try again.
const loadStripeForm = () => importFresh(() => import("./stripe-payment-form"));

export const PAYMENT_SUCCESS_CLOSE_DELAY_MS = 1500;
const SETUP_FAILED = "Failed to initialize payment. Please try again.";

export interface PaymentDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** minor units of the event's currency; the server prices the access pass itself */
  amount: number;
  productType: ProductType;
  title?: string;
  /** A line under the amount: what the pass is for when that is not the live night (its replay). */
  note?: string;
  /** Called once the dialog has closed after a successful payment. */
  onPaymentSuccess?: (intent: PaymentIntentState) => void;
  /** At most 350px wide, with the payment methods stacked (accordion) rather than in tabs. */
  compact?: boolean;
}

function Initializing() {
  return (
    <div className="payment-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <p>Initializing payment...</p>
    </div>
  );
}

let setupCount = 0;

/** One opening of the dialog: a fresh payment intent, then the card form for the server's payment mode. */
function PaymentPanel({
  amount,
  productType,
  compact,
  onSucceeded,
  onCancel,
  onBusyChange,
}: {
  amount: number;
  productType: ProductType;
  compact: boolean;
  onSucceeded: (intent: PaymentIntentState) => void;
  onCancel: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const [opening] = useState(() => ++setupCount);
  // Each Try again is a fresh set-up (and a fresh load of Stripe.js).
  const [attempt, setAttempt] = useState(0);
  const [stripeFailed, setStripeFailed] = useState(false);
  const config = useQuery(paymentConfigQueryOptions());
  const setup = useQuery({
    queryKey: ["payment-setup", productType, amount, opening, attempt],
    queryFn: () => createPaymentSetup(productType, amount),
    gcTime: 0,
  });
  const onStripeLoadError = useCallback(() => setStripeFailed(true), []);
  const stripeMode = config.data?.mode === "stripe" && Boolean(config.data.publishableKey);
  const stripeForm = useLazyPart(loadStripeForm, { wanted: stripeMode && !stripeFailed, onFailed: onStripeLoadError });
  const tryAgain = () => {
    setStripeFailed(false);
    setAttempt((n) => n + 1);
    if (config.isError) void config.refetch();
  };

  if ((config.isError && !config.isFetching) || setup.isError || stripeFailed) {
    return (
      <div className="payment-error">
        <p className="payment-error-text" role="alert">
          {SETUP_FAILED}
        </p>
        <div className="payment-actions">
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={tryAgain}>
            Try again
          </button>
        </div>
      </div>
    );
  }
  if (!config.data || !setup.data) return <Initializing />;

  const formProps = { clientSecret: setup.data.clientSecret, productType, compact, onSucceeded, onCancel, onBusyChange };
  if (config.data.mode === "stripe" && config.data.publishableKey) {
    if (!stripeForm) return <Initializing />;
    return <stripeForm.StripePaymentForm key={attempt} {...formProps} publishableKey={config.data.publishableKey} onLoadError={onStripeLoadError} />;
  }
  return <DemoPaymentForm {...formProps} />;
}

function PaidNotice() {
  return (
    <div className="payment-paid" role="status">
      <span className="payment-paid-mark" aria-hidden="true">
        ✓
      </span>
      <p className="payment-paid-title">Payment succeeded!</p>
      <p className="payment-paid-text">One moment…</p>
    </div>
  );
}

/** The modal card payment for an access pass or a donation. */
export function PaymentDialog({ open, onOpenChange, amount, productType, title = "Complete your purchase", note, onPaymentSuccess, compact = false }: PaymentDialogProps) {
  const [paid, setPaid] = useState(false);
  const [busy, setBusy] = useState(false);
  const formatMoney = useFormatMoney();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ onOpenChange, onPaymentSuccess });
  latest.current = { onOpenChange, onPaymentSuccess };
  // While a payment is on its way (or has gone through and the dialog is about to move on), nothing closes
  // the dialog: closed, the payment would finish out of sight and move the page on by itself.
  const locked = busy || paid;
  const lockedRef = useRef(locked);
  lockedRef.current = locked;

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  useEffect(() => {
    if (open) setPaid(false);
  }, [open]);

  const onSucceeded = useCallback((intent: PaymentIntentState) => {
    if (timer.current) return;
    setPaid(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current.onOpenChange(false);
      latest.current.onPaymentSuccess?.(intent);
    }, PAYMENT_SUCCESS_CLOSE_DELAY_MS);
  }, []);
  const onCancel = useCallback(() => {
    if (!lockedRef.current) latest.current.onOpenChange(false);
  }, []);
  const onOpenChangeUnlessLocked = useCallback((next: boolean) => {
    if (next || !lockedRef.current) latest.current.onOpenChange(next);
  }, []);
  const holdWhileLocked = useCallback((event: Event) => {
    if (lockedRef.current) event.preventDefault();
  }, []);
  // Back on a phone means "close this", not "leave the page".
  useBackCloses(open, onCancel);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChangeUnlessLocked}>
      <Dialog.Portal>
        <Dialog.Overlay className="payment-overlay" />
        <Dialog.Content
          className={compact ? "payment-dialog payment-dialog-compact" : "payment-dialog"}
          aria-busy={locked || undefined}
          onEscapeKeyDown={holdWhileLocked}
          onInteractOutside={holdWhileLocked}
        >
          <div className="payment-head">
            <Dialog.Title className="payment-title">{title}</Dialog.Title>
            <Dialog.Description className="payment-subtitle">Complete your purchase securely</Dialog.Description>
            <p className="payment-amount">
              <span>{productType === "access" ? "One-time access pass" : "Donation"}</span>
              <strong>{formatMoney(amount)}</strong>
            </p>
            {productType === "access" ? (
              note ? (
                <p className="payment-note">{note}</p>
              ) : null
            ) : (
              <p className="payment-note">A donation to the event: once it is paid, your name and the amount appear in the chat.</p>
            )}
          </div>
          <Dialog.Close className="btn btn-ghost btn-icon payment-close" aria-label="Close" disabled={locked} title={locked ? "The payment is on its way" : undefined}>
            <CloseIcon />
          </Dialog.Close>
          {paid ? (
            <PaidNotice />
          ) : (
            <PaymentPanel amount={amount} productType={productType} compact={compact} onSucceeded={onSucceeded} onCancel={onCancel} onBusyChange={setBusy} />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
