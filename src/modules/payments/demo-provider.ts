import type { Store } from "../../db/store.ts";
import { CARD_DECLINED_MESSAGE, DEMO_CARD_DECLINED, DEMO_CARD_SUCCESS } from "../../contracts/payments.ts";
import { HttpError, badRequest, notFound } from "../../lib/errors.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";
import type { CreateIntentRequest, PaymentProvider, ProviderIntent, ProviderRefund } from "./provider.ts";

interface DemoIntentRow {
  id: string;
  client_secret: string;
  amount: number;
  currency: string;
  status: string;
  metadata: string;
  email: string | null;
}

function toIntent(row: DemoIntentRow): ProviderIntent {
  return { id: row.id, status: row.status, amount: row.amount, currency: row.currency, metadata: JSON.parse(row.metadata) as Record<string, string>, email: row.email };
}

/** No real money: intents live in SQLite and only the test cards work. Used when no Stripe keys are set. */
export class DemoPaymentProvider implements PaymentProvider {
  readonly mode = "demo" as const;

  constructor(private readonly store: Store) {}

  async createIntent(request: CreateIntentRequest): Promise<{ id: string; clientSecret: string }> {
    const id = `pi_demo_${randomToken(12)}`;
    const clientSecret = `${id}_secret_${randomToken(12)}`;
    const now = Date.now();
    await this.store.run(
      `INSERT INTO demo_payment_intents (id, client_secret, amount, currency, status, metadata, email, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'requires_payment_method', ?, ?, ?, ?)`,
      id,
      clientSecret,
      request.amount,
      request.currency,
      JSON.stringify(request.metadata),
      request.email ?? null,
      now,
      now,
    );
    return { id, clientSecret };
  }

  async retrieveIntent(id: string): Promise<ProviderIntent | null> {
    const row = await this.store.get<DemoIntentRow>("SELECT * FROM demo_payment_intents WHERE id = ?", id);
    return row ? toIntent(row) : null;
  }

  /** No money to return: the refund is recorded at once, its id fixed by the idempotency key. */
  async refund(_intentId: string, amount: number, idempotencyKey: string): Promise<ProviderRefund> {
    // Only this app refunds a demo payment, so the ledger's own refunds are the whole story.
    return {
      id: `re_demo_${sha256Hex(idempotencyKey).slice(0, 24)}`,
      amount,
      status: "succeeded",
      created: Math.floor(Date.now() / 1000),
      chargeRefunded: null,
    };
  }

  async findByClientSecret(clientSecret: string): Promise<ProviderIntent> {
    const row = await this.store.get<DemoIntentRow>("SELECT * FROM demo_payment_intents WHERE client_secret = ?", clientSecret);
    if (!row) throw notFound("Payment not found");
    return toIntent(row);
  }

  /** Pays with a test card: 4242… succeeds, 4000 0000 0000 0002 is declined, anything else is refused. */
  async confirm(clientSecret: string, cardNumber: string, email?: string): Promise<ProviderIntent> {
    const intent = await this.findByClientSecret(clientSecret);
    if (intent.status === "succeeded") return intent;
    const digits = cardNumber.replace(/[\s-]/g, "");
    if (digits === DEMO_CARD_SUCCESS) {
      // Like Stripe's receipt_email at confirmation: the buyer's address, unless one was given at creation.
      if (email && !intent.email) await this.store.run("UPDATE demo_payment_intents SET email = ? WHERE id = ?", email, intent.id);
      return this.setStatus({ ...intent, email: intent.email ?? email ?? null }, "succeeded");
    }
    if (digits === DEMO_CARD_DECLINED) {
      await this.setStatus(intent, "requires_payment_method");
      throw new HttpError(402, CARD_DECLINED_MESSAGE);
    }
    throw badRequest("Demo mode takes only the test card 4242 4242 4242 4242.");
  }

  private async setStatus(intent: ProviderIntent, status: string): Promise<ProviderIntent> {
    await this.store.run("UPDATE demo_payment_intents SET status = ?, updated_at = ? WHERE id = ?", status, Date.now(), intent.id);
    return { ...intent, status };
  }
}
