import type { ModerationAction, ModerationLogEntry } from "@contracts/moderation";
import { formatDateTime } from "@/lib/dates";
import { TableWrap } from "@/components/admin/table-wrap";

export const ACTION_LABELS: Record<ModerationAction, string> = {
  delete: "Deleted",
  pin: "Pinned",
  unpin: "Unpinned",
  kick: "Kicked",
  ban: "Banned",
  unban: "Unbanned",
  timeout: "Timed out",
  lift_timeout: "Timeout lifted",
  slow_mode: "Slow mode",
  chat_rules: "Chat rules",
  filtered: "Filtered",
  moderator_added: "Made moderator",
  moderator_removed: "Moderator removed",
};

const BADGE_TONES: Partial<Record<ModerationAction, string>> = {
  ban: "badge-danger",
  kick: "badge-danger",
  timeout: "badge-danger",
  delete: "badge-danger",
  filtered: "badge-test",
  unban: "badge-yes",
  lift_timeout: "badge-yes",
  moderator_added: "badge-mod",
};

function ActionBadge({ action }: { action: ModerationAction }) {
  return <span className={`badge ${BADGE_TONES[action] ?? ""}`}>{ACTION_LABELS[action]}</span>;
}

const Muted = ({ children }: { children: string }) => <span className="cell-muted">{children}</span>;

/** Who acted: for a filtered line nobody did; the filter refused it. */
function Who({ entry }: { entry: ModerationLogEntry }) {
  return entry.moderator ? <span className="user-name">{entry.moderator}</span> : <Muted>Filter</Muted>;
}

/** The log as a table on wide screens and as cards on phones. */
export function ModerationLogList({ entries, asCards }: { entries: ModerationLogEntry[]; asCards: boolean }) {
  if (asCards) {
    return (
      <ul className="record-list" aria-label="Moderation log">
        {entries.map((e) => (
          <li key={e.id} className="record-card moderation-log-card">
            <div className="record-card-head">
              <ActionBadge action={e.action} />
              <span className="cell-muted moderation-log-time">{formatDateTime(e.createdAt)}</span>
            </div>
            <p className="moderation-log-summary">
              <Who entry={e} />
              {e.target ? (
                <>
                  <span className="cell-muted"> → </span>
                  <span className="user-name">{e.target}</span>
                </>
              ) : null}
            </p>
            {e.messageText ? <blockquote className="moderation-log-message">{e.messageText}</blockquote> : null}
            {e.detail ? <p className="moderation-log-detail">{e.detail}</p> : null}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <TableWrap label="Moderation log" className="moderation-log-table">
      <table className="data-table">
        <caption className="sr-only">Moderation log</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Action</th>
            <th scope="col">By</th>
            <th scope="col">User</th>
            <th scope="col">Message</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td className="cell-nowrap cell-muted">{formatDateTime(e.createdAt)}</td>
              <td>
                <ActionBadge action={e.action} />
              </td>
              <td>
                <Who entry={e} />
              </td>
              <td>{e.target ? <span className="user-name">{e.target}</span> : <Muted>—</Muted>}</td>
              <td className="moderation-log-message-cell">{e.messageText ?? <Muted>—</Muted>}</td>
              <td className="moderation-log-detail-cell">{e.detail ?? <Muted>—</Muted>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
