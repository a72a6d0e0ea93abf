import { escapeHtml } from "../../lib/html.ts";
import { oneLine } from "../../lib/one-line.ts";

/** The e-mails the event sends: dark, simple HTML with a plain-text twin. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export function layout(title: string, bodyHtml: string, footer = "You received this because this address was used for an access pass."): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#0a0a0a;color:#e5e5e5;font-family:Georgia,'Times New Roman',serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#0a0a0a;padding:32px 0;"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#141414;border:1px solid #7f1d1d;">
<tr><td style="padding:28px 32px 8px;text-align:center;">
<div style="font-size:28px;letter-spacing:4px;color:#dc2626;font-weight:bold;">DREADCAST</div>
<div style="font-size:13px;color:#a3a3a3;letter-spacing:2px;margin-top:4px;">${escapeHtml(title)}</div>
</td></tr>
<tr><td style="padding:16px 32px 32px;font-size:16px;line-height:1.6;">${bodyHtml}</td></tr>
</table>
<div style="font-size:12px;color:#737373;margin-top:16px;">${escapeHtml(footer)}</div>
</td></tr></table>
</body></html>`;
}

export function codeBlock(code: string): string {
  return `<div style="margin:20px 0;padding:16px;background:#000;border:1px dashed #dc2626;text-align:center;font-family:'Courier New',monospace;font-size:22px;letter-spacing:2px;color:#fca5a5;">${escapeHtml(code)}</div>`;
}

export function enterButton(siteUrl: string): string {
  const href = escapeHtml(`${siteUrl}/access`);
  return `<p style="text-align:center;margin:28px 0 8px;"><a href="${href}" style="display:inline-block;background:#b91c1c;color:#fff;text-decoration:none;padding:12px 28px;letter-spacing:2px;font-weight:bold;">ENTER THE DARKNESS</a></p>
<p style="text-align:center;font-size:13px;color:#a3a3a3;">or open <a href="${href}" style="color:#f87171;">${href}</a></p>`;
}

/** Who runs the event, for buyers to write to (set in the admin's Settings). */
export interface MailContact {
  /** "" when the organiser gave no name. */
  name: string;
  email: string;
}

/** The event a pass is for, as the code e-mail tells the buyer. */
export interface MailEvent {
  title: string;
  /** ISO 8601 */
  startDate: string;
  /** null while the organiser has set no contact address. */
  contact: MailContact | null;
  /** ISO 8601: the live night is over and the pass is for its replay, open until then (absent while the night is ahead or on). */
  replayUntil?: string | null;
  /** Who sells the pass: every mail to a buyer names them, how to reach them and their legal pages. */
  seller: MailSeller;
}

/** The organiser as the seller of the pass; each "" while not set. */
export interface MailSeller {
  name: string;
  email: string;
  privacyUrl: string;
  termsUrl: string;
}

/** What a buyer paid for their pass, formatted ("£7.50"), and when (epoch ms). */
export interface MailPaid {
  amount: string;
  paidAt: number;
}

/** What was paid for a pass, what has been refunded of it so far and what is left, each formatted. */
export interface MailRefundSums {
  paid: string;
  /** This refund. */
  refunded: string;
  /** Every refund of the payment so far, this one included. */
  refundedInAll: string;
  left: string;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * "Saturday 31 October 2026, 20:00 UTC". The server does not know the buyer's time zone, so the time is
 * given in UTC with the zone named; the site's countdown shows it in the buyer's own.
 */
export function eventStartUtc(iso: string): string {
  const d = new Date(iso);
  const hhmm = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hhmm} UTC`;
}

function eventLines(event: MailEvent, siteUrl: string): string[] {
  if (event.replayUntil) return [`Event: ${event.title}`, `The live night is over: this pass is for its replay, which you can watch until ${eventStartUtc(event.replayUntil)}.`];
  return [`Event: ${event.title}`, `Starts: ${eventStartUtc(event.startDate)}`, `(the countdown at ${siteUrl}/ shows the start in your own time zone)`];
}

function eventHtml(event: MailEvent, siteUrl: string): string {
  const home = escapeHtml(`${siteUrl}/`);
  if (event.replayUntil) {
    return `<div style="margin:20px 0;padding:14px 16px;border-left:3px solid #dc2626;background:#0a0a0a;">
<div style="font-size:12px;letter-spacing:2px;color:#a3a3a3;">THE REPLAY</div>
<div style="font-size:18px;color:#f5f5f5;font-weight:bold;margin-top:2px;">${escapeHtml(event.title)}</div>
<div style="font-size:16px;color:#fca5a5;margin-top:4px;">Open until ${escapeHtml(eventStartUtc(event.replayUntil))}</div>
<div style="font-size:13px;color:#a3a3a3;margin-top:6px;">The live night is over: this pass is for its replay, with the chat as it happened.</div>
</div>`;
  }
  return `<div style="margin:20px 0;padding:14px 16px;border-left:3px solid #dc2626;background:#0a0a0a;">
<div style="font-size:12px;letter-spacing:2px;color:#a3a3a3;">THE EVENT</div>
<div style="font-size:18px;color:#f5f5f5;font-weight:bold;margin-top:2px;">${escapeHtml(event.title)}</div>
<div style="font-size:16px;color:#fca5a5;margin-top:4px;">${escapeHtml(eventStartUtc(event.startDate))}</div>
<div style="font-size:13px;color:#a3a3a3;margin-top:6px;">The countdown at <a href="${home}" style="color:#f87171;">${home}</a> shows the start in your own time zone.</div>
</div>`;
}

function contactLine(contact: MailContact): string {
  return `Questions, or watching on a new device? Write to ${contact.name || "the organiser"} at ${contact.email} and quote your access code.`;
}

function contactHtml(contact: MailContact): string {
  const href = escapeHtml(`mailto:${contact.email}`);
  return `<p style="font-size:14px;color:#a3a3a3;">Questions, or watching on a new device? Write to ${escapeHtml(contact.name || "the organiser")} at <a href="${href}" style="color:#f87171;">${escapeHtml(contact.email)}</a> and quote your access code.</p>`;
}

/**
 * The event's one-line fields as one line each, whatever was stored (a value saved before line breaks were
 * refused): a line break in them would draw lines of its own into the message, a fake header among them.
 */
export function oneLineEvent(event: MailEvent | null): MailEvent | null {
  if (!event) return null;
  const contact = event.contact ? { name: oneLine(event.contact.name), email: oneLine(event.contact.email) } : null;
  const seller = { name: oneLine(event.seller.name), email: oneLine(event.seller.email), privacyUrl: oneLine(event.seller.privacyUrl), termsUrl: oneLine(event.seller.termsUrl) };
  return { ...event, title: oneLine(event.title), contact, seller };
}

/** "3 December 2026" (UTC, as the server knows no buyer's zone). */
export function dayUtc(at: number): string {
  const d = new Date(at);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

const NO_SELLER: MailSeller = { name: "", email: "", privacyUrl: "", termsUrl: "" };

/** The money lines of a mail: what was paid and, for a refund, what came back and what is left. */
export type MailSums = { paid: MailPaid } | { refund: MailRefundSums } | null;

function sumLines(sums: MailSums): [label: string, value: string][] {
  if (!sums) return [];
  if ("paid" in sums) return [["Paid", `${sums.paid.amount} on ${dayUtc(sums.paid.paidAt)}`]];
  const r = sums.refund;
  return [
    ["Paid", r.paid],
    ["Refunded now", r.refunded],
    ...(r.refundedInAll !== r.refunded ? ([["Refunded in all", r.refundedInAll]] as [string, string][]) : []),
    ["Left paid", r.left],
  ];
}

/**
 * The lines that close every mail to a buyer: what was paid (or refunded and left), who sells the pass and
 * how to reach them, and the organiser's privacy policy and terms, each where it is set.
 */
export function sellerLines(event: MailEvent | null, siteUrl: string, sums: MailSums): string[] {
  const seller = event?.seller ?? NO_SELLER;
  return [
    "",
    "--",
    ...sumLines(sums).map(([label, value]) => `${label}: ${value}`),
    `Sold by: ${seller.name || (event ? `the organiser of ${event.title}` : "the organiser of this event")}`,
    `Contact: ${seller.email || `${siteUrl}/`}`,
    ...(seller.privacyUrl ? [`Privacy policy: ${seller.privacyUrl}`] : []),
    ...(seller.termsUrl ? [`Terms of service: ${seller.termsUrl}`] : []),
  ];
}

export function sellerHtml(event: MailEvent | null, siteUrl: string, sums: MailSums): string {
  const seller = event?.seller ?? NO_SELLER;
  const link = (href: string, text: string) => `<a href="${escapeHtml(href)}" style="color:#f87171;">${escapeHtml(text)}</a>`;
  const rows = sumLines(sums).map(([label, value]) => `<div>${escapeHtml(label)}: <strong style="color:#e5e5e5;">${escapeHtml(value)}</strong></div>`);
  const who = seller.name || (event ? `the organiser of ${event.title}` : "the organiser of this event");
  const contact = seller.email ? link(`mailto:${seller.email}`, seller.email) : link(`${siteUrl}/`, `${siteUrl}/`);
  const legal = [seller.privacyUrl ? link(seller.privacyUrl, "Privacy policy") : "", seller.termsUrl ? link(seller.termsUrl, "Terms of service") : ""].filter(Boolean);
  return `<div style="margin-top:28px;padding-top:14px;border-top:1px solid #3f1d1d;font-size:13px;line-height:1.7;color:#a3a3a3;">${rows.join("")}
<div>Sold by <strong style="color:#e5e5e5;">${escapeHtml(who)}</strong> · ${contact}</div>${legal.length > 0 ? `\n<div>${legal.join(" · ")}</div>` : ""}</div>`;
}

/** The code e-mail: the code, and (when known) the event's title, its start in UTC and the organiser's contact. */
export function accessCodeMail(code: string, siteUrl: string, given: MailEvent | null = null, paid: MailPaid | null = null): MailContent {
  const subject = "Your DREADCAST access code";
  const event = oneLineEvent(given);
  const contact = event?.contact ?? null;
  const text = [
    event?.replayUntil ? "Your access to the replay is secured." : "Your access to the livestream is secured.",
    "",
    ...(event ? [...eventLines(event, siteUrl), ""] : []),
    `Access code: ${code}`,
    "",
    "Keep this code safe. It can only be used on one device.",
    "",
    `Enter it with a chat username at ${siteUrl}/access`,
    ...(contact ? ["", contactLine(contact)] : []),
    ...sellerLines(event, siteUrl, paid ? { paid } : null),
  ].join("\n");
  const html = layout(
    "Your access is secured",
    `<p>The wait is nearly over. Here is your access code:</p>${codeBlock(code)}
<p><strong>Keep this code safe. It can only be used on one device.</strong></p>${event ? eventHtml(event, siteUrl) : ""}
<p>${event?.replayUntil ? "Enter it together with a chat username to watch the replay." : "Enter it together with a chat username when the event begins."}</p>${enterButton(siteUrl)}${contact ? contactHtml(contact) : ""}${sellerHtml(event, siteUrl, paid ? { paid } : null)}`,
  );
  return { subject, text, html };
}

export function lostCodeMail(codes: string[], siteUrl: string, given: MailEvent | null = null, paid: MailPaid | null = null): MailContent {
  const event = oneLineEvent(given);
  const subject = "Your DREADCAST access code";
  const plural = codes.length > 1;
  const text = [
    `You asked for the access code${plural ? "s" : ""} bought with this address:`,
    "",
    ...codes.map((c) => `  ${c}`),
    "",
    "Keep your code safe. Each code can only be used on one device.",
    "",
    `Enter it with a chat username at ${siteUrl}/access`,
    "",
    "If you did not ask for this, you can ignore this e-mail.",
    ...sellerLines(event, siteUrl, paid ? { paid } : null),
  ].join("\n");
  const html = layout(
    "Your lost code, recovered",
    `<p>You asked for the access code${plural ? "s" : ""} bought with this address:</p>${codes.map(codeBlock).join("")}
<p>Keep your code safe. Each code can only be used on one device.</p>${enterButton(siteUrl)}
<p style="font-size:13px;color:#a3a3a3;">If you did not ask for this, you can ignore this e-mail.</p>${sellerHtml(event, siteUrl, paid ? { paid } : null)}`,
  );
  return { subject, text, html };
}
