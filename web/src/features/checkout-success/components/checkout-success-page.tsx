import { Link, useSearchParams } from "wouter";
import { Alert } from "@/components/ui/alert";
import { PageLoader } from "@/components/ui/page-loader";
import { paths } from "@/config/paths";
import { LOCAL_KEYS, readLocal } from "@/lib/storage";

/** After payment: the access code for the payment in the query string or the stored payment id. */
export function CheckoutSuccessPage() {
  const [params] = useSearchParams();
  const paymentIntentId = params.get("payment_intent") ?? readLocal(LOCAL_KEYS.paymentIntentId);
  return (
    <div className="page page-narrow">
      <div className="page-intro">
        <p className="eyebrow">Checkout</p>
        <h1 className="display page-title">Your Access Code</h1>
      </div>
      <div className="card card-blood panel">
        {paymentIntentId ? (
          <PageLoader label="Summoning your access code…" />
        ) : (
          <div className="form">
            <Alert variant="error">No payment information found</Alert>
            <Link href={paths.home} className="btn btn-primary btn-block">
              Back to the home page
            </Link>
          </div>
        )}
      </div>
    </div>
  );
}
