import { formatMoney } from "@contracts/money";
import { refundableAmount, refundFailureText, type PaymentRecord } from "@contracts/payments-ledger";
import { IconFact } from "@/components/admin/icon-fact";
import { CoinsIcon, KeyIcon, MailIcon, UsersIcon } from "@/components/ui/icons";
import { GiftIcon } from "@/components/ui/stream-icons";
import { AlertIcon } from "@/components/ui/site-icons";
import { formatDate, formatDateTime, formatTime } from "@/lib/dates";
import { KIND_LABELS, refundButtonName, STATUS_BADGES, STATUS_LABELS } from "../lib/payment-labels";
import { TableWrap } from "@/components/admin/table-wrap";

interface PaymentListProps {
  payments: PaymentRecord[];
  asCards: boolean;
  onRefund: (payment: PaymentRecord) => void;
}

function Amount({ payment }: { payment: PaymentRecord }) {
  return (
    <span className="ledger-amount">
      {formatMoney(payment.amount, payment.currency)}
      {payment.refundedAmount > 0 ? <span className="cell-sub">−{formatMoney(payment.refundedAmount, payment.currency)} refunded</span> : null}
    </span>
  );
}

/** A refund that failed or was canceled: its money is back with the streamer, not the buyer. */
function RefundFailure({ payment }: { payment: PaymentRecord }) {
  const failure = refundFailureText(payment, (minor) => formatMoney(minor, payment.currency));
  if (!failure) return null;
  return (
    <span className="ledger-refund-failed" title="The money went back to your Stripe balance; the buyer has not been refunded.">
      <AlertIcon aria-hidden="true" />
      {failure}
    </span>
  );
}

/** The pass's code, marked when it no longer works. */
function Code({ payment }: { payment: PaymentRecord }) {
  if (!payment.code) return null;
  return (
    <>
      {payment.code}
      {payment.codeRevoked ? <span className="cell-sub ledger-revoked">Revoked</span> : null}
    </>
  );
}

function Kind({ payment }: { payment: PaymentRecord }) {
  return (
    <span className="ledger-kind">
      {payment.kind === "access" ? <KeyIcon aria-hidden="true" /> : <GiftIcon aria-hidden="true" />}
      {KIND_LABELS[payment.kind]}
    </span>
  );
}

function RefundButton({ payment, onRefund }: { payment: PaymentRecord; onRefund: (payment: PaymentRecord) => void }) {
  const left = refundableAmount(payment);
  return (
    <button type="button" className="btn btn-outline btn-sm" disabled={left <= 0} onClick={() => onRefund(payment)} aria-label={refundButtonName(payment, formatMoney)}>
      <CoinsIcon />
      Refund
    </button>
  );
}

/** The ledger as a table, or as cards on narrow screens. */
export function PaymentList({ payments, asCards, onRefund }: PaymentListProps) {
  if (asCards) {
    return (
      <ul className="record-list" aria-label="Payments">
        {payments.map((p) => (
          <li key={p.paymentIntentId} className="record-card" data-status={p.status}>
            <div className="record-card-head">
              <Kind payment={p} />
              <span className={STATUS_BADGES[p.status]}>{STATUS_LABELS[p.status]}</span>
            </div>
            <p className="ledger-card-amount">
              <Amount payment={p} />
              <span className="cell-muted cell-date">{formatDateTime(p.createdAt)}</span>
            </p>
            <RefundFailure payment={p} />
            <dl className="ledger-facts">
              <IconFact icon={<MailIcon aria-hidden="true" />} label="E-mail">
                {p.email ?? <span className="cell-muted">No e-mail</span>}
              </IconFact>
              <IconFact icon={<UsersIcon aria-hidden="true" />} label="Chat name">
                {p.username ?? <span className="cell-muted">Not in the chat yet</span>}
              </IconFact>
              {p.code ? (
                <IconFact icon={<KeyIcon aria-hidden="true" />} label="Access code" className="mono">
                  <Code payment={p} />
                </IconFact>
              ) : null}
            </dl>
            <div className="record-card-actions">
              <RefundButton payment={p} onRefund={onRefund} />
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <TableWrap label="Payments">
      <table className="data-table ledger-table">
        <caption className="sr-only">Payments</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Payment</th>
            <th scope="col">Status</th>
            <th scope="col">Buyer</th>
            <th scope="col">Access code</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {payments.map((p) => (
            <tr key={p.paymentIntentId} data-status={p.status}>
              <td className="cell-date cell-muted">
                {formatDate(p.createdAt)}
                <span className="ledger-time">{formatTime(p.createdAt)}</span>
              </td>
              <td>
                <Kind payment={p} />
                <Amount payment={p} />
                <RefundFailure payment={p} />
              </td>
              <td>
                <span className={STATUS_BADGES[p.status]}>{STATUS_LABELS[p.status]}</span>
              </td>
              <td className="cell-email">
                {p.email ?? <span className="cell-muted">No e-mail</span>}
                <span className="cell-sub ledger-name">{p.username ?? "Not in the chat yet"}</span>
              </td>
              <td className="mono ledger-code">{p.code ? <Code payment={p} /> : <span className="cell-muted">—</span>}</td>
              <td className="cell-actions">
                <RefundButton payment={p} onRefund={onRefund} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
