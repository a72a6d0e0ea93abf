import type { Database } from "bun:sqlite";
import type { DonationReporter } from "./frames.ts";
import type { ChatIdentity } from "./hub.ts";

/** What the reporter needs of the payment provider: the intent's status as the provider sees it. */
export interface IntentStatusSource {
  retrieveIntent(id: string): Promise<{ status: string } | null>;
}

const NOT_FOUND = "Donation not found.";

/**
 * A `donation` frame: the viewer says they paid an intent. Nothing is counted here — the payments side
 * counts a donation once, when it learns the intent succeeded (demo card form, Stripe webhook), and the
 * hub announces it then. This only checks the report: the payment must be a donation by this viewer,
 * and it must have succeeded.
 */
export class PaymentDonationReporter implements DonationReporter {
  constructor(
    private readonly db: Database,
    private readonly provider: IntentStatusSource,
  ) {}

  async reportDonation(paymentIntentId: string, viewer: ChatIdentity): Promise<string | null> {
    if (viewer.userId === null) return NOT_FOUND;
    const row = this.db
      .query<{ kind: string; user_id: number | null; status: string }, [string]>("SELECT kind, user_id, status FROM payments WHERE intent_id = ?")
      .get(paymentIntentId);
    if (!row || row.kind !== "donation" || row.user_id !== viewer.userId) return NOT_FOUND;
    if (row.status === "succeeded") return null;
    const intent = await this.provider.retrieveIntent(paymentIntentId);
    return intent?.status === "succeeded" ? null : "That payment has not succeeded.";
  }
}
