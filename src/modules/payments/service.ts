import { SALES_CLOSED_MESSAGE } from "../../contracts/ready-to-sell.ts";
import type { Store } from "../../db/store.ts";
import type Stripe from "stripe";
import type { Config } from "../../config.ts";
import { donationAmountProblem } from "../../contracts/money.ts";
import { ACCESS_PRODUCT, type DonationIntentSetup, type PaymentConfig, type PaymentIntentSetup, type PaymentIntentState } from "../../contracts/payments.ts";
import { HttpError, badRequest, conflict, forbidden, notFound } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { sha256Hex } from "../../lib/tokens.ts";
import type { AccessCodeRecord, AccessService } from "../access/service.ts";
import type { ViewerSession, ViewerSessionService } from "../access/sessions.ts";
import type { MailService } from "../mail/service.ts";
import type { SettingsService } from "../settings/service.ts";
import { DemoPaymentProvider } from "./demo-provider.ts";
import type { PaymentLedger } from "./ledger.ts";
import { INTENT_APP_TAG, type PaymentKind, type PaymentProvider, type ProviderIntent } from "./provider.ts";
import { intentFromStripe } from "./stripe-provider.ts";
import { LEDGER_EVENTS, checkIntentObject, parseLedgerEvent } from "./webhook-events.ts";
import { INTENT_EVENTS, INTENT_ID, RECONCILED_EVENTS, type Applied, type CountedDonation, type PaymentRow, type Reconciled } from "./payment-shapes.ts";

export type { CountedDonation, Reconciled } from "./payment-shapes.ts";

/**
 * Access purchases and donations. Every path that learns an intent succeeded (the buyer's page, the
 * Stripe webhook, the demo card form) goes through one synchronous `applyIntent`, inside one
 * transaction, so the code is issued and a donation counted exactly once whatever the order.
 */
export class PaymentService {
  private readonly donationListeners = new Set<(donation: CountedDonation) => void>();

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    readonly provider: PaymentProvider,
    private readonly stripe: Stripe | null,
    private readonly access: AccessService,
    private readonly sessions: ViewerSessionService,
    private readonly mail: MailService,
    private readonly settings: SettingsService,
    private readonly ledger: PaymentLedger,
    private readonly log: Logger,
    /** The seed of a paid pass's code, derived from its payment under the sealing key: a restore gives it again. */
    private readonly passCodeSeed: (intentId: string) => Uint8Array,
  ) {}

  async paymentConfig(): Promise<PaymentConfig> {
    const { accessPrice, currency } = await this.settings.get();
    return {
      mode: this.provider.mode,
      publishableKey: this.provider.mode === "stripe" ? this.config.stripePublishableKey : null,
      accessPrice,
      currency,
    };
  }

  /** Called with each donation once it is counted; returns an unsubscribe function. */
  onDonation(listener: (donation: CountedDonation) => void): () => void {
    this.donationListeners.add(listener);
    return () => this.donationListeners.delete(listener);
  }

  /**
   * An access pass at the event's price and currency, whatever amount the client sent; refused (409) while
   * passes are not on sale (real card payments before the organiser's legal links are set).
   */
  async createAccessIntent(email: string | undefined, siteUrl: string): Promise<PaymentIntentSetup> {
    if ((await this.settings.salesClosed()) !== null) throw conflict(SALES_CLOSED_MESSAGE);
    const { accessPrice, currency } = await this.settings.get();
    const intent = await this.provider.createIntent({
      amount: accessPrice,
      currency,
      kind: "access",
      description: "DREADCAST livestream access pass",
      metadata: { app: INTENT_APP_TAG, kind: "access", product: ACCESS_PRODUCT },
      email,
    });
    await this.insertPayment(intent.id, "access", accessPrice, currency, { email: email ?? null, siteUrl });
    return { ok: true, clientSecret: intent.clientSecret, paymentIntentId: intent.id };
  }

  async createDonationIntent(amount: number, viewer: ViewerSession, siteUrl: string): Promise<DonationIntentSetup> {
    if (await this.sessions.isBanned(viewer.username, viewer.accessCodeId)) throw forbidden("You have been banned from this event.");
    const { currency } = await this.settings.get();
    const problem = donationAmountProblem(amount, currency);
    if (problem) throw badRequest(problem);
    const intent = await this.provider.createIntent({
      amount,
      currency,
      kind: "donation",
      description: "DREADCAST donation",
      metadata: {
        app: INTENT_APP_TAG,
        kind: "donation",
        username: viewer.username,
        userId: String(viewer.userId),
        // A reference to the session, not the session id itself: that is a credential.
        viewerSession: sha256Hex(viewer.sessionId).slice(0, 24),
      },
    });
    await this.insertPayment(intent.id, "donation", amount, currency, {
      viewerSessionId: viewer.sessionId,
      userId: viewer.userId,
      username: viewer.username,
      siteUrl,
    });
    return { ok: true, clientSecret: intent.clientSecret, paymentIntentId: intent.id };
  }

  /**
   * The code for a paid access intent: asks the provider first, then records everything in one
   * transaction. Asking again (or concurrently) returns the same code.
   */
  async fulfilAccessPurchase(intentId: string, siteUrl: string): Promise<AccessCodeRecord> {
    if (!INTENT_ID.test(intentId)) throw notFound("Payment not found");
    const row = await this.findPayment(intentId);
    if (row && row.kind !== "access") throw badRequest("This payment is not an access purchase");
    const existing = row ? await this.access.codeForPayment(row.id) : null;
    if (existing) return existing;

    const intent = await this.provider.retrieveIntent(intentId);
    if (!intent || (!row && intent.metadata.app !== INTENT_APP_TAG)) throw notFound("Payment not found");
    if (!row && intent.metadata.kind !== "access") throw badRequest("This payment is not an access purchase");
    const applied = await this.store.tx(() => this.applyIntent(intent, siteUrl));
    if (applied.code) return applied.code;
    if (intent.status === "succeeded") throw new HttpError(409, "This payment could not be matched to an access pass. Please contact support.");
    throw new HttpError(402, "Payment has not been completed.");
  }

  /**
   * A viewer reports a donation they paid: asks the provider and counts it (once) if it succeeded, so a
   * donation counts even where no webhook reaches us. Returns the intent's status, or null when the
   * payment is not a donation by this user.
   */
  async confirmDonation(intentId: string, userId: number, siteUrl: string): Promise<string | null> {
    const row = INTENT_ID.test(intentId) ? await this.findPayment(intentId) : null;
    if (!row || row.kind !== "donation" || row.user_id !== userId) return null;
    if (row.status === "succeeded") return "succeeded";
    const intent = await this.provider.retrieveIntent(intentId);
    if (!intent) return null;
    const applied = await this.store.tx(() => this.applyIntent(intent, siteUrl));
    this.announce(applied);
    return intent.status;
  }

  /** The demo card form: pays the intent behind a client secret and fulfils it like a webhook would. */
  async confirmDemoPayment(clientSecret: string, cardNumber: string, siteUrl: string, email?: string): Promise<PaymentIntentState> {
    const intent = await this.demoProvider().confirm(clientSecret, cardNumber, email);
    const applied = await this.store.tx(() => this.applyIntent(intent, siteUrl));
    this.announce(applied);
    return { id: intent.id, status: intent.status };
  }

  async demoIntentState(clientSecret: string): Promise<PaymentIntentState> {
    const intent = await this.demoProvider().findByClientSecret(clientSecret);
    return { id: intent.id, status: intent.status };
  }

  /**
   * A Stripe webhook delivery: signature checked on the raw body, each event handled once. Events may
   * arrive twice or out of order; a succeeded intent never goes back to an earlier state.
   */
  async handleWebhook(rawBody: string, signature: string | null, siteUrl: string): Promise<{ received: true; duplicate: boolean }> {
    if (!this.stripe || !this.config.stripeWebhookSecret) throw notFound("Webhooks are not configured");
    let event: Stripe.Event;
    try {
      event = await this.stripe.webhooks.constructEventAsync(rawBody, signature ?? "", this.config.stripeWebhookSecret);
    } catch {
      throw badRequest("Invalid webhook signature");
    }
    return { received: true, duplicate: (await this.applyStripeEvent(event, siteUrl)).duplicate };
  }

  /**
   * After a restore from a backup older than the last sale: every payment that succeeded since `since`
   * (epoch ms) and every refund and dispute made or changed since, read back from Stripe's events (kept
   * there 30 days) and applied as their webhooks would have been, once each, oldest first; a pass brought
   * back this way has the code it had (derived again from its payment), and its buyer gets it by e-mail.
   * In demo mode the provider's records are this database's own: a payment they hold as paid and not yet
   * fulfilled is fulfilled.
   */
  async reconcile(since: number, siteUrl: string): Promise<Reconciled> {
    const before = await this.fulfilledCounts();
    let read = 0;
    let known = 0;
    if (this.stripe) {
      const events: Stripe.Event[] = [];
      const list = this.stripe.events.list({ created: { gte: Math.floor(since / 1000) }, types: [...RECONCILED_EVENTS], limit: 100 });
      for await (const event of list) events.push(event);
      // Stripe lists the newest first.
      for (const event of events.reverse()) {
        read++;
        try {
          if ((await this.applyStripeEvent(event, siteUrl)).duplicate) known++;
        } catch (error) {
          // One event that cannot be read (as a webhook's would be answered 400) does not hold back the others.
          if (!(error instanceof HttpError) || error.status >= 500) throw error;
          this.log.warn(`reconciliation: Stripe event ${event.id} (${event.type}) skipped: ${error.message}`);
        }
      }
    } else {
      const paid = await this.store.all<{ id: string }>(
        `SELECT d.id FROM demo_payment_intents d LEFT JOIN payments p ON p.intent_id = d.id
           WHERE d.status = 'succeeded' AND (p.id IS NULL OR p.fulfilled = 0) ORDER BY d.created_at`,
      );
      for (const { id } of paid) {
        const intent = await this.provider.retrieveIntent(id);
        if (!intent) continue;
        read++;
        this.announce(await this.store.tx(() => this.applyIntent(intent, siteUrl)));
      }
    }
    const after = await this.fulfilledCounts();
    return { read, known, passes: after.access - before.access, donations: after.donation - before.donation };
  }

  private async fulfilledCounts(): Promise<Record<PaymentKind, number>> {
    const rows = await this.store.all<{ kind: PaymentKind; n: number }>("SELECT kind, COUNT(*) AS n FROM payments WHERE fulfilled = 1 GROUP BY kind");
    const count = (kind: PaymentKind) => Number(rows.find((r) => r.kind === kind)?.n ?? 0);
    return { access: count("access"), donation: count("donation") };
  }

  /**
   * A Stripe event, from a signed webhook or read back from Stripe: recorded by its id, so that it is
   * applied once however often and by whichever way it comes, and applied in one transaction.
   */
  private async applyStripeEvent(event: Stripe.Event, siteUrl: string): Promise<Applied & { duplicate: boolean }> {
    const intent = INTENT_EVENTS.has(event.type) ? intentFromStripe(checkIntentObject(event.type, event.data?.object)) : null;
    const ledgerEvent = LEDGER_EVENTS.has(event.type) ? parseLedgerEvent(event.type, event.data?.object, event.created) : null;
    const outcome = await this.store.tx(async (): Promise<Applied & { duplicate: boolean }> => {
      const fresh = (await this.store.run("INSERT INTO webhook_events (id, type, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING", event.id, event.type, Date.now()))
        .changes;
      if (fresh === 0) return { duplicate: true };
      if (ledgerEvent) return { duplicate: false, effects: await this.ledger.applyEvent(ledgerEvent, siteUrl) };
      return { duplicate: false, ...(intent ? await this.applyIntent(intent, siteUrl) : {}) };
    });
    this.announce(outcome);
    return outcome;
  }

  private demoProvider(): DemoPaymentProvider {
    if (!(this.provider instanceof DemoPaymentProvider)) throw notFound();
    return this.provider;
  }

  private announce(applied: Applied): void {
    if (applied.effects) this.ledger.announce(applied.effects);
    if (!applied.donation) return;
    for (const listener of this.donationListeners) {
      try {
        listener(applied.donation);
      } catch (error) {
        this.log.error("donation listener failed", error);
      }
    }
  }

  private async findPayment(intentId: string): Promise<PaymentRow | null> {
    return (await this.store.get<PaymentRow>("SELECT * FROM payments WHERE intent_id = ?", intentId)) ?? null;
  }

  private async insertPayment(
    intentId: string,
    kind: PaymentKind,
    amount: number,
    currency: string,
    extra: { email?: string | null; viewerSessionId?: string; userId?: number | null; username?: string | null; siteUrl?: string | null; status?: string },
  ): Promise<void> {
    const now = Date.now();
    await this.store.run(
      `INSERT INTO payments (intent_id, kind, amount, currency, status, email, viewer_session_id, user_id, username, site_url, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (intent_id) DO NOTHING`,
      intentId,
      kind,
      amount,
      currency,
      extra.status ?? "requires_payment_method",
      extra.email ?? null,
      extra.viewerSessionId ?? null,
      extra.userId ?? null,
      extra.username ?? null,
      extra.siteUrl ?? null,
      now,
      now,
    );
  }

  /**
   * Records what the provider says about an intent and fulfils it once it succeeded. Call inside a
   * transaction: it holds the intent's lock, so two paths applying one intent at once take turns.
   */
  private async applyIntent(intent: ProviderIntent, siteUrl: string): Promise<Applied> {
    await this.store.lock(`payment:${intent.id}`);
    let row = await this.findPayment(intent.id);
    if (!row) {
      const kind = intent.metadata.kind;
      if (intent.metadata.app !== INTENT_APP_TAG || (kind !== "access" && kind !== "donation")) return {};
      const userId = Number(intent.metadata.userId);
      const knownUser = Number.isInteger(userId) && (await this.store.get("SELECT 1 AS one FROM users WHERE id = ?", userId)) !== null;
      // An access pass is owed at the event's price whatever the intent says; a donation is what was given.
      const { accessPrice, currency } = await this.settings.get();
      const owed = kind === "access" ? { amount: accessPrice, currency } : { amount: intent.amount, currency: intent.currency };
      await this.insertPayment(intent.id, kind, owed.amount, owed.currency, {
        email: intent.email,
        userId: knownUser ? userId : null,
        username: intent.metadata.username ?? null,
        siteUrl,
      });
      row = (await this.findPayment(intent.id))!;
    }
    const status = row.status === "succeeded" ? "succeeded" : intent.status;
    await this.store.run("UPDATE payments SET status = ?, email = COALESCE(email, ?), updated_at = ? WHERE id = ?", status, intent.email, Date.now(), row.id);
    if (status !== "succeeded") return {};
    if (intent.currency !== row.currency || intent.amount < row.amount) {
      this.log.error(`payment ${intent.id} paid ${intent.amount} ${intent.currency}, expected ${row.amount} ${row.currency}; not fulfilled`);
      return {};
    }
    await this.store.run("UPDATE payments SET fulfilled = 1 WHERE id = ?", row.id);
    const site = this.config.publicUrl ?? row.site_url ?? siteUrl;
    const applied: Applied = row.kind === "access" ? { code: await this.fulfilAccess(row, intent, site) } : { donation: await this.countDonation(row, intent) };
    // A refund or dispute may have come before the success: it takes effect now.
    const effects = await this.ledger.settle(intent.id, site);
    if (effects.revokedCodeIds && applied.code) applied.code = { ...applied.code, revoked: true };
    return { ...applied, effects };
  }

  private async fulfilAccess(row: PaymentRow, intent: ProviderIntent, siteUrl: string): Promise<AccessCodeRecord> {
    const email = row.email ?? intent.email;
    let code = (await this.access.codeForPayment(row.id)) ?? (await this.access.issueAccessCode("SKP", { email, paymentId: row.id, seed: this.passCodeSeed(row.intent_id) }));
    if (email && !code.email) {
      await this.store.run("UPDATE access_codes SET email = ? WHERE id = ? AND email IS NULL", email, code.id);
      code = { ...code, email };
    }
    if (code.email) await this.mail.queueAccessCode(code.id, code.code, code.email, siteUrl);
    return code;
  }

  private async countDonation(row: PaymentRow, intent: ProviderIntent): Promise<CountedDonation | undefined> {
    const username = row.username ?? intent.metadata.username ?? "Anonymous";
    const inserted = (
      await this.store.run(
        "INSERT INTO donations (payment_id, user_id, username, amount, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (payment_id) DO NOTHING",
        row.id,
        row.user_id,
        username,
        intent.amount,
        Date.now(),
      )
    ).changes;
    if (inserted === 0) return undefined;
    return {
      paymentIntentId: intent.id,
      amount: intent.amount,
      currency: row.currency,
      username,
      userId: row.user_id,
      total: await this.settings.donationTotal(),
      goal: (await this.settings.get()).donationGoal,
    };
  }
}
