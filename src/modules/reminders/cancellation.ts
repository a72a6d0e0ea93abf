import type { Store } from "../../db/store.ts";
import type { Logger } from "../../lib/logger.ts";
import type { SiteAddress } from "../../http/site-address.ts";
import { eventTitle } from "../event-page/facts.ts";
import { eventCancelledMail } from "../mail/event-mails.ts";
import type { MailService } from "../mail/service.ts";
import type { SettingsService } from "../settings/service.ts";
import { startInZone, zoneOf } from "./service.ts";

/** How many passes are read at a time (a run goes on until every buyer is queued). */
const BATCH = 500;

interface BuyerRow {
  id: number;
  code: string;
  email: string;
  device_fingerprint: string | null;
}

/**
 * The e-mail to every buyer with an address when the owner cancels the event: the owner's note, the
 * buyer's code to quote and whom to write to, with the calendar file that takes the entry out of their
 * calendar. Queued once per pass per cancellation (the queue's unique key), so a retry or a second
 * instance sends nothing twice; a revoked (refunded) pass gets none. Unsubscribing from reminders does
 * not stop it: it is about the purchase, not a reminder.
 */
export class CancellationMails {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly mail: MailService,
    private readonly site: SiteAddress,
    private readonly log: Logger,
  ) {}

  /** Queues the mail for every buyer not yet told of this cancellation; returns how many. Nothing unless the event is cancelled. */
  async tellBuyers(): Promise<number> {
    const s = await this.settings.get();
    if (s.cancelledAt === null) return 0;
    const key = `cancelled:${Date.parse(s.cancelledAt)}:`;
    const siteUrl = this.site.url();
    const event = await this.mail.eventDetails();
    const calendar = await this.mail.calendar();
    let queued = 0;
    for (;;) {
      const batch = await this.store.all<BuyerRow>(
        `SELECT c.id, c.code, c.email, c.device_fingerprint FROM access_codes c
         WHERE c.kind = 'SKP' AND c.email IS NOT NULL AND c.email <> '' AND c.revoked = 0
           AND NOT EXISTS (SELECT 1 FROM email_queue q WHERE q.dedupe_key = ? || CAST(c.id AS TEXT))
         ORDER BY c.id LIMIT ?`,
        key,
        BATCH,
      );
      for (const row of batch) {
        const content = eventCancelledMail(
          { title: eventTitle(s.eventTitle), startText: startInZone(s.startDate, zoneOf(row.device_fingerprint)), code: row.code, note: s.cancelNote },
          siteUrl,
          event,
          await this.mail.paidFor(row.code),
        );
        if (await this.mail.enqueue({ to: row.email, ...content, calendar, dedupeKey: `${key}${row.id}` })) queued++;
      }
      if (batch.length < BATCH) break;
    }
    if (queued > 0) this.log.info(`event cancelled: ${queued} buyer${queued === 1 ? "" : "s"} to be told by e-mail`);
    return queued;
  }
}
