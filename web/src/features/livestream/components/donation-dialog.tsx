import * as Dialog from "@radix-ui/react-dialog";
import { useState, type FormEvent } from "react";
import { DEFAULT_CURRENCY, DONATION_PRESETS, MAX_DONATION, donationAmountProblem, isCurrency, minDonation, toMinorUnits } from "@contracts/money";
import type { PaymentIntentState } from "@contracts/payments";
import { loadPaymentDialog } from "@/components/payments/load-payment-dialog";
import { Field } from "@/components/ui/form-field";
import { GiftIcon } from "@/components/ui/stream-icons";
import { CloseIcon } from "@/components/ui/site-icons";
import { useEventCurrency, useFormatAmount } from "@/lib/money";
import { importFresh } from "@/lib/app-version";
import { useLazyPart } from "@/hooks/use-lazy-part";
import { toastCouldNotOpen } from "@/hooks/use-toast";
import { donationTier } from "./stream-layout";

// The payment code (and Stripe.js behind it) loads only when a viewer goes on to pay.
const loadPayment = () => importFresh(loadPaymentDialog);

export const DEFAULT_DONATION_POUNDS = 5;

const PRESET_NAMES: Record<number, string> = { 5: "A whisper", 10: "A scream", 20: "Bloodcurdling", 50: "Nightmare", 100: "Legendary" };

/** "7.5" → 750; NaN unless it is a plain amount with at most two decimals ("1,000" is not read as 1.000). */
function typedAmount(text: string): number {
  const trimmed = text.trim();
  return /^\d{1,7}(\.\d{1,2})?$/.test(trimmed) ? toMinorUnits(Number(trimmed)) : Number.NaN;
}

interface DonationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the payment succeeded and its dialog closed. */
  onDonated: (pounds: number, intent: PaymentIntentState) => void;
}

/** 'MAKE A DONATION': pick a preset amount or type one's own, then pay it in the payment dialog. */
export function DonationDialog({ open, onOpenChange, onDonated }: DonationDialogProps) {
  const [choice, setChoice] = useState<number | "own">(DEFAULT_DONATION_POUNDS);
  const [own, setOwn] = useState("");
  const [ownError, setOwnError] = useState<string | undefined>();
  // The amount being paid, fixed when the viewer goes on to pay.
  const [paying, setPaying] = useState<number | null>(null);
  // A payment form whose code could not be fetched (the connection dropped) does not open; the next try fetches it again.
  const payment = useLazyPart(loadPayment, {
    wanted: paying !== null,
    onFailed: () => {
      setPaying(null);
      toastCouldNotOpen("payment");
    },
  });
  const amount = useFormatAmount();
  const eventCurrency = useEventCurrency();
  const currency = isCurrency(eventCurrency) ? eventCurrency : DEFAULT_CURRENCY;
  const whole = (units: number) => amount(units * 100);

  const chosen = choice === "own" ? typedAmount(own) : choice * 100;
  const ownProblem = (): string | undefined => {
    if (!own.trim()) return "Please enter an amount";
    if (Number.isNaN(typedAmount(own))) return "Please enter an amount like 15 or 7.50";
    return donationAmountProblem(typedAmount(own), currency) ?? undefined;
  };

  const proceed = (event: FormEvent) => {
    event.preventDefault();
    if (choice === "own") {
      const problem = ownProblem();
      setOwnError(problem);
      if (problem) return;
    }
    onOpenChange(false);
    setPaying(chosen);
  };

  const pickPreset = (preset: number) => {
    setChoice(preset);
    setOwnError(undefined);
  };

  return (
    <>
      <Dialog.Root open={open} onOpenChange={onOpenChange}>
        <Dialog.Portal>
          <Dialog.Overlay className="stream-dialog-overlay" />
          <Dialog.Content className="stream-dialog card card-blood">
            <div className="stream-dialog-head">
              <span className="stream-dialog-icon" aria-hidden="true">
                <GiftIcon />
              </span>
              <Dialog.Title className="stream-dialog-title">MAKE A DONATION</Dialog.Title>
              <Dialog.Description className="stream-dialog-description">Feed the fear meter. Every coin drags the night deeper.</Dialog.Description>
            </div>
            <form className="stream-donation-form" onSubmit={proceed} noValidate>
              <fieldset className="stream-donation-presets">
                <legend className="sr-only">Donation amount</legend>
                {DONATION_PRESETS.map((preset) => (
                  <label key={preset} className="stream-donation-preset" data-tier={donationTier(preset)}>
                    <input type="radio" name="donation-amount" value={preset} checked={choice === preset} onChange={() => pickPreset(preset)} />
                    <span className="stream-donation-preset-amount">{whole(preset)}</span>
                    <span className="stream-donation-preset-name">{PRESET_NAMES[preset]}</span>
                  </label>
                ))}
              </fieldset>
              <div className="stream-donation-own" data-selected={choice === "own" || undefined}>
                <Field
                  label={`Or your own amount (${currency.toUpperCase()})`}
                  error={ownError}
                  hint={`From ${amount(minDonation(currency))} to ${amount(MAX_DONATION)}.`}
                  control={(tie) => (
                    <div className="stream-donation-own-input">
                      <input
                        {...tie}
                        className="input"
                        type="text"
                        inputMode="decimal"
                        autoComplete="off"
                        name="donation-own-amount"
                        placeholder="e.g. 15"
                        value={own}
                        onFocus={() => setChoice("own")}
                        onChange={(event) => {
                          setChoice("own");
                          setOwn(event.target.value);
                          setOwnError(undefined);
                        }}
                      />
                    </div>
                  )}
                />
              </div>
              <p className="stream-donation-hint">
                Donations of {whole(10)} or more stand out in the chat — {whole(50)} and up take centre stage.
              </p>
              <div className="stream-dialog-buttons">
                <Dialog.Close asChild>
                  <button type="button" className="btn">
                    Cancel
                  </button>
                </Dialog.Close>
                <button type="submit" className="btn btn-primary">
                  {choice === "own" && ownProblem() ? "Donate" : `Donate ${amount(chosen)}`}
                </button>
              </div>
            </form>
            <Dialog.Close className="btn btn-ghost btn-icon stream-dialog-close" aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {paying === null ? null : payment ? (
        <payment.PaymentDialog
          open
          onOpenChange={(next) => !next && setPaying(null)}
          amount={paying}
          productType="donation"
          title="Make a Donation"
          compact
          onPaymentSuccess={(intent) => onDonated(paying / 100, intent)}
        />
      ) : (
        <div className="stream-dialog-overlay stream-dialog-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="sr-only">Loading the payment form</span>
        </div>
      )}
    </>
  );
}
