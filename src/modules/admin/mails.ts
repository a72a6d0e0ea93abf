import { ROLE_LABELS, type Role } from "../../contracts/team.ts";
import { escapeHtml } from "../../lib/html.ts";
import { oneLine } from "../../lib/one-line.ts";
import { layout, type MailContent } from "../mail/templates.ts";

const TEAM_FOOTER = "You received this because this address belongs to a member of this event's admin team.";

function teamMail(subject: string, lines: string[]): MailContent {
  return {
    subject,
    text: `${lines.join("\n\n")}\n`,
    html: layout(subject, lines.map((l) => `<p>${escapeHtml(l)}</p>`).join(""), TEAM_FOOTER),
  };
}

/** The event an invite is to: its title and who runs it ("" while the organiser gave no name). */
export interface InviteEvent {
  title: string;
  organizerName: string;
}

/** To someone not on the team yet: who invited them, to which event, as what, and the link (a real one in the HTML part). */
export function inviteMail(inviteUrl: string, role: Role, by: string, given: InviteEvent): MailContent {
  const event = { title: oneLine(given.title), organizerName: oneLine(given.organizerName) };
  const runBy = event.organizerName ? `, run by ${event.organizerName}` : "";
  const subject = `You are invited to the admin team of ${event.title}`;
  const invited = `${by} invited you to join the admin team of ${event.title}${runBy}, as ${ROLE_LABELS[role]}.`;
  const choose = "Choose your username and password here (the link works once, for 48 hours):";
  const ignore = "If you did not expect this, ignore this message: nothing happens until the link is used.";
  const footer = `You received this because a member of the admin team of ${event.title} invited this address.`;
  const href = escapeHtml(inviteUrl);
  return {
    subject,
    text: `${[invited, `${choose} ${inviteUrl}`, ignore].join("\n\n")}\n`,
    html: layout(
      subject,
      `<p>${escapeHtml(invited)}</p>
<p>${escapeHtml(choose)}</p>
<p style="text-align:center;margin:24px 0 8px;"><a href="${href}" style="display:inline-block;background:#b91c1c;color:#fff;text-decoration:none;padding:12px 28px;letter-spacing:2px;font-weight:bold;">JOIN THE TEAM</a></p>
<p style="text-align:center;font-size:13px;color:#a3a3a3;word-break:break-all;">or open <a href="${href}" style="color:#f87171;">${href}</a></p>
<p>${escapeHtml(ignore)}</p>`,
      footer,
    ),
  };
}

/** To a member whose sign-in changed: their two factors or their password. */
export function securityChangeMail(username: string, what: string, siteUrl: string): MailContent {
  return teamMail("Your admin sign-in changed", [
    `Hello ${username}: ${what}`,
    `If this was not you, sign in at ${siteUrl}/admin and end your other sessions, or ask an owner to remove the account at once.`,
  ]);
}

/** To the owners when someone joins or leaves the team. */
export function teamChangeMail(what: string, siteUrl: string): MailContent {
  return teamMail("Your admin team changed", [what, `The team and its audit log: ${siteUrl}/admin/team`]);
}
