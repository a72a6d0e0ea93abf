import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../../config.ts";
import type { Logger } from "../../lib/logger.ts";
import { oneLine } from "../../lib/one-line.ts";

export interface OutgoingMail {
  /** The queue row id; names the outbox file. */
  id: number;
  /**
   * The same for every attempt at this queue row. A crash between the server's accepting the message and
   * the queue marking it sent means one resend after restart; the repeated Message-ID lets mail systems
   * and readers recognise it as the same message. The transport adds the sender's domain.
   */
  messageKey: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** An iCalendar file attached as text/calendar (event.ics); null: none. */
  calendar?: string | null;
  /** A one-click unsubscribe address: List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  listUnsubscribe?: string | null;
}

/** What nodemailer is given for a message: its addresses, its parts and the calendar file attached. */
function message(mail: OutgoingMail, config: Config) {
  return {
    from: config.mailFrom,
    to: mail.to,
    // One line whatever was queued: a line break in a subject would begin a header of its own.
    subject: oneLine(mail.subject),
    text: mail.text,
    html: mail.html ?? undefined,
    messageId: messageIdOf(mail, config),
    attachments: mail.calendar ? [{ filename: "event.ics", content: mail.calendar, contentType: "text/calendar; charset=utf-8; method=PUBLISH" }] : undefined,
    headers: mail.listUnsubscribe ? { "List-Unsubscribe": `<${mail.listUnsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : undefined,
  };
}

/** Where mail goes: an SMTP server, or the outbox folder when none is configured. */
export interface MailTransport {
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** `<key@domain of --mail-from>`: one Message-ID per queued message. */
export function messageIdOf(mail: Pick<OutgoingMail, "messageKey">, config: Pick<Config, "mailFrom">): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(config.mailFrom)?.[1] ?? "dreadcast.invalid";
  return `<${mail.messageKey}@${domain}>`;
}

export function outboxDir(dataDir: string): string {
  return join(dataDir, "outbox");
}

export function createMailTransport(config: Config, log: Logger): MailTransport {
  return config.smtpUrl ? smtpTransport(config) : outboxTransport(config, log);
}

function smtpTransport(config: Config): MailTransport {
  const transporter = nodemailer.createTransport({
    url: config.smtpUrl!,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    description: `SMTP ${new URL(config.smtpUrl!).host}`,
    async send(mail) {
      await transporter.sendMail(message(mail, config));
    },
    close: () => transporter.close(),
  };
}

function outboxTransport(config: Config, log: Logger): MailTransport {
  const dir = outboxDir(config.dataDir);
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    description: `outbox ${dir}`,
    async send(mail) {
      const info = await transporter.sendMail(message(mail, config));
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.id}.eml`);
      writeFileSync(file, info.message as Buffer);
      log.info(`e-mail to ${mail.to} "${mail.subject}" saved to ${file}`);
    },
    close: () => transporter.close(),
  };
}
