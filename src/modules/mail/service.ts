import type { Store } from "../../db/store.ts";
import { LastingFailure } from "../../lib/lasting-failure.ts";
import type { Logger } from "../../lib/logger.ts";
import { passPartlyRefundedMail, passRefundedMail, passRefundFailedMail } from "./refund-mails.ts";
import { accessCodeMail, lostCodeMail, type MailEvent, type MailPaid, type MailRefundSums } from "./templates.ts";
import type { MailTransport } from "./transport.ts";

export interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** An iCalendar file the message carries (text/calendar, event.ics). */
  calendar?: string | null;
  /** The one-click unsubscribe address (List-Unsubscribe with List-Unsubscribe-Post, RFC 8058). */
  listUnsubscribe?: string | null;
  /** One message per key, ever: a second enqueue with the same key is ignored. */
  dedupeKey?: string | null;
}

export interface MailQueueOptions {
  /** How often a worker sharing the queue with others looks for what they queued (a sole worker is told instead). */
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  batchSize: number;
}

/** The Message-ID's local part for a queue row: fixed by the row, so every attempt at it carries the same one. */
export function mailMessageKey(id: number, createdAt: number): string {
  return `dreadcast.${id}.${createdAt.toString(36)}`;
}

const DEFAULTS: MailQueueOptions = { pollMs: 1000, retryBaseMs: 1000, retryMaxMs: 10 * 60_000, maxAttempts: 30, batchSize: 50 };

/** How long a worker holds the messages it took before another may take them (it died mid-send): past the transport's timeouts. */
const CLAIM_MS = 60_000;
/** A sole worker with nothing due looks again this long after, whatever it was told (a row put in by hand, a clock moved). */
const IDLE_RECHECK_MS = 60_000;
/** A message queued inside a transaction is looked for again this soon, in case the nudge came before the commit. */
const AFTER_COMMIT_MS = 1000;

interface QueueRow {
  id: number;
  created_at: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  calendar: string | null;
  list_unsubscribe: string | null;
  attempts: number;
}

/**
 * Outgoing mail goes through a queue in the database; a worker sends what is due and retries failures with
 * exponential backoff, so a purchase never fails (or loses its e-mail) because the mail server is down.
 * A worker first takes the messages it will send (`claimed_until`, with `FOR UPDATE SKIP LOCKED` on
 * PostgreSQL), so several instances on one database never send the same message twice; a message held by
 * a worker that died is taken again when the claim runs out.
 */
export class MailService {
  private readonly options: MailQueueOptions;
  /** Started and not paused. */
  private started = false;
  /** The only worker on its queue: it wakes when a message is queued here or falls due, and polls for nothing. */
  private sole = true;
  /** Where workers share the queue: the poll for what the others queued. */
  private poll: ReturnType<typeof setInterval> | null = null;
  /** A sole worker's next look, at the earliest time a message falls due (or IDLE_RECHECK_MS). */
  private wake: { timer: ReturnType<typeof setTimeout>; at: number } | null = null;
  private running: Promise<number> | null = null;
  private rerun = false;
  /** The queue out of reach (the database away): said once, not on every tick, and again when it is back. */
  private readonly queueFailure: LastingFailure;

  constructor(
    private readonly store: Store,
    private readonly transport: MailTransport,
    private readonly log: Logger,
    options: Partial<MailQueueOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.queueFailure = new LastingFailure(log, "e-mail queue not read", "e-mail queue read again");
  }

  get description(): string {
    return this.transport.description;
  }

  /** Part of the caller's transaction when there is one; the worker is nudged on the next turn, after it. */
  async enqueue(mail: QueuedMail): Promise<boolean> {
    const now = Date.now();
    const result = await this.store.run(
      `INSERT INTO email_queue (dedupe_key, to_address, subject, text_body, html_body, calendar, list_unsubscribe, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
      mail.dedupeKey ?? null,
      mail.to,
      mail.subject,
      mail.text,
      mail.html ?? null,
      mail.calendar ?? null,
      mail.listUnsubscribe ?? null,
      now,
      now,
    );
    if (result.changes > 0) {
      this.kick();
      if (this.store.inTransaction()) this.wakeIn(AFTER_COMMIT_MS);
    }
    return result.changes > 0;
  }

  /** The event the passes are for (title, start, organiser's contact); null until the settings are wired in. */
  eventDetails: () => Promise<MailEvent | null> = async () => null;

  /** The settings tell this once they are read: the code e-mail names the event, its start and the organiser's contact. */
  setEventDetails(provider: () => Promise<MailEvent | null>): void {
    this.eventDetails = provider;
  }

  /** What was paid for the pass with this code (null for a code no one paid for: an admin's, a test code); null until the payments are wired in. */
  paidFor: (code: string) => Promise<MailPaid | null> = async () => null;

  setPaidFor(provider: (code: string) => Promise<MailPaid | null>): void {
    this.paidFor = provider;
  }

  /** The event's calendar file (null until the event pages are wired in): the code e-mail and the reminders carry it. */
  calendar: () => Promise<string | null> = async () => null;

  setCalendar(provider: () => Promise<string | null>): void {
    this.calendar = provider;
  }

  /** The code e-mail, with the event's .ics; sent once per code unless a distinct dedupe key (an admin's resend) is given. */
  async queueAccessCode(codeId: number, code: string, to: string, siteUrl: string, dedupeKey = `access-code:${codeId}`): Promise<boolean> {
    return this.enqueue({ to, ...accessCodeMail(code, siteUrl, await this.eventDetails(), await this.paidFor(code)), calendar: await this.calendar(), dedupeKey });
  }

  /** The codes bought with an address; what was paid is named when there is one code (several have a payment each). */
  async queueLostCodes(codes: string[], to: string, siteUrl: string): Promise<boolean> {
    const paid = codes.length === 1 ? await this.paidFor(codes[0]!) : null;
    return this.enqueue({ to, ...lostCodeMail(codes, siteUrl, await this.eventDetails(), paid) });
  }

  /**
   * Tells the buyer their pass was refunded and no longer works: once per payment, and once more after each
   * refund that failed (`failedBefore`, the payment's failed refunds so far: a pass restored and refunded again).
   */
  async queuePassRefunded(paymentId: number, code: string, amount: string, to: string, siteUrl: string, failedBefore = 0, sums: MailRefundSums | null = null): Promise<boolean> {
    const dedupeKey = failedBefore > 0 ? `pass-refunded:${paymentId}:after-${failedBefore}` : `pass-refunded:${paymentId}`;
    return this.enqueue({ to, ...passRefundedMail(code, amount, siteUrl, await this.eventDetails(), sums), dedupeKey });
  }

  /**
   * Tells the buyer part of their pass's price came back and the pass keeps working: once for each amount
   * refunded in all (`refundedInAll`, minor units), so each partial refund is told once however often it is seen.
   */
  async queuePassPartlyRefunded(paymentId: number, code: string, sums: MailRefundSums, refundedInAll: number, to: string, siteUrl: string): Promise<boolean> {
    return this.enqueue({ to, ...passPartlyRefundedMail(code, sums, siteUrl, await this.eventDetails()), dedupeKey: `pass-partly-refunded:${paymentId}:${refundedInAll}` });
  }

  /** Tells a buyer who was told their pass was refunded (in full or in part) that a refund of it failed; once per refund. False when they were never told. */
  async queuePassRefundFailed(paymentId: number, refundId: string, code: string, amount: string, failureReason: string | null, to: string, siteUrl: string): Promise<boolean> {
    const told = await this.store.get(
      "SELECT 1 AS told FROM email_queue WHERE dedupe_key = ? OR dedupe_key LIKE ? OR dedupe_key LIKE ?",
      `pass-refunded:${paymentId}`,
      `pass-refunded:${paymentId}:%`,
      `pass-partly-refunded:${paymentId}:%`,
    );
    if (!told) return false;
    const content = passRefundFailedMail(code, amount, failureReason, siteUrl, await this.eventDetails(), await this.paidFor(code));
    return this.enqueue({ to, ...content, dedupeKey: `pass-refund-failed:${refundId}` });
  }

  /**
   * Starts the worker. `soleWorker`: no other process sends from this queue (one server serves an event,
   * on SQLite or PostgreSQL), so claims left by an earlier run that was killed are released at once;
   * where several workers share the queue, a dead worker's claims run out after CLAIM_MS instead.
   */
  start(soleWorker = true): void {
    if (this.started) return;
    this.started = true;
    this.sole = soleWorker;
    if (soleWorker) void this.store.run("UPDATE email_queue SET claimed_until = 0 WHERE claimed_until > 0").catch(() => {});
    else this.poll = setInterval(() => this.kick(), this.options.pollMs);
    this.kick();
  }

  /** Stops taking messages from the queue (another instance of the cluster sends them now); `start` resumes. */
  async pause(): Promise<void> {
    this.started = false;
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    if (this.wake) clearTimeout(this.wake.timer);
    this.wake = null;
    await this.running;
  }

  async stop(): Promise<void> {
    await this.pause();
    this.transport.close();
  }

  /** Runs the worker now (or right after the current run). */
  kick(): void {
    if (!this.started) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    // Stopped in the meantime (shutdown closes the database right after): nothing to do. Not part of
    // the transaction that queued the message, if one did: the worker reads the queue once it committed.
    this.store.outside(() =>
      setTimeout(() => {
        if (this.started) void this.processDue();
      }, 0),
    );
  }

  /** A sole worker's next look in `ms` at the latest (an earlier one already set stands). */
  private wakeIn(ms: number): void {
    if (!this.started || !this.sole) return;
    const at = Date.now() + Math.max(0, ms);
    if (this.wake && this.wake.at <= at) return;
    if (this.wake) clearTimeout(this.wake.timer);
    const timer = this.store.outside(() =>
      setTimeout(() => {
        this.wake = null;
        this.kick();
      }, at - Date.now()),
    );
    this.wake = { timer, at };
  }

  /** After a sole worker's run: its next look when the earliest pending message falls due (or its claim runs out). */
  private async scheduleNext(): Promise<void> {
    if (!this.started || !this.sole) return;
    let next: number | null;
    try {
      const row = await this.store.get<{ due: number | null }>(
        "SELECT MIN(CASE WHEN claimed_until > next_attempt_at THEN claimed_until ELSE next_attempt_at END) AS due FROM email_queue WHERE status = 'pending'",
      );
      next = row?.due == null ? null : Number(row.due);
    } catch {
      // The queue out of reach (said by the run): looked at again as soon as a retry would be.
      next = Date.now() + this.options.retryBaseMs;
    }
    // Never sooner than a poll would have looked: what a run left for later (the mail server away) waits that long.
    this.wakeIn(next === null ? IDLE_RECHECK_MS : Math.min(IDLE_RECHECK_MS, Math.max(this.options.pollMs, next - Date.now())));
  }

  /** Sends every message that is due; one run at a time. Returns how many went out. */
  processDue(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.sendDue()
      .then(async (sent) => {
        if (!this.rerun) await this.scheduleNext();
        return sent;
      })
      .finally(() => {
        this.running = null;
        if (this.rerun && this.started) {
          this.rerun = false;
          this.kick();
        }
      });
    return this.running;
  }

  async counts(): Promise<{ pending: number; sent: number; failed: number }> {
    const rows = await this.store.all<{ status: string; n: number }>("SELECT status, COUNT(*) AS n FROM email_queue GROUP BY status");
    const counts = { pending: 0, sent: 0, failed: 0 };
    for (const row of rows) counts[row.status as keyof typeof counts] = row.n;
    return counts;
  }

  /** Takes the messages due now for this worker: another worker skips them until the claim runs out. */
  private async claimDue(): Promise<QueueRow[]> {
    const now = Date.now();
    const lock = this.store.engine === "postgres" ? "FOR UPDATE SKIP LOCKED" : "";
    const rows = await this.store.all<QueueRow>(
      `UPDATE email_queue SET claimed_until = ?
       WHERE id IN (SELECT id FROM email_queue WHERE status = 'pending' AND next_attempt_at <= ? AND claimed_until <= ?
                    ORDER BY next_attempt_at, id LIMIT ? ${lock})
       RETURNING id, created_at, to_address, subject, text_body, html_body, calendar, list_unsubscribe, attempts`,
      now + CLAIM_MS,
      now,
      now,
      this.options.batchSize,
    );
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Gives back what was taken but not tried (the mail server went away). */
  private async release(rows: QueueRow[]): Promise<void> {
    for (const row of rows) await this.store.run("UPDATE email_queue SET claimed_until = 0 WHERE id = ?", row.id);
  }

  private async sendDue(): Promise<number> {
    let due: QueueRow[];
    try {
      due = await this.claimDue();
    } catch (error) {
      this.queueFailure.failed(error);
      return 0;
    }
    this.queueFailure.succeeded();
    let sent = 0;
    for (const row of due) {
      try {
        await this.transport.send({
          id: row.id,
          messageKey: mailMessageKey(row.id, row.created_at),
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          calendar: row.calendar,
          listUnsubscribe: row.list_unsubscribe,
        });
      } catch (error) {
        await this.recordFailure(row, error).catch(() => {});
        // The server is likely down: leave the rest for the next tick instead of failing each in turn.
        await this.release(due.slice(due.indexOf(row) + 1)).catch(() => {});
        break;
      }
      try {
        await this.store.run("UPDATE email_queue SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL, claimed_until = 0 WHERE id = ?", Date.now(), row.id);
      } catch (error) {
        // Sent, but the database went away before it was marked: not a failure of the mail server. The
        // rest stay claimed until the claim runs out; this one may then go again, under the same Message-ID.
        this.queueFailure.failed(error);
        break;
      }
      sent++;
    }
    return sent;
  }

  private async recordFailure(row: QueueRow, error: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const message = error instanceof Error ? error.message : String(error);
    const giveUp = attempts >= this.options.maxAttempts;
    const delay = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** (attempts - 1));
    await this.store.run(
      "UPDATE email_queue SET attempts = ?, last_error = ?, next_attempt_at = ?, status = ?, claimed_until = 0 WHERE id = ?",
      attempts,
      message.slice(0, 500),
      Date.now() + delay,
      giveUp ? "failed" : "pending",
      row.id,
    );
    if (giveUp) this.log.error(`gave up sending e-mail ${row.id} to ${row.to_address} after ${attempts} attempts`, error);
    else this.log.warn(`e-mail ${row.id} to ${row.to_address} not sent (attempt ${attempts}), retrying in ${Math.round(delay / 1000)} s: ${message}`);
  }
}
