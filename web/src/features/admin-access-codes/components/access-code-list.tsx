import type { AccessCodeRecord } from "@contracts/admin-panel";
import { formatDate, formatDateTime, formatTime } from "@/lib/dates";
import { CodeActions, CopyCodeButton, type CodeActionHandlers } from "./code-actions";
import { DeviceBadge, KindBadge, UsedBadge } from "./code-labels";
import { TableWrap } from "@/components/admin/table-wrap";

interface AccessCodeListProps extends CodeActionHandlers {
  codes: AccessCodeRecord[];
  asCards: boolean;
  highlightId: number | null;
}

/** An address that may break after the @ rather than mid-word. */
function Email({ email }: { email: string | null }) {
  if (!email) return <span className="cell-muted">—</span>;
  const at = email.indexOf("@");
  return at < 0 ? (
    <>{email}</>
  ) : (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/** The codes as a table, or as cards on narrower screens. */
export function AccessCodeList({ codes, asCards, highlightId, ...handlers }: AccessCodeListProps) {
  if (asCards) {
    return (
      <ul className="record-list codes-record-grid" aria-label="Access codes">
        {codes.map((c) => (
          <li key={c.id} className="record-card codes-record" data-highlight={c.id === highlightId || undefined} data-code={c.code} data-revoked={c.revoked || undefined}>
            <div className="record-card-head">
              <span className="mono code-text">{c.code}</span>
              <KindBadge kind={c.kind} />
            </div>
            <dl className="record-card-fields codes-fields">
              <div>
                <dt>Used</dt>
                <dd>
                  <UsedBadge record={c} />
                </dd>
              </div>
              <div>
                <dt>Device bound</dt>
                <dd>
                  <DeviceBadge bound={c.deviceBound} />
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{formatDateTime(c.createdAt)}</dd>
              </div>
              <div className="span-2">
                <dt>E-mail</dt>
                <dd>
                  <Email email={c.email} />
                </dd>
              </div>
              <div>
                <dt>User</dt>
                <dd>{c.username ?? <span className="cell-muted">—</span>}</dd>
              </div>
            </dl>
            <div className="codes-action-tiles">
              <CodeActions record={c} labelled {...handlers} />
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <TableWrap label="Access codes">
      <table className="data-table codes-table">
        <caption className="sr-only">Access codes</caption>
        <thead>
          <tr>
            <th scope="col">Code and kind</th>
            <th scope="col">Used</th>
            <th scope="col">Device bound</th>
            <th scope="col">E-mail</th>
            <th scope="col">Created</th>
            <th scope="col" className="cell-actions">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {codes.map((c) => (
            <tr key={c.id} className={c.revoked ? "codes-row-revoked" : undefined} data-highlight={c.id === highlightId || undefined} data-code={c.code}>
              <td>
                <span className="codes-cell">
                  <span className="mono code-text">{c.code}</span>
                  <CopyCodeButton record={c} onCopy={handlers.onCopy} />
                </span>
                <span className="codes-meta">
                  <KindBadge kind={c.kind} />
                  {c.username ? <span className="cell-sub">by {c.username}</span> : null}
                </span>
              </td>
              <td>
                <UsedBadge record={c} />
              </td>
              <td>
                <DeviceBadge bound={c.deviceBound} />
              </td>
              <td className="cell-email">
                <Email email={c.email} />
              </td>
              <td className="cell-muted cell-date">
                <time dateTime={c.createdAt}>
                  {formatDate(c.createdAt)}
                  <br />
                  {formatTime(c.createdAt)}
                </time>
              </td>
              <td className="cell-actions">
                <span className="row-actions">
                  <CodeActions record={c} labelled={false} {...handlers} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
