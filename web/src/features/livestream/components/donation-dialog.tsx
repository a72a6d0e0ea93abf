import * as Dialog from "@radix-ui/react-dialog";
import { lazy, Suspense, useState, type FormEvent } from "react";
import { DONATION_PRESETS } from "@contracts/money";
import type { PaymentIntentState } from "@contracts/payments";
import { donationTier } from "@/components/layouts/stream-layout";
import { CloseIcon, GiftIcon } from "@/components/ui/icons";
import { useFormatAmount } from "@/lib/money";
import { importFresh } from "@/lib/app-version";

// The payment code (and Stripe.js behind it) loads only when a viewer goes on to pay.
const PaymentDialog = lazy(() => importFresh(() => import("@/features/payments/components/payment-dialog")).then((m) => ({ default: m.PaymentDialog })));

export const DEFAULT_DONATION_POUNDS = 5;

const PRESET_NAMES: Record<number, string> = { 5: "A whisper", 10: "A scream", 20: "Bloodcurdling", 50: "Nightmare", 100: "Legendary" };

interface DonationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the payment succeeded and its dialog closed. */
  onDonated: (pounds: number, intent: PaymentIntentState) => void;
}

/** 'MAKE A DONATION': pick a preset amount, then pay it in the payment dialog. */
export function DonationDialog({ open, onOpenChange, onDonated }: DonationDialogProps) {
  const [pounds, setPounds] = useState<number>(DEFAULT_DONATION_POUNDS);
  const [paying, setPaying] = useState(false);
  const amount = useFormatAmount();
  const whole = (units: number) => amount(units * 100);

  const proceed = (event: FormEvent) => {
    event.preventDefault();
    onOpenChange(false);
    setPaying(true);
  };

  return (
    <>
      <Dialog.Root open={open} onOpenChange={onOpenChange}>
        <Dialog.Portal>
          <Dialog.Overlay className="live-dialog-overlay" />
          <Dialog.Content className="live-dialog card card-blood">
            <div className="live-dialog-head">
              <span className="live-dialog-icon" aria-hidden="true">
                <GiftIcon />
              </span>
              <Dialog.Title className="live-dialog-title">MAKE A DONATION</Dialog.Title>
              <Dialog.Description className="live-dialog-description">Feed the fear meter. Every coin drags the night deeper.</Dialog.Description>
            </div>
            <form className="donation-form" onSubmit={proceed}>
              <fieldset className="donation-presets">
                <legend className="sr-only">Donation amount</legend>
                {DONATION_PRESETS.map((preset) => (
                  <label key={preset} className="donation-preset" data-tier={donationTier(preset)}>
                    <input type="radio" name="donation-amount" value={preset} checked={pounds === preset} onChange={() => setPounds(preset)} />
                    <span className="donation-preset-amount">{whole(preset)}</span>
                    <span className="donation-preset-name">{PRESET_NAMES[preset]}</span>
                  </label>
                ))}
              </fieldset>
              <p className="donation-hint">
                Donations of {whole(10)} or more stand out in the chat — {whole(50)} and up take centre stage.
              </p>
              <div className="live-dialog-buttons">
                <Dialog.Close asChild>
                  <button type="button" className="btn">
                    Cancel
                  </button>
                </Dialog.Close>
                <button type="submit" className="btn btn-primary">
                  Donate {whole(pounds)}
                </button>
              </div>
            </form>
            <Dialog.Close className="btn btn-ghost btn-icon live-dialog-close" aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {paying ? (
        <Suspense
          fallback={
            <div className="live-dialog-overlay live-dialog-loading" role="status">
              <span className="spinner" aria-hidden="true" />
              <span className="sr-only">Loading the payment form</span>
            </div>
          }
        >
          <PaymentDialog
            open
            onOpenChange={setPaying}
            amount={pounds * 100}
            productType="donation"
            title="Make a Donation"
            compact
            onPaymentSuccess={(intent) => onDonated(pounds, intent)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
