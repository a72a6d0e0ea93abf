import { useQuery } from "@/lib/query";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { Alert } from "@/components/ui/alert";
import { EventActions } from "@/components/ui/event-actions";
import { PageLoader } from "@/components/ui/page-loader";
import { paths } from "@/config/paths";
import { toast, toastError } from "@/hooks/use-toast";
import { LOCAL_KEYS, readLocal, writeLocal } from "@/lib/storage";
import { accessCodeForPaymentQueryOptions } from "../api/generate-access-code";
import { AccessCodeReveal } from "./access-code-reveal";

export const REDIRECT_SECONDS = 5;

/** Counts down from `seconds` once `running`; calls `onDone` at zero. */
function useRedirectCountdown(running: boolean, seconds: number, onDone: () => void): number {
  const [left, setLeft] = useState(seconds);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (!running) return;
    if (left <= 0) {
      done.current();
      return;
    }
    const id = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(id);
  }, [running, left]);
  return left;
}

function NoPayment() {
  return (
    <div className="form">
      <Alert variant="error">No payment information found</Alert>
      <p className="checkout-text">If you have paid, check your e-mail for your access code, or enter it on the access page.</p>
      <Link href={paths.home} className="btn btn-primary btn-block">
        Back to the home page
      </Link>
      <Link href={paths.access} className="btn btn-outline btn-block">
        I have a code
      </Link>
    </div>
  );
}

function GeneratedCode({ paymentIntentId }: { paymentIntentId: string }) {
  const [, navigate] = useLocation();
  const code = useQuery(accessCodeForPaymentQueryOptions(paymentIntentId));
  const announced = useRef(false);
  const accessCode = code.data?.accessCode ?? null;

  useEffect(() => {
    if (announced.current) return;
    if (accessCode) {
      announced.current = true;
      writeLocal(LOCAL_KEYS.accessCode, accessCode);
      if (readLocal(LOCAL_KEYS.email)) toast({ title: "Payment Successful", description: "Your access code has been sent to your email!" });
      else toast({ title: "Purchase Successful!", description: "Your access code has been generated." });
    } else if (code.isError) {
      announced.current = true;
      toastError("Failed to generate access code. Please contact support.");
    }
  }, [accessCode, code.isError]);

  // Replaced, not pushed: Back from /access must not land here and be sent on again.
  const goOn = () => navigate(paths.access, { replace: true });
  const secondsLeft = useRedirectCountdown(accessCode !== null, REDIRECT_SECONDS, goOn);

  if (code.isError) {
    return (
      <div className="form">
        <Alert variant="error" title="Error">
          Failed to generate access code. Please contact support.
        </Alert>
        <p className="checkout-text">
          Quote your payment reference: <code className="checkout-ref">{paymentIntentId}</code>
        </p>
        <Link href={paths.home} className="btn btn-outline btn-block">
          Back to the home page
        </Link>
      </div>
    );
  }
  if (!accessCode) return <PageLoader label="Summoning your access code…" />;
  return (
    <div className="checkout-result">
      <AccessCodeReveal code={accessCode} />
      <p className="checkout-warning">Keep this code safe. It can only be used on one device</p>
      <p className="checkout-redirect" role="status">
        Taking you to the access page in <span className="checkout-seconds">{secondsLeft}</span> {secondsLeft === 1 ? "second" : "seconds"}…
      </p>
      <button type="button" className="btn btn-primary btn-block" onClick={goOn}>
        CONTINUE NOW
      </button>
      <EventActions />
    </div>
  );
}

/** After payment: the access code for the payment in the query string or the stored payment id. */
export function CheckoutSuccessPage() {
  const [params] = useSearchParams();
  const [paymentIntentId] = useState(() => params.get("payment_intent") ?? readLocal(LOCAL_KEYS.paymentIntentId));
  return (
    <div className="page page-narrow">
      <div className="page-intro">
        <p className="eyebrow">Checkout</p>
        <h1 className="display page-title">Your Access Code</h1>
        <span className="drip" aria-hidden="true" />
      </div>
      <div className="card card-blood panel">{paymentIntentId ? <GeneratedCode paymentIntentId={paymentIntentId} /> : <NoPayment />}</div>
    </div>
  );
}
