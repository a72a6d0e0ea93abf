import { useEffect, useId, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { formatMoney, toMinorUnits } from "@contracts/money";
import { refundableAmount, refundFailureText, type PaymentRecord, type RefundReason } from "@contracts/payments-ledger";
import { AdminDialog } from "@/components/admin/admin-dialog";
import { CoinsIcon } from "@/components/ui/icons";
import { AlertIcon } from "@/components/ui/site-icons";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { refusalMessage, useRefundPayment } from "../api/payments";

/** The reasons Stripe takes, as the admin reads them; none by default. */
const REASON_LABELS: [RefundReason | "", string][] = [
  ["", "No reason given"],
  ["requested_by_customer", "Requested by the buyer"],
  ["duplicate", "Duplicate payment"],
  ["fraudulent", "Fraudulent"],
];

/**
 * Confirm? before a refund: how much (all that is left by default), and for an access pass refunded in
 * full, that its code stops working at once.
 */
export function RefundDialog({ payment, onOpenChange }: { payment: PaymentRecord | null; onOpenChange: (open: boolean) => void }) {
  const refund = useRefundPayment();
  const amountId = useId();
  const reasonId = useId();
  const [reason, setReason] = useState<RefundReason | "">("");
  const left = payment ? refundableAmount(payment) : 0;
  const [units, setUnits] = useState("");
  useEffect(() => setUnits(payment ? (left / 100).toFixed(2) : ""), [payment, left]);
  useEffect(() => setReason(""), [payment?.paymentIntentId]);
  // Why the server refused the last attempt: the mutation's error, shown until the amount or the payment changes.
  const { reset } = refund;
  useEffect(() => reset(), [payment?.paymentIntentId, reset]);
  const refused = refund.isError ? refusalMessage(refund.error) : null;

  if (!payment) return null;
  const money = (minor: number) => formatMoney(minor, payment.currency);
  const amount = toMinorUnits(Number(units));
  const problem = !(amount >= 1) ? "Enter an amount to refund" : amount > left ? `At most ${money(left)} can be refunded` : null;
  const full = amount === left;
  const revokes = payment.kind === "access" && full && payment.code && !payment.codeRevoked;
  const failure = refundFailureText(payment, money);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    refund.mutate(
      { paymentIntentId: payment.paymentIntentId, amount, expectedRefunded: payment.refundedAmount, ...(reason ? { reason } : {}) },
      {
        onSuccess: (outcome) => {
          onOpenChange(false);
          toast({
            title: "Refund Issued",
            description: outcome.revokedCode ? `${money(amount)} refunded. ${outcome.revokedCode} no longer works.` : `${money(amount)} refunded.`,
          });
        },
      },
    );
  };

  return (
    <AdminDialog
      open
      onOpenChange={onOpenChange}
      tone="danger"
      icon={<CoinsIcon />}
      title="Refund this payment?"
      description={
        revokes
          ? `Confirm? The buyer gets ${money(amount)} back, and the access code ${payment.code} is revoked at once: anyone watching with it is signed out, and the buyer is told by e-mail.`
          : `Confirm? ${money(amount >= 1 ? Math.min(amount, left) : left)} goes back to the buyer's card. This cannot be undone.`
      }
    >
      <form className="ledger-refund-form" onSubmit={onSubmit} noValidate>
        {payment.status === "inquiry" ? (
          <div className="alert alert-warning" data-testid="inquiry-note">
            <AlertIcon />
            <div>
              <p className="alert-title">The buyer's bank is asking about this payment</p>
              <p>This is an inquiry, not yet a dispute: no money has been taken from you. Refunding it in full answers it, with no dispute fee.</p>
            </div>
          </div>
        ) : null}
        {failure ? (
          <div className="alert alert-warning" data-testid="refund-failed-note">
            <AlertIcon />
            <div>
              <p className="alert-title">{failure}</p>
              <p>
                The money went back to your Stripe balance and the buyer has not been refunded. A new refund to the same card may fail the same way; you may have to pay the buyer
                back another way.
              </p>
              {payment.kind === "access" && payment.code && payment.codeRevoked ? (
                <p>
                  The access code {payment.code} was revoked with the refund. If the buyer should keep watching, restore it from{" "}
                  <Link href={`${paths.admin.accessCodes}?search=${encodeURIComponent(payment.code)}`} className="alert-link">
                    Access Codes
                  </Link>
                  .
                </p>
              ) : null}
            </div>
          </div>
        ) : null}
        <div className="field">
          <label className="field-label" htmlFor={amountId}>
            Amount to refund ({payment.currency.toUpperCase()})
          </label>
          <input
            id={amountId}
            className="input"
            type="number"
            inputMode="decimal"
            min={0.01}
            step={0.01}
            value={units}
            onChange={(e) => {
              setUnits(e.target.value);
              if (refund.isError) reset();
            }}
            aria-invalid={problem ? true : undefined}
          />
          <p className="field-hint">{problem ?? `Paid ${money(payment.amount)}; ${money(left)} can still be refunded.`}</p>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={reasonId}>
            Reason
          </label>
          <select id={reasonId} className="input admin-select" value={reason} onChange={(e) => setReason(e.target.value as RefundReason | "")}>
            {REASON_LABELS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <p className="field-hint">{reason === "fraudulent" ? "Stripe also adds the card and e-mail to your block lists." : "Sent to Stripe with the refund."}</p>
        </div>
        {refused ? (
          <p className="field-error ledger-refund-refused" role="alert">
            {refused}
          </p>
        ) : null}
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={refund.isPending || problem !== null}>
            {refund.isPending ? "Refunding..." : revokes ? "Refund and revoke" : `Refund ${money(amount >= 1 ? amount : left)}`}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}
