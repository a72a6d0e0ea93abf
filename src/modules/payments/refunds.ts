import type { Store } from "../../db/store.ts";
import { refundableAmount, type PaymentRecord, type PaymentStatus, type RefundOutcome, type RefundReason } from "../../contracts/payments-ledger.ts";
import { formatMoney } from "../../contracts/money.ts";
import { conflict, badRequest, notFound } from "../../lib/errors.ts";
import type { AccessService } from "../access/service.ts";
import { ledgerStatus, type LedgerRow, type PaymentLedger } from "./ledger.ts";
import type { PaymentProvider } from "./provider.ts";

/** What a refund changes of a payment, as the audit log records it before and after. */
export interface PaymentState {
  status: PaymentStatus;
  amount: number;
  currency: string;
  refundedAmount: number;
  disputedAmount: number;
}

export const paymentState = (p: PaymentRecord): PaymentState => ({
  status: p.status,
  amount: p.amount,
  currency: p.currency,
  refundedAmount: p.refundedAmount,
  disputedAmount: p.disputedAmount,
});

/** How long a finished refund's snapshot is kept for requests that were sent while it was being made. */
const OVERLAP_KEPT_MS = 60_000;

/** A refund being made (or just made) in this process: the payment as it was read, and when it was settled. */
interface RefundInFlight {
  amount: number | undefined;
  expectedRefunded: number | undefined;
  before: LedgerRow;
  settledAt: number | null;
}

/** An admin's refund: through the provider's Refunds API (at once in demo mode), then into the ledger. */
export class RefundService {
  /** Refunds in flight, and finished ones for a minute, by payment intent. */
  private readonly recent = new Map<string, RefundInFlight>();

  constructor(
    private readonly store: Store,
    private readonly provider: PaymentProvider,
    private readonly ledger: PaymentLedger,
    private readonly access: AccessService,
  ) {}

  /**
   * Refunds `amount` (or all that is left) of a fulfilled payment. The idempotency key is made of the
   * payment and what was refunded before, so a double click (or a retry) refunds once. `expectedRefunded`:
   * what the admin saw refunded when they decided; a ledger that shows more by then (the refund they
   * are retrying went through and Stripe's webhook has recorded it) refuses the refund instead of
   * making a second one under a new key. `reason` goes to the provider; it is not part of the key, so a
   * retry with another reason cannot refund twice.
   *
   * `receivedAt` (`performance.now()` when the request came in): a request sent while the same refund
   * was being made (a double click whose first request is answered before the second is read) is the
   * same click, so it is made from the payment as the first found it, under the same key: the provider
   * answers with the same refund and nothing is revoked twice. A request that came in after the first
   * was settled reads the payment afresh (and is refused if nothing is left).
   */
  async refund(
    intentId: string,
    amount: number | undefined,
    siteUrl: string,
    expectedRefunded?: number,
    reason?: RefundReason,
    receivedAt = performance.now(),
  ): Promise<{ outcome: RefundOutcome; before: PaymentState }> {
    this.forgetSettled();
    const earlier = this.recent.get(intentId);
    const sameClick = earlier && earlier.amount === amount && earlier.expectedRefunded === expectedRefunded && (earlier.settledAt === null || receivedAt < earlier.settledAt);
    const before = sameClick ? earlier.before : await this.ledger.find(intentId);
    if (!before || before.fulfilled !== 1) throw notFound("Payment not found");
    const left = refundableAmount({
      amount: before.amount,
      refundedAmount: before.refunded_amount,
      disputedAmount: before.disputed_amount,
      status: ledgerStatus(before),
    });
    if (before.disputed_amount > 0) throw conflict("This payment is disputed: the card issuer holds the money, so it cannot be refunded.");
    if (left <= 0) throw conflict("This payment has already been refunded in full.");
    if (expectedRefunded !== undefined && before.refunded_amount !== expectedRefunded) {
      throw conflict(
        `This payment has changed since you opened it: ${formatMoney(before.refunded_amount, before.currency)} of it is refunded now. Check it before refunding again.`,
      );
    }
    const wanted = amount ?? left;
    if (wanted > left) throw badRequest(`At most ${formatMoney(left, before.currency)} of this payment can be refunded.`);

    // After a refund failed, the same amount again is a new refund, not the failed one under its old key.
    const afterFailed = before.failed_refund_amount > 0 ? `-after-${before.failed_refund_amount}-failed` : "";
    const key = `dreadcast-refund-${intentId}-${before.refunded_amount}-${wanted}${afterFailed}`;
    const mine: RefundInFlight = sameClick ? earlier : { amount, expectedRefunded, before, settledAt: null };
    if (!sameClick) this.recent.set(intentId, mine);
    let refund;
    try {
      refund = await this.provider.refund(intentId, wanted, key, reason);
    } catch (err) {
      // A refund that failed is tried again from the payment as it is then.
      if (this.recent.get(intentId) === mine) this.recent.delete(intentId);
      throw err;
    }
    const effects = await this.store.tx(async () => {
      await this.store.lock(`payment:${intentId}`);
      await this.ledger.recordRefund(refund.id, intentId, refund.amount, refund.status, refund.created, refund.created);
      // Refunds made in Stripe's dashboard and not yet seen in a webhook count now, not at its next event.
      if (refund.chargeRefunded !== null) await this.ledger.recordChargeRefunded(intentId, refund.chargeRefunded, refund.created);
      return this.ledger.settle(intentId, siteUrl, true);
    });
    mine.settledAt ??= performance.now();
    this.ledger.announce(effects);
    const [payment] = await this.ledger.list(intentId);
    const revokedCode = effects.revokedCodeIds?.length ? ((await this.access.codeForPayment(before.id))?.code ?? null) : null;
    const state: PaymentState = {
      status: ledgerStatus(before),
      amount: before.amount,
      currency: before.currency,
      refundedAmount: before.refunded_amount,
      disputedAmount: before.disputed_amount,
    };
    return { outcome: { payment: payment!, revokedCode }, before: state };
  }

  private forgetSettled(now = performance.now()): void {
    for (const [intentId, made] of this.recent) if (made.settledAt !== null && now - made.settledAt > OVERLAP_KEPT_MS) this.recent.delete(intentId);
  }
}
