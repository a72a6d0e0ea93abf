import { useEffect, useState, type FormEvent } from "react";
import { DEMO_CARD_SUCCESS } from "@contracts/payments";
import { FormField } from "@/components/ui/form-field";
import { usePaymentOutcome } from "@/hooks/use-payment-outcome";
import { ApiError, serverErrorMessage } from "@/lib/api-client";
import { confirmDemoPayment, getDemoPaymentIntent } from "@/lib/payments";
import { BuyerEmailField, PaymentActions, PaymentProblemNotice, PaymentStatusLine, buyerEmailError, useReportBusy, type PaymentFormProps } from "./payment-form-parts";

type CardErrors = Partial<Record<"cardNumber" | "expiry" | "cvc" | "email", string>>;

/** "4242424242424242" → "4242 4242 4242 4242" as it is typed. */
function formatCardNumber(value: string): string {
  return value
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "1234" → "12 / 34" as it is typed. */
function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

function validateCard(card: { cardNumber: string; expiry: string; cvc: string }, now = new Date()): CardErrors {
  const errors: CardErrors = {};
  const digits = card.cardNumber.replace(/\D/g, "");
  if (digits.length < 12) errors.cardNumber = "Please enter your card number.";
  const [month, year] = card.expiry.split("/").map((part) => Number(part.trim()));
  const expired =
    !month || month > 12 || year === undefined || Number.isNaN(year) || 2000 + year < now.getFullYear() || (2000 + year === now.getFullYear() && month < now.getMonth() + 1);
  if (expired) errors.expiry = "Please enter a valid expiry date (MM / YY).";
  if (!/^\d{3,4}$/.test(card.cvc)) errors.cvc = "Please enter the 3 or 4 digit security code.";
  return errors;
}

/** Demo mode's card form: no real payment; the server accepts only its test card. */
/** Whether the server answered the payment (a refusal) rather than failing or never answering (it may have been taken). */
function serverAnswered(error: unknown): boolean {
  return error instanceof ApiError && error.status < 500;
}

export function DemoPaymentForm({ clientSecret, productType, compact, onSucceeded, onCancel, onBusyChange }: PaymentFormProps) {
  const outcome = usePaymentOutcome(productType, onSucceeded);
  const { loaded } = outcome;
  const [card, setCard] = useState({ cardNumber: "", expiry: "", cvc: "" });
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<CardErrors>({});
  const [ready, setReady] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  useReportBusy(submitting || (outcome.problem?.kind === "unanswered" && outcome.problem.checking), onBusyChange);

  useEffect(() => {
    let current = true;
    getDemoPaymentIntent(clientSecret)
      .then((intent) => {
        if (!current) return;
        setReady(true);
        loaded(intent);
      })
      .catch(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, [clientSecret, loaded]);

  const buyerEmail = () => (productType === "access" ? email.trim() || undefined : undefined);
  const checkPayment = () => void outcome.check(() => getDemoPaymentIntent(clientSecret), buyerEmail());

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found: CardErrors = { ...validateCard(card), email: productType === "access" ? buyerEmailError(email) : undefined };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSubmitting(true);
    outcome.retrying();
    try {
      const intent = await confirmDemoPayment({ clientSecret, cardNumber: card.cardNumber, email: buyerEmail() });
      outcome.confirmed(intent, buyerEmail());
    } catch (error) {
      outcome.failed(serverErrorMessage(error), serverAnswered(error));
    } finally {
      setSubmitting(false);
    }
  };

  const useTestCard = () => {
    setCard({ cardNumber: formatCardNumber(DEMO_CARD_SUCCESS), expiry: "12 / 34", cvc: "123" });
    setErrors({});
  };

  return (
    <form className="form payment-form" data-layout={compact ? "accordion" : "tabs"} onSubmit={onSubmit} noValidate>
      <div className="demo-notice" role="note">
        <p className="demo-notice-title">Demo mode — no real payment</p>
        <p>
          Use the test card <strong>4242 4242 4242 4242</strong> with any future date and any CVC.{" "}
          <button type="button" className="demo-fill-link" onClick={useTestCard}>
            Fill in the test card
          </button>
        </p>
      </div>
      {productType === "access" ? <BuyerEmailField value={email} error={errors.email} disabled={submitting} onChange={setEmail} /> : null}
      <fieldset className="card-fields" disabled={submitting}>
        <legend className="card-fields-legend">
          <span className="card-fields-tab">Card</span>
        </legend>
        <FormField
          label="Card number"
          name="cardnumber"
          autoComplete="cc-number"
          inputMode="numeric"
          placeholder="1234 1234 1234 1234"
          value={card.cardNumber}
          error={errors.cardNumber}
          onChange={(event) => setCard({ ...card, cardNumber: formatCardNumber(event.target.value) })}
        />
        <div className="card-fields-row">
          <FormField
            label="Expiry"
            name="cc-exp"
            autoComplete="cc-exp"
            inputMode="numeric"
            placeholder="MM / YY"
            value={card.expiry}
            error={errors.expiry}
            onChange={(event) => setCard({ ...card, expiry: formatExpiry(event.target.value) })}
          />
          <FormField
            label="CVC"
            name="cvc"
            autoComplete="cc-csc"
            inputMode="numeric"
            placeholder="123"
            maxLength={4}
            value={card.cvc}
            error={errors.cvc}
            onChange={(event) => setCard({ ...card, cvc: event.target.value.replace(/\D/g, "").slice(0, 4) })}
          />
        </div>
      </fieldset>
      <PaymentStatusLine message={outcome.statusMessage} />
      <PaymentProblemNotice problem={outcome.problem} onCheck={checkPayment} />
      <PaymentActions submitting={submitting} ready={ready} onCancel={onCancel} />
    </form>
  );
}
