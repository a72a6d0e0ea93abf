import type { TeamMember } from "@contracts/team";
import { IconFact } from "@/components/admin/icon-fact";
import { LogOutIcon, MailIcon, ShieldIcon, UserCheckIcon, UserXIcon } from "@/components/ui/icons";
import { ClockIcon } from "@/components/ui/stream-icons";
import { useMediaQuery } from "@/hooks/use-media-query";
import { formatDateTime } from "@/lib/dates";
import { RoleBadge } from "./role-choices";
import { TableWrap } from "@/components/admin/table-wrap";

export type MemberAction = "role" | "sessions" | "remove";

function TwoFactorBadge({ on }: { on: boolean }) {
  return on ? <span className="badge badge-on">2FA on</span> : <span className="badge badge-warn">No 2FA</span>;
}

function lastSeen(member: TeamMember): string {
  return member.lastSeenAt ? formatDateTime(member.lastSeenAt) : "Never signed in";
}

function MemberName({ member }: { member: TeamMember }) {
  return (
    <span className="team-member-name">
      <span className="user-name">{member.username}</span>
      {member.isYou ? <span className="badge team-you">You</span> : null}
    </span>
  );
}

/** Change role, end sessions and remove: icon buttons in the table, labelled ones on cards. */
function MemberActions({ member, compact, onAction }: { member: TeamMember; compact: boolean; onAction: (member: TeamMember, action: MemberAction) => void }) {
  const buttons: { action: MemberAction; label: string; Icon: typeof UserCheckIcon; hidden?: boolean }[] = [
    { action: "role", label: "Change role", Icon: UserCheckIcon },
    { action: "sessions", label: member.isYou ? "End your other sessions" : "End sessions", Icon: LogOutIcon },
    { action: "remove", label: "Remove", Icon: UserXIcon, hidden: member.isYou },
  ];
  return (
    <span className={compact ? "row-actions" : "record-card-actions"}>
      {buttons
        .filter((b) => !b.hidden)
        .map(({ action, label, Icon }) => (
          <button
            key={action}
            type="button"
            className={`btn btn-outline btn-sm${compact ? " btn-icon" : ""}${action === "remove" ? " team-remove" : ""}`}
            onClick={() => onAction(member, action)}
            aria-label={`${label}: ${member.username}`}
            title={compact ? label : undefined}
          >
            <Icon />
            {compact ? null : label}
          </button>
        ))}
    </span>
  );
}

/** The team's members with their role, two-factor state and last visit, and what an owner can do to each. */
export function MembersList({ members, onAction }: { members: TeamMember[]; onAction: (member: TeamMember, action: MemberAction) => void }) {
  const asCards = !useMediaQuery("(min-width: 900px)");
  if (asCards) {
    return (
      <ul className="record-list" aria-label="Team members">
        {members.map((m) => (
          <li key={m.id} className="record-card">
            <div className="record-card-head">
              <MemberName member={m} />
              <RoleBadge role={m.role} />
            </div>
            <dl className="team-facts">
              <IconFact icon={<MailIcon aria-hidden="true" />} label="E-mail">
                {m.email}
              </IconFact>
              <IconFact icon={<ShieldIcon aria-hidden="true" />} label="Two-factor sign-in">
                <TwoFactorBadge on={m.twoFactor} />
              </IconFact>
              <IconFact icon={<ClockIcon aria-hidden="true" />} label="Last seen">
                {m.lastSeenAt ? `Last seen ${lastSeen(m)}` : lastSeen(m)}
              </IconFact>
            </dl>
            <MemberActions member={m} compact={false} onAction={onAction} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <TableWrap label="Team members">
      <table className="data-table team-table">
        <caption className="sr-only">Team members</caption>
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Role</th>
            <th scope="col">Two-factor</th>
            <th scope="col">Last seen</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.id}>
              <td>
                <MemberName member={m} />
                <span className="cell-sub team-email">{m.email}</span>
              </td>
              <td>
                <RoleBadge role={m.role} />
              </td>
              <td>
                <TwoFactorBadge on={m.twoFactor} />
              </td>
              <td className="cell-date cell-muted">{lastSeen(m)}</td>
              <td className="cell-actions">
                <MemberActions member={m} compact onAction={onAction} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
