import type { PaymentService } from "../payments/service.ts";
import type { DonationReporter } from "./frames.ts";
import type { ChatIdentity } from "./connection.ts";

const NOT_FOUND = "Donation not found.";

/**
 * A `donation` frame: the viewer says they paid an intent. The payments side asks the provider and
 * counts the donation once if it succeeded (the demo card form and the Stripe webhook count it too);
 * the hub announces it when it is counted, whichever path got there first.
 */
export class PaymentDonationReporter implements DonationReporter {
  constructor(
    private readonly payments: PaymentService,
    private readonly siteUrl: () => string,
  ) {}

  async reportDonation(paymentIntentId: string, viewer: ChatIdentity): Promise<string | null> {
    if (viewer.userId === null) return NOT_FOUND;
    const status = await this.payments.confirmDonation(paymentIntentId, viewer.userId, this.siteUrl());
    if (status === null) return NOT_FOUND;
    return status === "succeeded" ? null : "That payment has not succeeded.";
  }
}
