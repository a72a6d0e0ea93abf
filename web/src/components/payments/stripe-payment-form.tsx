import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Appearance, Stripe, StripeError } from "@stripe/stripe-js";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { paths } from "@/config/paths";
import { usePaymentOutcome } from "@/hooks/use-payment-outcome";
import { BuyerEmailField, PaymentActions, PaymentProblemNotice, PaymentStatusLine, buyerEmailError, useReportBusy, type PaymentFormProps } from "./payment-form-parts";
import { importFresh } from "@/lib/app-version";

/** A token of the theme (styles/theme.css), as the page has it. */
const themeToken = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** Stripe's night theme in the site's colours: the card fields sit in Stripe's frame, where the page's styles do not reach. */
function appearance(): Appearance {
  return {
    theme: "night",
    variables: {
      colorPrimary: themeToken("--blood-500"),
      colorBackground: themeToken("--surface"),
      colorText: themeToken("--bone"),
      colorDanger: themeToken("--blood-400"),
      borderRadius: themeToken("--radius-sm"),
      fontFamily: themeToken("--font-body"),
    },
  };
}

const stripeByKey = new Map<string, Promise<Stripe | null>>();

/** Stripe.js is fetched from Stripe only now, when a payment dialog opens, and once per key. */
function loadStripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = stripeByKey.get(publishableKey);
  if (!promise) {
    promise = importFresh(() => import("@stripe/stripe-js")).then(({ loadStripe }) => loadStripe(publishableKey));
    promise.catch(() => stripeByKey.delete(publishableKey));
    stripeByKey.set(publishableKey, promise);
  }
  return promise;
}

/** Stripe's errors that mean no answer came back about the charge (it may have been taken), not a refusal. */
function unanswered(error: StripeError): boolean {
  return error.type === "api_connection_error" || error.type === "api_error";
}

function CheckoutForm({ clientSecret, productType, compact, onSucceeded, onCancel, onBusyChange }: PaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const outcome = usePaymentOutcome(productType, onSucceeded);
  const { loaded } = outcome;
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  useReportBusy(submitting || (outcome.problem?.kind === "unanswered" && outcome.problem.checking), onBusyChange);

  useEffect(() => {
    if (!stripe) return;
    let current = true;
    void stripe.retrievePaymentIntent(clientSecret).then(({ paymentIntent }) => {
      if (current && paymentIntent) loaded({ id: paymentIntent.id, status: paymentIntent.status });
    });
    return () => {
      current = false;
    };
  }, [stripe, clientSecret, loaded]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    const emailProblem = productType === "access" ? buyerEmailError(email) : undefined;
    setEmailError(emailProblem);
    if (emailProblem) return;
    setSubmitting(true);
    outcome.retrying();
    const buyerEmail = productType === "access" ? email.trim() || undefined : undefined;
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: {
          return_url: `${window.location.origin}${paths.checkoutSuccess}`,
          ...(buyerEmail ? { receipt_email: buyerEmail } : {}),
        },
        redirect: "if_required",
      });
      // Paying again after a lost answer: Stripe refuses to confirm the intent twice and says it succeeded.
      const settled = error?.payment_intent?.status === "succeeded" ? error.payment_intent : null;
      if (settled) outcome.confirmed({ id: settled.id, status: settled.status }, buyerEmail);
      else if (error) outcome.failed(error.message, !unanswered(error));
      else if (paymentIntent) outcome.confirmed({ id: paymentIntent.id, status: paymentIntent.status }, buyerEmail);
    } catch {
      outcome.failed(null, false);
    } finally {
      setSubmitting(false);
    }
  };

  const checkPayment = () => {
    if (!stripe) return;
    const buyerEmail = productType === "access" ? email.trim() || undefined : undefined;
    void outcome.check(async () => {
      const { paymentIntent, error } = await stripe.retrievePaymentIntent(clientSecret);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- Stripe.js's own error object: any failure means the answer is still unknown
      if (!paymentIntent) throw error ?? new Error("no payment intent");
      return { id: paymentIntent.id, status: paymentIntent.status };
    }, buyerEmail);
  };

  return (
    <form className="form payment-form" onSubmit={onSubmit} noValidate>
      {productType === "access" ? <BuyerEmailField value={email} error={emailError} disabled={submitting} onChange={setEmail} /> : null}
      <PaymentElement className="stripe-payment-element" options={{ layout: compact ? "accordion" : "tabs" }} />
      <PaymentStatusLine message={outcome.statusMessage} />
      <PaymentProblemNotice problem={outcome.problem} onCheck={checkPayment} />
      <PaymentActions submitting={submitting} ready={Boolean(stripe && elements)} onCancel={onCancel} />
    </form>
  );
}

/** The Stripe Payment Element inside Elements, for a live (or test-key) Stripe account. */
export function StripePaymentForm(props: PaymentFormProps & { publishableKey: string; onLoadError: () => void }) {
  const { publishableKey, onLoadError, ...formProps } = props;
  // Elements gets a promise that never rejects (it does not catch); a failed load is reported here instead.
  const stripePromise = useMemo(
    () =>
      loadStripeFor(publishableKey).then(
        (stripe) => stripe ?? (onLoadError(), null),
        () => (onLoadError(), null),
      ),
    [publishableKey, onLoadError],
  );
  const options = useMemo(() => ({ clientSecret: formProps.clientSecret, appearance: appearance() }), [formProps.clientSecret]);
  return (
    <Elements stripe={stripePromise} options={options}>
      <CheckoutForm {...formProps} />
    </Elements>
  );
}
