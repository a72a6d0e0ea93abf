import { randomBytes } from "node:crypto";
import type { Store } from "../../db/store.ts";
import type { Logger } from "../../lib/logger.ts";
import { eventTitle } from "../event-page/facts.ts";
import { oneLine } from "../../lib/one-line.ts";
import type { MailService } from "../mail/service.ts";
import type { SiteAddress } from "../../http/site-address.ts";
import { reminderMail } from "../mail/event-mails.ts";
import { eventStartUtc } from "../mail/templates.ts";
import type { SettingsService } from "../settings/service.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The reminders, each sent once the start is this near (and not after it), to passes bought before then. */
export const REMINDERS = [
  { name: "24h", before: 24 * HOUR },
  { name: "15m", before: 15 * MINUTE },
] as const;

/** How often the schedule is looked at: a reminder goes out at most this late. */
export const REMINDER_TICK_MS = 30_000;

/** How many passes are read at a time (a run goes on until every one due is queued). */
const BATCH = 500;

interface ReminderRow {
  id: number;
  code: string;
  email: string;
  device_fingerprint: string | null;
  reminder_token: string | null;
}

/** "in 24 hours", "in 15 minutes": how far the start is at the time of sending. */
export function startsIn(ms: number): string {
  if (ms >= 90 * MINUTE) {
    const hours = Math.round(ms / HOUR);
    return `in ${hours} hours`;
  }
  const minutes = Math.max(1, Math.round(ms / MINUTE));
  return minutes === 1 ? "in 1 minute" : `in ${minutes} minutes`;
}

/** The start in the buyer's time zone (their device said which), named; in UTC where it is not known. */
export function startInZone(iso: string, zone: string | null): string {
  if (zone) {
    try {
      const text = new Intl.DateTimeFormat("en-GB", {
        timeZone: zone,
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(new Date(iso));
      return `${text.replace(" at ", ", ")} (${zone} time)`;
    } catch {
      // Not a zone this runtime knows: UTC, named.
    }
  }
  return eventStartUtc(iso);
}

export function zoneOf(fingerprint: string | null): string | null {
  try {
    const zone = (JSON.parse(fingerprint ?? "null") as { timezone?: unknown } | null)?.timezone;
    return typeof zone === "string" && zone.length > 0 && zone.length <= 100 ? zone : null;
  } catch {
    return null;
  }
}

export type UnsubscribeOutcome = "unsubscribed" | "already" | "unknown";

/**
 * E-mails to every buyer with an address 24 hours and 15 minutes before the start. Each is queued with a
 * dedupe key of the pass, the reminder and the start, so the queue's unique key makes it once per buyer
 * per start date whatever runs it (a restart, a cluster's instances at once); a moved start has new keys,
 * so its reminders come again. A revoked pass (refunded, disputed) or one unsubscribed gets none.
 */
export class ReminderService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly mail: MailService,
    private readonly site: SiteAddress,
    private readonly log: Logger,
  ) {}

  /** Queues the reminders due at `now`; returns how many. */
  async runDue(now = Date.now()): Promise<number> {
    const s = await this.settings.get();
    // Nothing to remind of once the night is over, or called off.
    if (!s.remindersEnabled || s.cancelledAt !== null || s.endedAt !== null) return 0;
    const start = Date.parse(s.startDate);
    if (now >= start) return 0;
    // The nearest reminder due: a start that comes within 15 minutes sends that one alone, not both.
    const due = [...REMINDERS].reverse().find((r) => now >= start - r.before);
    if (!due) return 0;
    let queued = 0;
    for (;;) {
      const batch = await this.recipients(due.name, start, start - due.before);
      for (const row of batch) {
        if (await this.queue(row, due.name, start, now, s.eventTitle)) queued++;
      }
      if (batch.length < BATCH) return queued;
    }
  }

  /** Passes with an address, bought before the reminder's time, not revoked or unsubscribed, not yet reminded. */
  private recipients(name: string, start: number, boughtBefore: number): Promise<ReminderRow[]> {
    return this.store.all<ReminderRow>(
      `SELECT c.id, c.code, c.email, c.device_fingerprint, c.reminder_token FROM access_codes c
       WHERE c.kind = 'SKP' AND c.email IS NOT NULL AND c.email <> '' AND c.revoked = 0 AND c.reminders_off = 0 AND c.created_at < ?
         AND NOT EXISTS (SELECT 1 FROM email_queue q WHERE q.dedupe_key = ? || CAST(c.id AS TEXT))
       ORDER BY c.id LIMIT ?`,
      boughtBefore,
      `reminder:${name}:${start}:`,
      BATCH,
    );
  }

  private async queue(row: ReminderRow, name: string, start: number, now: number, title: string): Promise<boolean> {
    const token = row.reminder_token ?? (await this.tokenFor(row.id));
    const siteUrl = this.site.url();
    const unsubscribeUrl = `${siteUrl}/unsubscribe?token=${token}`;
    const content = reminderMail(
      {
        title: eventTitle(title),
        startsIn: startsIn(start - now),
        startText: startInZone(new Date(start).toISOString(), zoneOf(row.device_fingerprint)),
        code: row.code,
        unsubscribeUrl,
      },
      siteUrl,
      await this.mail.eventDetails(),
      await this.mail.paidFor(row.code),
    );
    return this.mail.enqueue({
      to: row.email,
      ...content,
      calendar: await this.mail.calendar(),
      listUnsubscribe: unsubscribeUrl,
      dedupeKey: `reminder:${name}:${start}:${row.id}`,
    });
  }

  /** The pass's unsubscribe secret, made once (another instance may make it at the same moment: the first kept). */
  private async tokenFor(codeId: number): Promise<string> {
    await this.store.run("UPDATE access_codes SET reminder_token = ? WHERE id = ? AND reminder_token IS NULL", randomBytes(24).toString("base64url"), codeId);
    return (await this.store.get<{ reminder_token: string }>("SELECT reminder_token FROM access_codes WHERE id = ?", codeId))!.reminder_token;
  }

  /** Stops the reminders of the pass a link's token names; a token that names none changes nothing. */
  async unsubscribe(token: string): Promise<UnsubscribeOutcome> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return "unknown";
    const row = await this.store.get<{ id: number; reminders_off: number }>("SELECT id, reminders_off FROM access_codes WHERE reminder_token = ?", token);
    if (!row) return "unknown";
    if (row.reminders_off === 1) return "already";
    await this.store.run("UPDATE access_codes SET reminders_off = 1 WHERE id = ?", row.id);
    this.log.info(`reminders stopped for pass ${row.id}`);
    return "unsubscribed";
  }

  /** Whether a token names a pass, and whether its reminders are still on (the page asking to confirm says so before anything changes). */
  async state(token: string): Promise<"on" | "off" | "unknown"> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return "unknown";
    const row = await this.store.get<{ reminders_off: number }>("SELECT reminders_off FROM access_codes WHERE reminder_token = ?", token);
    if (!row) return "unknown";
    return row.reminders_off === 1 ? "off" : "on";
  }

  /** What the unsubscribe page names to lead back: the site, the event and who runs it. */
  async pageDetails(): Promise<{ siteUrl: string; title: string; organizerName: string; contactEmail: string }> {
    const s = await this.settings.get();
    return { siteUrl: this.site.url(), title: eventTitle(s.eventTitle), organizerName: oneLine(s.organizerName), contactEmail: oneLine(s.contactEmail) };
  }
}
