import type { ServerEvent, StreamSettingsUpdate } from "../../contracts/chat.ts";
import { formatMoney } from "../../contracts/money.ts";
import type { SendPath } from "./send-path.ts";
import type { TimeoutList } from "./timeouts.ts";

/** A donation the payments side has counted (once, after its intent succeeded). Money in minor units. */
export interface CountedDonation {
  userId: number | null;
  username: string;
  amount: number;
  currency: string;
  /** All counted donations, this one included. */
  total: number;
  goal: number;
}

/** Where the meter reads the donation total and the goal (pence). */
export interface DonationSettings {
  get(): Promise<{ donationGoal: number }>;
  donationTotal(): Promise<number>;
}

/** The donation meter every viewer sees (progress toward the goal), and the chat line each donation makes. */
export class DonationMeter {
  /** The meter as every viewer last saw it; a joining socket gets it without a query. */
  private shown = { current: 0, goal: 0 };

  constructor(
    private readonly settings: DonationSettings,
    private readonly timeouts: TimeoutList,
    private readonly send: Pick<SendPath, "broadcast" | "deliver" | "postLine">,
  ) {}

  /** The meter as it stands, for a socket that has just joined. */
  event(): ServerEvent {
    return { type: "donation_update", current: this.shown.current, goal: this.shown.goal };
  }

  /** The meter as it now stands, read elsewhere (at start, or from another instance's viewers' update). */
  show(current: number, goal: number): void {
    this.shown = { current, goal };
  }

  /** Once per counted donation: a donation line and the new progress. */
  async announce(donation: CountedDonation): Promise<void> {
    this.shown = { current: donation.total, goal: donation.goal };
    // A timed-out donor's money counts, but no donation line goes to the chat.
    if (this.timeouts.secondsLeft({ userId: donation.userId, username: donation.username, accessCodeId: null }) > 0) {
      this.send.broadcast({ type: "donation_update", current: donation.total, goal: donation.goal });
      return;
    }
    await this.send.postLine({
      userId: donation.userId,
      username: donation.username,
      text: `donated ${formatMoney(donation.amount, donation.currency)}`,
      type: "donation",
      donationPence: donation.amount,
      donationCurrency: donation.currency,
    });
    this.send.broadcast({ type: "donation_update", current: donation.total, goal: donation.goal });
  }

  /** The total read again (after a refund or dispute, or a gap in a cluster): to everyone, or to this instance's viewers alone. */
  async refresh(everywhere: boolean): Promise<void> {
    this.shown = { current: await this.settings.donationTotal(), goal: (await this.settings.get()).donationGoal };
    const event: ServerEvent = { type: "donation_update", ...this.shown };
    if (everywhere) this.send.broadcast(event);
    else this.send.deliver(event);
  }

  /** The admin saved the settings: title, embed, goal… to everyone watching, then the meter toward the new goal. */
  async settingsSaved(settings: StreamSettingsUpdate): Promise<void> {
    const current = await this.settings.donationTotal();
    this.shown = { current, goal: settings.donationGoal };
    this.send.broadcast({ type: "settings_update", settings });
    this.send.broadcast({ type: "donation_update", current, goal: settings.donationGoal });
  }
}
