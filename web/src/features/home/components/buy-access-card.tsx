import { useState } from "react";
import { useLocation } from "wouter";
import { loadPaymentDialog } from "@/components/payments/load-payment-dialog";
import { paths } from "@/config/paths";
import { paymentConfigQueryOptions } from "@/lib/payments";
import { onDialogEntry } from "@/hooks/use-back-closes";
import { toast, toastCouldNotOpen } from "@/hooks/use-toast";
import { useLazyPart } from "@/hooks/use-lazy-part";
import { SALES_CLOSED_MESSAGE } from "@contracts/ready-to-sell";
import { DEFAULT_ACCESS_PRICE, DEFAULT_CURRENCY, formatMoney } from "@contracts/money";
import { useLivestreamSettings } from "@/lib/livestream-settings";
import { importFresh } from "@/lib/app-version";
import { formatEventDay, formatEventTime } from "@/lib/dates";
import { inQueryCache, loadQueryCache, useEarlyQuery } from "@/lib/query-cache";

const loadDialog = () => inQueryCache(() => importFresh(loadPaymentDialog).then((m) => m.PaymentDialog));

// Fetched ahead on a hint of BUY NOW (a pointer over it, a finger on it, focus), so the tap finds it loading:
// the dialog's code, the query cache and the payment config the dialog reads.
function prepare() {
  void loadPaymentDialog().catch(() => {});
  void loadQueryCache()
    .then(({ client }) => client.prefetchQuery(paymentConfigQueryOptions()))
    .catch(() => {});
}

/** The pass on sale: the price, BUY NOW, and the payment dialog (its code is fetched on first use). */
export function BuyAccessCard() {
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  // A dialog whose code could not be fetched (the connection dropped) does not open; the next tap fetches it again.
  const PaymentDialog = useLazyPart(loadDialog, {
    wanted: requested,
    onFailed: () => {
      setOpen(false);
      setRequested(false);
      toastCouldNotOpen("payment");
    },
  });
  // The event's price: from the public settings the page already has (in its HTML), or, when they cannot be
  // loaded, from the payment config. The dialog reads that config itself; a hint of BUY NOW fetches it ahead.
  const settings = useLivestreamSettings();
  const config = useEarlyQuery({ ...paymentConfigQueryOptions(), enabled: settings.isError }, undefined);
  const price = settings.data?.accessPrice ?? config.data?.accessPrice ?? DEFAULT_ACCESS_PRICE;
  const currency = settings.data?.currency ?? config.data?.currency ?? DEFAULT_CURRENCY;
  // Real card payments before the organiser has published their legal pages: the server refuses the sale (the panel says why).
  const closed = settings.data?.salesOpen === false;

  const night = settings.data?.night;
  const phase = settings.data?.phase;
  // After the night: a pass to its replay (while the owner sells it), or nothing at all.
  if (night && !night.onSale) return <SalesClosed replay={phase === "replay"} ended={phase === "ended" && !!settings.data?.replayEnabled} cancelled={!!night.cancelledAt} />;
  const replayUntil = phase === "replay" && settings.data ? `${formatEventDay(settings.data.replayUntil)} at ${formatEventTime(settings.data.replayUntil)}` : null;

  const onPaymentSuccess = () => {
    toast({ title: "Payment Successful", description: "Summoning your access code…" });
    // In place of the open dialog's history entry: Back from the code leads to the landing page.
    navigate(paths.checkoutSuccess, { replace: onDialogEntry() });
  };

  return (
    <section className="card card-blood panel home-buy-card" aria-labelledby="buy-title">
      <p className="eyebrow">Admission</p>
      <h2 id="buy-title" className="home-buy-title">
        {replayUntil ? "One pass. One device. The replay." : "One pass. One device. One night."}
      </h2>
      <p className="home-buy-price">
        <span className="home-buy-price-amount">{formatMoney(price, currency)}</span>
        <span className="home-buy-price-note">one-time · no account needed</span>
      </p>
      <ul className="home-buy-points">
        <li>Your access code on screen at once, and by e-mail</li>
        {replayUntil ? <li>The whole night again, with its chat as it happened, until {replayUntil}</li> : <li>Live chat, hearts and donations with everyone watching</li>}
        <li>Card payment, handled securely</li>
      </ul>
      {replayUntil ? <p className="home-buy-notice">The live night is over: this pass is for its replay.</p> : null}
      {closed ? (
        <p className="home-buy-closed" id="buy-closed" role="status">
          {SALES_CLOSED_MESSAGE}
        </p>
      ) : null}
      <button
        type="button"
        className="btn btn-primary btn-block home-buy-button"
        disabled={closed}
        aria-describedby={closed ? "buy-closed" : undefined}
        onPointerEnter={closed ? undefined : prepare}
        onFocus={closed ? undefined : prepare}
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        BUY NOW <span className="home-buy-button-price">{formatMoney(price, currency)}</span>
      </button>
      {requested && PaymentDialog ? (
        <PaymentDialog
          open={open}
          onOpenChange={setOpen}
          amount={price}
          productType="access"
          title="Secure Your Access"
          note={replayUntil ? `This pass is for the replay: the live night is over. Watch it, with its chat, until ${replayUntil}.` : undefined}
          onPaymentSuccess={onPaymentSuccess}
        />
      ) : null}
    </section>
  );
}

/** In place of the pass once nothing is sold: why, and (for the replay) that pass holders still watch. */
function SalesClosed({ replay, ended, cancelled }: { replay: boolean; ended: boolean; cancelled: boolean }) {
  return (
    <section className="card card-blood panel home-buy-card home-buy-over" aria-labelledby="buy-title">
      <p className="eyebrow">Admission</p>
      <h2 id="buy-title" className="home-buy-title">
        {ended ? "Passes return with the replay" : "Passes are no longer sold"}
      </h2>
      <p className="home-buy-over-text">
        {cancelled
          ? "The event has been cancelled. If you bought a pass, quote its code when you write to the organiser."
          : ended
            ? "The night has just ended. Passes to its replay go on sale here once it is ready."
            : replay
              ? "The night is over. Pass holders can still watch its replay with the code they were given."
              : "The night is over, and so is its replay."}
      </p>
    </section>
  );
}
