import { escapeHtml } from "../../lib/html.ts";
import { codeBlock, enterButton, layout, oneLineEvent, sellerHtml, sellerLines, type MailContent, type MailEvent, type MailPaid, type MailRefundSums } from "./templates.ts";

/** The mails about a pass's money after the sale: a refund in full, in part, and one the card did not take. */

export function passRefundedMail(code: string, amount: string, siteUrl: string, given: MailEvent | null = null, sums: MailRefundSums | null = null): MailContent {
  const event = oneLineEvent(given);
  const subject = "Your DREADCAST access pass has been refunded";
  const text = [
    `Your access pass has been refunded: ${amount} is on its way back to your card.`,
    "",
    `Access code: ${code}`,
    "",
    "This code no longer works: it cannot be used to enter the livestream.",
    "",
    `If you want to watch after all, you can buy a new pass at ${siteUrl}/`,
    ...sellerLines(event, siteUrl, sums ? { refund: sums } : null),
  ].join("\n");
  const html = layout(
    "Your pass has been refunded",
    `<p>Your access pass has been refunded: <strong>${escapeHtml(amount)}</strong> is on its way back to your card.</p>${codeBlock(code)}
<p><strong>This code no longer works:</strong> it cannot be used to enter the livestream.</p>
<p style="font-size:13px;color:#a3a3a3;">If you want to watch after all, you can buy a new pass at <a href="${escapeHtml(`${siteUrl}/`)}" style="color:#f87171;">${escapeHtml(`${siteUrl}/`)}</a>.</p>${sellerHtml(event, siteUrl, sums ? { refund: sums } : null)}`,
  );
  return { subject, text, html };
}

/** Part of a pass's price refunded: what came back, what stays paid, and that the code keeps working. */
export function passPartlyRefundedMail(code: string, sums: MailRefundSums, siteUrl: string, given: MailEvent | null = null): MailContent {
  const event = oneLineEvent(given);
  const subject = "Part of your DREADCAST access pass has been refunded";
  const text = [
    `${sums.refunded} of the ${sums.paid} you paid for your access pass has been refunded: it is on its way back to your card. ${sums.left} stays paid.`,
    "",
    `Access code: ${code}`,
    "",
    "Your code keeps working: you can still enter the livestream with it.",
    "",
    `Enter it with a chat username at ${siteUrl}/access`,
    ...sellerLines(event, siteUrl, { refund: sums }),
  ].join("\n");
  const html = layout(
    "Part of your pass has been refunded",
    `<p><strong>${escapeHtml(sums.refunded)}</strong> of the ${escapeHtml(sums.paid)} you paid for your access pass has been refunded: it is on its way back to your card. <strong>${escapeHtml(sums.left)}</strong> stays paid.</p>${codeBlock(code)}
<p><strong>Your code keeps working:</strong> you can still enter the livestream with it.</p>${enterButton(siteUrl)}${sellerHtml(event, siteUrl, { refund: sums })}`,
  );
  return { subject, text, html };
}

/** Why a refund failed, in the buyer's words (Stripe's `failure_reason`). */
const REFUND_FAILURES_FOR_BUYER: Record<string, string> = {
  expired_or_canceled_card: "the card has expired or was canceled",
  lost_or_stolen_card: "the card was reported lost or stolen",
  declined: "the card's bank declined it",
};

export function passRefundFailedMail(
  code: string,
  amount: string,
  failureReason: string | null,
  siteUrl: string,
  given: MailEvent | null = null,
  paid: MailPaid | null = null,
): MailContent {
  const event = oneLineEvent(given);
  const why = REFUND_FAILURES_FOR_BUYER[failureReason ?? ""] ?? "the card's bank could not accept it";
  const subject = "Your DREADCAST refund did not go through";
  const text = [
    `The refund of ${amount} for your access pass could not be paid back to your card: ${why}. The money has not reached you.`,
    "",
    `Access code: ${code}`,
    "",
    "The organiser has been told. To get your money back another way, contact them and quote your access code.",
    "",
    siteUrl,
    ...sellerLines(event, siteUrl, paid ? { paid } : null),
  ].join("\n");
  const html = layout(
    "Your refund did not go through",
    `<p>The refund of <strong>${escapeHtml(amount)}</strong> for your access pass could not be paid back to your card: ${escapeHtml(why)}. <strong>The money has not reached you.</strong></p>${codeBlock(code)}
<p>The organiser has been told. To get your money back another way, contact them and quote your access code.</p>
<p style="font-size:13px;color:#a3a3a3;"><a href="${escapeHtml(siteUrl)}" style="color:#f87171;">${escapeHtml(siteUrl)}</a></p>${sellerHtml(event, siteUrl, paid ? { paid } : null)}`,
  );
  return { subject, text, html };
}
