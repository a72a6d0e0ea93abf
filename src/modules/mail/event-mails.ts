import { escapeHtml } from "../../lib/html.ts";
import { oneLine } from "../../lib/one-line.ts";
import { codeBlock, enterButton, layout, oneLineEvent, sellerHtml, sellerLines, type MailContent, type MailEvent, type MailPaid } from "./templates.ts";

/** The mails about the event itself, to every buyer: the reminders before the start, and the cancellation. */

/** A reminder before the start: the event, when it starts for the buyer, their code, the way in and how to stop reminders. */
export interface ReminderDetails {
  title: string;
  /** "in 15 minutes", "in 24 hours". */
  startsIn: string;
  /** The start in the buyer's zone, named, or in UTC. */
  startText: string;
  code: string;
  unsubscribeUrl: string;
}

export function reminderMail(given: ReminderDetails, siteUrl: string, event: MailEvent | null = null, paid: MailPaid | null = null): MailContent {
  const reminder = { ...given, title: oneLine(given.title) };
  const seller = oneLineEvent(event);
  const subject = `${reminder.title} starts ${reminder.startsIn}`;
  const text = [
    `${reminder.title} starts ${reminder.startsIn}: ${reminder.startText}.`,
    "",
    `Access code: ${reminder.code}`,
    "",
    `Enter it with a chat username at ${siteUrl}/access`,
    "",
    "The event is attached as a calendar file.",
    "",
    `No more reminders for this pass: ${reminder.unsubscribeUrl}`,
    ...sellerLines(seller, siteUrl, paid ? { paid } : null),
  ].join("\n");
  const html = layout(
    `Starts ${reminder.startsIn}`,
    `<p><strong>${escapeHtml(reminder.title)}</strong> starts ${escapeHtml(reminder.startsIn)}:</p>
<div style="margin:12px 0 20px;padding:14px 16px;border-left:3px solid #dc2626;background:#0a0a0a;font-size:18px;color:#fca5a5;">${escapeHtml(reminder.startText)}</div>
<p>Your access code:</p>${codeBlock(reminder.code)}${enterButton(siteUrl)}
<p style="font-size:13px;color:#a3a3a3;">The event is attached as a calendar file. <a href="${escapeHtml(reminder.unsubscribeUrl)}" style="color:#f87171;">No more reminders for this pass</a>.</p>${sellerHtml(seller, siteUrl, paid ? { paid } : null)}`,
  );
  return { subject, text, html };
}

/** The event called off: what it was, the owner's words, the buyer's code to quote, and whom to write to. */
export interface CancellationDetails {
  title: string;
  /** The start it was due at, in the buyer's zone or in UTC, named. */
  startText: string;
  code: string;
  /** The owner's words ("" for none), shown as they wrote them. */
  note: string;
}

export function eventCancelledMail(given: CancellationDetails, siteUrl: string, event: MailEvent | null = null, paid: MailPaid | null = null): MailContent {
  const details = { ...given, title: oneLine(given.title) };
  const seller = oneLineEvent(event);
  const who = seller?.seller.name || "the organiser";
  const ask = seller?.seller.email
    ? `Questions about your pass or your money? Write to ${who} at ${seller.seller.email} and quote your access code.`
    : `Questions about your pass or your money? Contact ${who} through ${siteUrl}/ and quote your access code.`;
  const subject = `Cancelled: ${details.title}`;
  const noteLines = details.note ? ["", `A word from ${who}:`, ...details.note.split(/\r?\n/).map((line) => `> ${line}`)] : [];
  const text = [
    `${details.title}, due to start ${details.startText}, has been cancelled.`,
    ...noteLines,
    "",
    `Access code: ${details.code}`,
    "",
    ask,
    "",
    "The entry this event's mails added to your calendar is taken out by the attached file.",
    ...sellerLines(seller, siteUrl, paid ? { paid } : null),
  ].join("\n");
  const noteHtml = details.note
    ? `<div style="margin:20px 0;padding:14px 16px;border-left:3px solid #dc2626;background:#0a0a0a;">
<div style="font-size:12px;letter-spacing:2px;color:#a3a3a3;">A WORD FROM ${escapeHtml(who.toUpperCase())}</div>
<div style="font-size:16px;color:#f5f5f5;margin-top:6px;white-space:pre-line;">${escapeHtml(details.note)}</div>
</div>`
    : "";
  const askHtml = seller?.seller.email
    ? `Questions about your pass or your money? Write to ${escapeHtml(who)} at <a href="${escapeHtml(`mailto:${seller.seller.email}`)}" style="color:#f87171;">${escapeHtml(seller.seller.email)}</a> and quote your access code.`
    : `Questions about your pass or your money? Contact ${escapeHtml(who)} through <a href="${escapeHtml(`${siteUrl}/`)}" style="color:#f87171;">${escapeHtml(`${siteUrl}/`)}</a> and quote your access code.`;
  const html = layout(
    "The event has been cancelled",
    `<p><strong>${escapeHtml(details.title)}</strong>, due to start ${escapeHtml(details.startText)}, <strong>has been cancelled</strong>.</p>${noteHtml}
<p>Your access code, to quote:</p>${codeBlock(details.code)}
<p>${askHtml}</p>
<p style="font-size:13px;color:#a3a3a3;">The entry this event's mails added to your calendar is taken out by the attached file.</p>${sellerHtml(seller, siteUrl, paid ? { paid } : null)}`,
  );
  return { subject, text, html };
}
