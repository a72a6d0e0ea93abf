import type { Store } from "../../db/store.ts";
import { formatMoney } from "../../contracts/money.ts";
import type { PassHold } from "../../contracts/admin-panel.ts";
import { netAmount, type PaymentRecord, type PaymentStatus } from "../../contracts/payments-ledger.ts";
import type { AccessService } from "../access/service.ts";
import { toCsv } from "../../http/csv.ts";
import type { MailService } from "../mail/service.ts";
import type { MailPaid, MailRefundSums } from "../mail/templates.ts";
import type { Logger } from "../../lib/logger.ts";
import type { PaymentKind } from "./provider.ts";
import { UNDONE_REFUND, type LedgerEvent } from "./webhook-events.ts";

/** A payment as the ledger sees it: what was paid, refunded and held back by a dispute (minor units). */
export interface LedgerRow {
  id: number;
  intent_id: string;
  kind: PaymentKind;
  amount: number;
  currency: string;
  email: string | null;
  username: string | null;
  fulfilled: number;
  site_url: string | null;
  created_at: number;
  refunded_amount: number;
  disputed_amount: number;
  dispute_status: string | null;
  dispute_closed: number | null;
  /** Refunds that failed or were canceled: their money went back to the account, not to the buyer. */
  failed_refund_amount: number;
  /** The last such refund's reason (Stripe's `failure_reason`, or "canceled"). */
  refund_failure: string | null;
}

/** What a change to the ledger means outside the database, once its transaction has committed. */
export interface LedgerEffects {
  /** Access codes revoked by a refund or dispute: their sockets are to be closed. */
  revokedCodeIds?: number[];
  /** A donation's net amount changed: every viewer's meter moves. */
  donationTotalChanged?: boolean;
  /** The event named an intent this server never sold. */
  unknownIntent?: string;
}

/** Dispute statuses that end it (an inquiry's included). */
const CLOSED = new Set(["won", "lost", "warning_closed"]);

/** An inquiry (or retrieval): the card issuer asks before any dispute, and no money moves unless it becomes one. */
export const isInquiry = (disputeStatus: string | null): boolean => disputeStatus?.startsWith("warning") === true;

/**
 * What keeps a pass revoked, as the ledger sees its payment: a dispute ever opened, a refund in full, or an
 * inquiry still open (one closed took no money); null when nothing does.
 */
export function passHold(row: Pick<LedgerRow, "amount" | "refunded_amount" | "dispute_status" | "dispute_closed">): PassHold | null {
  if (row.dispute_status !== null && !isInquiry(row.dispute_status)) return "disputed";
  if (row.refunded_amount >= row.amount) return "refunded";
  if (isInquiry(row.dispute_status) && row.dispute_closed !== 1) return "inquiry";
  return null;
}

/**
 * The e-mail address of a pass, as every admin screen and e-mail takes it: the code's (given at purchase,
 * on entering, or where an admin sent the code), else its payment's receipt address. SQL over the aliases
 * of an access code and of its payment (a `payments` row or the ledger view).
 */
export const passEmailSql = (code: string, payment: string): string => `COALESCE(${code}.email, ${payment}.email)`;

/** A viewer's e-mail address: their pass's (see `passEmailSql`), else the one they gave on entering. */
export const viewerEmailSql = (user: string, code: string, payment: string): string => `COALESCE(${code}.email, ${payment}.email, ${user}.email)`;

/** Minor units of one currency. */
export interface CurrencyAmount {
  currency: string;
  amount: number;
}

export function ledgerStatus(row: Pick<LedgerRow, "amount" | "refunded_amount" | "dispute_status" | "dispute_closed">): PaymentStatus {
  if (isInquiry(row.dispute_status)) {
    // An open inquiry is shown until a full refund answers it; a closed one leaves the refunds to tell.
    if (row.dispute_closed !== 1 && row.refunded_amount < row.amount) return "inquiry";
  } else if (row.dispute_status !== null) {
    if (row.dispute_closed !== 1) return "disputed";
    return row.dispute_status === "won" ? "dispute_won" : "dispute_lost";
  }
  if (row.refunded_amount >= row.amount) return "refunded";
  return row.refunded_amount > 0 ? "partly_refunded" : "succeeded";
}

/**
 * Refunds and disputes against the payments. Every write is synchronous (call it inside the caller's
 * transaction) and idempotent: a refund counts once by its id until it fails or is canceled (for good), a
 * charge's cumulative refund is the latest Stripe told (the highest of one second), less the refunds it
 * counted that failed since, and a closed dispute is not reopened by a late "created" event, so events
 * apply in any order.
 */
export class PaymentLedger {
  private readonly listeners = new Set<(effects: LedgerEffects) => void>();

  constructor(
    private readonly store: Store,
    private readonly access: AccessService,
    private readonly mail: MailService,
    private readonly log: Logger,
  ) {}

  /** Called after each committed change that revoked a pass or moved the donation total. */
  onEffects(listener: (effects: LedgerEffects) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  announce(effects: LedgerEffects): void {
    if (effects.unknownIntent) this.log.warn(`refund or dispute for a payment this server did not sell (${effects.unknownIntent}); acknowledged and ignored`);
    if (!effects.revokedCodeIds?.length && !effects.donationTotalChanged) return;
    for (const listener of this.listeners) {
      try {
        listener(effects);
      } catch (error) {
        this.log.error("ledger listener failed", error);
      }
    }
  }

  /** A refund or dispute event from Stripe: recorded (even for an intent not known yet, which may succeed later) and settled. */
  async applyEvent(event: LedgerEvent, siteUrl: string): Promise<LedgerEffects> {
    if (!event.intentId) return { unknownIntent: "a charge without a payment intent" };
    await this.store.lock(`payment:${event.intentId}`);
    if (event.kind === "refund") await this.recordChargeRefunded(event.intentId, event.amountRefunded, event.at);
    else if (event.kind === "refund_state") {
      const undone = await this.recordRefund(event.refundId, event.intentId, event.amount, event.status, event.created, event.at, event.failureReason);
      if (undone) {
        this.log.warn(
          `refund ${event.refundId} of ${event.intentId} ${event.status === "canceled" ? "was canceled" : `failed (${event.failureReason ?? "no reason given"})`}: its money is back in the Stripe balance and the buyer was not refunded`,
        );
        if (event.status === "failed") await this.tellBuyerRefundFailed(event.intentId, event.refundId, event.amount, event.failureReason, siteUrl);
      }
    } else await this.recordDispute(event.disputeId, event.intentId, event.amount, event.status, event.at);
    return this.settle(event.intentId, siteUrl, true);
  }

  /**
   * A buyer told by e-mail that their pass was refunded learns that a refund of it failed (a refund canceled
   * was the account's own doing; one failed because the buyer disputed the charge reaches them that way).
   */
  private async tellBuyerRefundFailed(intentId: string, refundId: string, amount: number, failureReason: string | null, siteUrl: string): Promise<void> {
    if (failureReason === "charge_for_pending_refund_disputed") return;
    const row = await this.find(intentId);
    if (!row || row.kind !== "access" || row.fulfilled !== 1) return;
    const code = await this.access.codeForPayment(row.id);
    const email = code?.email ?? row.email;
    if (!code || !email) return;
    await this.mail.queuePassRefundFailed(row.id, refundId, code.code, formatMoney(amount, row.currency), failureReason, email, row.site_url ?? siteUrl);
  }

  async find(intentId: string): Promise<LedgerRow | null> {
    return (await this.store.get<LedgerRow>("SELECT * FROM payment_ledger WHERE intent_id = ?", intentId)) ?? null;
  }

  /**
   * A refund known by its id (one the admin made, or one a refund event names), counted once however often
   * it is seen, until it fails or is canceled: that is for good, whatever arrives after it. `created` and
   * `at` (when Stripe said so) are Stripe's times in epoch seconds. True when this call undid the refund.
   */
  async recordRefund(refundId: string, intentId: string, amount: number, status: string, created: number, at: number, failureReason: string | null = null): Promise<boolean> {
    const undone = UNDONE_REFUND.has(status);
    const changed = await this.store.run(
      `INSERT INTO refunds (id, intent_id, amount, created_at, status, failure_reason, refund_created, failed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, failure_reason = excluded.failure_reason, failed_at = excluded.failed_at,
           refund_created = COALESCE(refunds.refund_created, excluded.refund_created)
         WHERE refunds.status NOT IN ('failed', 'canceled')`,
      refundId,
      intentId,
      amount,
      Date.now(),
      status,
      undone ? failureReason : null,
      created,
      undone ? at : null,
    );
    return undone && changed.changes > 0;
  }

  /**
   * A charge's cumulative refunded amount as Stripe gave it at `at` (epoch seconds): a later word
   * replaces an earlier one (it may be lower: a refund failed), and of two in one second the higher counts.
   */
  async recordChargeRefunded(intentId: string, amountRefunded: number, at: number): Promise<void> {
    await this.store.run(
      `INSERT INTO charge_refunds (intent_id, amount_refunded, updated_at, observed_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (intent_id) DO UPDATE SET amount_refunded = excluded.amount_refunded, updated_at = excluded.updated_at, observed_at = excluded.observed_at
         WHERE excluded.observed_at > charge_refunds.observed_at
           OR (excluded.observed_at = charge_refunds.observed_at AND excluded.amount_refunded > charge_refunds.amount_refunded)`,
      intentId,
      amountRefunded,
      Date.now(),
      at,
    );
  }

  /**
   * `charge.dispute.*` as of `at` (Stripe's time, epoch seconds): a closed dispute keeps its outcome whatever
   * arrives after it, and an open one takes no older word over a newer one (an inquiry that became a
   * dispute stays one).
   */
  async recordDispute(disputeId: string, intentId: string, amount: number, status: string, at: number): Promise<void> {
    const now = Date.now();
    await this.store.run(
      `INSERT INTO disputes (id, intent_id, amount, status, closed, created_at, updated_at, observed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)
         ON CONFLICT (id) DO UPDATE SET amount = ?3, status = ?4, closed = ?5, updated_at = ?6, observed_at = ?7
         WHERE disputes.closed = 0 AND (?5 = 1 OR disputes.observed_at <= ?7)`,
      disputeId,
      intentId,
      amount,
      status,
      CLOSED.has(status) ? 1 : 0,
      now,
      at,
    );
  }

  /**
   * Brings a fulfilled payment in line with its refunds and disputes: a pass refunded in full, ever
   * disputed or under an open inquiry is revoked (and its buyer told of a refund) — a dispute won restores
   * the money, not the pass; a closed inquiry leaves the pass as it is (revoked, or restored by an admin),
   * also when it was opened and won before the payment was seen to succeed; a donation's change moves the total.
   * `changed`: a refund or dispute was just recorded (otherwise a fulfilment asks).
   */
  async settle(intentId: string, siteUrl: string, changed = false): Promise<LedgerEffects> {
    const row = await this.find(intentId);
    if (!row) return { unknownIntent: intentId };
    if (row.fulfilled !== 1) return {};
    if (row.kind === "donation") return { donationTotalChanged: changed || row.refunded_amount + row.disputed_amount > 0 };
    if (passHold(row) === null) {
      if (row.refunded_amount > 0) await this.tellBuyerPartlyRefunded(row, siteUrl);
      return {};
    }
    const refunded = row.refunded_amount >= row.amount;
    const code = await this.access.codeForPayment(row.id);
    if (!code) return {};
    const revokedNow = !code.revoked;
    if (revokedNow) await this.access.revoke(code.id);
    // Told once per full refund: again for one made after a refund failed, also when the pass was revoked already.
    const email = code.email ?? row.email;
    if (refunded && email) {
      const amount = formatMoney(row.refunded_amount, row.currency);
      await this.mail.queuePassRefunded(row.id, code.code, amount, email, row.site_url ?? siteUrl, row.failed_refund_amount, await this.refundSums(row));
    }
    return revokedNow ? { revokedCodeIds: [code.id] } : {};
  }

  /** A pass that keeps working after part of its price came back: its buyer is told what was returned and what is left. */
  private async tellBuyerPartlyRefunded(row: LedgerRow, siteUrl: string): Promise<void> {
    const code = await this.access.codeForPayment(row.id);
    const email = code?.email ?? row.email;
    if (!code || code.revoked || !email) return;
    await this.mail.queuePassPartlyRefunded(row.id, code.code, await this.refundSums(row), row.refunded_amount, email, row.site_url ?? siteUrl);
  }

  /**
   * What was paid, refunded and is left of a payment, for the buyer's mail. The refund just made is the
   * latest one counted; one made in Stripe's dashboard and known only by the charge's total is the rest.
   */
  private async refundSums(row: LedgerRow): Promise<MailRefundSums> {
    const latest = await this.store.get<{ amount: number }>(
      "SELECT amount FROM refunds WHERE intent_id = ? AND status NOT IN ('failed', 'canceled') ORDER BY created_at DESC, id DESC LIMIT 1",
      row.intent_id,
    );
    const inAll = Math.min(row.refunded_amount, row.amount);
    const now = latest && latest.amount <= inAll ? latest.amount : inAll;
    const money = (minor: number) => formatMoney(minor, row.currency);
    return { paid: money(row.amount), refunded: money(now), refundedInAll: money(inAll), left: money(row.amount - inAll) };
  }

  /** How many passes have been bought (and paid), refunded ones included: a test purchase counts. */
  async passesSold(): Promise<number> {
    const row = await this.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM payment_ledger WHERE kind = 'access' AND fulfilled = 1");
    return Number(row?.n ?? 0);
  }

  /** What was paid for the pass with this code, and when; null for a code no one paid for. */
  async paidForCode(code: string): Promise<MailPaid | null> {
    const row = await this.store.get<{ amount: number; currency: string; created_at: number }>(
      "SELECT l.amount, l.currency, l.created_at FROM payment_ledger l JOIN access_codes c ON c.payment_id = l.id WHERE c.code = ? AND l.fulfilled = 1",
      code,
    );
    return row ? { amount: formatMoney(row.amount, row.currency), paidAt: Number(row.created_at) } : null;
  }

  /**
   * Donations counted so far, less what refunds and disputes took back, one total per currency they were
   * paid in (an event whose currency changed has donations in both), largest first.
   */
  async donationTotals(): Promise<CurrencyAmount[]> {
    return this.store
      .all<CurrencyAmount>(
        `SELECT l.currency, CAST(SUM(d.amount - CASE WHEN d.amount < l.refunded_amount + l.disputed_amount THEN d.amount
           ELSE l.refunded_amount + l.disputed_amount END) AS BIGINT) AS amount
         FROM donations d JOIN payment_ledger l ON l.id = d.payment_id GROUP BY l.currency ORDER BY amount DESC, l.currency`,
      )
      .then((rows) => rows.map((r) => ({ currency: r.currency, amount: Number(r.amount) })));
  }

  /**
   * Every fulfilled purchase and donation (or the one of `intentId`), newest first. A pass's e-mail is the
   * pass's (`passEmailSql`); a donation's is its receipt address, else its donor's (as the Users list shows it).
   */
  async list(intentId: string | null = null): Promise<PaymentRecord[]> {
    return (
      await this.store.all<LedgerRow & { code: string | null; code_revoked: number | null; chat_name: string | null; contact_email: string | null }>(
        `SELECT l.*, c.code, c.revoked AS code_revoked,
           COALESCE(l.username, (SELECT u.username FROM users u WHERE u.access_code_id = c.id ORDER BY u.id DESC LIMIT 1)) AS chat_name,
           COALESCE(${passEmailSql("c", "l")}, (SELECT ${viewerEmailSql("u", "uc", "up")} FROM users u
               LEFT JOIN access_codes uc ON uc.id = u.access_code_id LEFT JOIN payments up ON up.id = uc.payment_id
             WHERE u.id = l.user_id)) AS contact_email
         FROM payment_ledger l LEFT JOIN access_codes c ON c.payment_id = l.id
         WHERE l.fulfilled = 1 AND (CAST(?1 AS TEXT) IS NULL OR l.intent_id = ?1) ORDER BY l.created_at DESC, l.id DESC`,
        intentId,
      )
    ).map((r) => ({
      paymentIntentId: r.intent_id,
      kind: r.kind,
      amount: r.amount,
      currency: r.currency,
      status: ledgerStatus(r),
      refundedAmount: r.refunded_amount,
      disputedAmount: r.disputed_amount,
      failedRefundAmount: r.failed_refund_amount,
      refundFailure: r.refund_failure,
      email: r.contact_email,
      username: r.chat_name,
      code: r.code,
      codeRevoked: r.code_revoked === 1,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  async csv(): Promise<string> {
    const units = (minor: number) => (minor / 100).toFixed(2);
    return toCsv(
      ["payment_intent", "kind", "amount", "currency", "status", "refunded", "disputed", "net", "email", "username", "code", "created_at", "failed_refunds"],
      (await this.list()).map((p) => [
        p.paymentIntentId,
        p.kind,
        units(p.amount),
        p.currency.toUpperCase(),
        p.status,
        units(p.refundedAmount),
        units(p.disputedAmount),
        units(netAmount(p)),
        p.email,
        p.username,
        p.code,
        p.createdAt,
        units(p.failedRefundAmount),
      ]),
    );
  }
}
