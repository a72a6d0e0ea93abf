import { ROLE_LABELS, type Role } from "../../contracts/team.ts";
import { escapeHtml } from "../../lib/html.ts";
import { layout, type MailContent } from "../mail/templates.ts";

const TEAM_FOOTER = "You received this because this address belongs to a member of this event's admin team.";

function teamMail(subject: string, lines: string[]): MailContent {
  return {
    subject,
    text: `${lines.join("\n\n")}\n`,
    html: layout(subject, lines.map((l) => `<p>${escapeHtml(l)}</p>`).join(""), TEAM_FOOTER),
  };
}

export function inviteMail(inviteUrl: string, role: Role, by: string): MailContent {
  const m = teamMail("You are invited to the admin team", [
    `${by} invited you to join the admin team as ${ROLE_LABELS[role]}.`,
    `Choose your username and password here (the link works once, for 48 hours): ${inviteUrl}`,
    "If you did not expect this, ignore this message.",
  ]);
  return m;
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
