import { useState } from "react";
import { PASS_HOLD_LABELS, type UserRecord } from "@contracts/admin-panel";
import { ListPager, useListPage } from "@/components/admin/list-pager";
import { SearchField } from "@/components/admin/search-field";
import { IconFact } from "@/components/admin/icon-fact";
import { LoadFailed } from "@/components/admin/load-failed";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { BanIcon, DownloadIcon, KeyIcon, MailIcon, UsersIcon } from "@/components/ui/icons";
import { ClockIcon } from "@/components/ui/stream-icons";
import { PageLoader } from "@/components/ui/page-loader";
import { useMediaQuery } from "@/hooks/use-media-query";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { useCan } from "@/lib/admin-auth";
import { formatDateTime } from "@/lib/dates";
import { matchesSearch } from "@/lib/search";
import { USERS_CSV_URL, useUsers } from "../api/get-users";
import { BanUserDialog } from "./ban-user-dialog";
import { ModeratorBadge, ModeratorToggle } from "./moderator-toggle";
import { TableWrap } from "@/components/admin/table-wrap";

function StatusBadge({ user }: { user: UserRecord }) {
  return (
    <span className="users-badges">
      {user.banned ? (
        <span className="badge badge-danger">Banned</span>
      ) : user.revoked ? (
        <span className="badge badge-danger">{user.hold ? PASS_HOLD_LABELS[user.hold] : "Revoked"}</span>
      ) : (
        <span className="badge badge-yes">Active</span>
      )}
      <ModeratorBadge user={user} />
    </span>
  );
}

/** Ban (an icon button in the table, a labelled one on cards); none for someone banned already. */
function BanButton({ user, compact = false, onBan }: { user: UserRecord; compact?: boolean; onBan: (user: UserRecord) => void }) {
  const mayBan = useCan("moderation");
  if (user.banned || !mayBan) return null;
  return (
    <button
      type="button"
      className={`btn btn-sm btn-outline users-ban-button${compact ? " btn-icon" : ""}`}
      onClick={() => onBan(user)}
      aria-label={compact ? `Ban ${user.username}` : undefined}
      title={compact ? "Ban" : undefined}
    >
      <BanIcon />
      {compact ? null : "Ban"}
    </button>
  );
}

/** The page's lead: what this member's role can do here (support only looks people up). */
function usersPageLead(mayPromote: boolean, mayBan: boolean): string {
  const everyone = "Everyone who has entered the event";
  if (mayPromote && mayBan) return `${everyone}. Make a viewer a moderator, or ban them from the stream, here.`;
  if (mayBan) return `${everyone}. Ban a viewer from the stream here.`;
  if (mayPromote) return `${everyone}. Make a viewer a moderator here.`;
  return `${everyone}, with their access code and whether their pass still lets them in. Find a buyer by name or e-mail.`;
}

/** Viewers who entered the event, searchable by username or e-mail, with a CSV export; each can be made a moderator or banned. */
export function UsersPage() {
  const users = useUsers();
  useQueryErrorToast(users, "Failed to fetch users.");
  const asCards = !useMediaQuery("(min-width: 768px)");
  const [search, setSearch] = useState("");
  const all = users.data ?? [];
  const shown = all.filter((u) => matchesSearch(search, u.username, u.email));
  const list = useListPage(shown, search.trim());
  const [banning, setBanning] = useState<UserRecord | null>(null);
  // The export carries e-mail addresses: only the roles that may see them get it.
  const mayExport = useCan("userEmails");
  const mayPromote = useCan("moderators");
  const mayBan = useCan("moderation");

  return (
    <>
      <AdminPageHeader
        title="Users"
        description={usersPageLead(mayPromote, mayBan)}
        actions={
          mayExport ? (
            <a className="btn btn-outline" href={USERS_CSV_URL} download>
              <DownloadIcon />
              Export CSV
            </a>
          ) : undefined
        }
      />
      <section ref={list.topRef} className="card list-panel" aria-labelledby="users-heading">
        <h2 id="users-heading" className="sr-only">
          All users
        </h2>
        <div className="admin-toolbar">
          <SearchField label="Search users" placeholder="Username or e-mail…" value={search} onChange={setSearch} />
          {users.data ? (
            <p className="admin-toolbar-count" aria-live="polite">
              {search.trim() ? `${shown.length} of ${all.length} users` : `${all.length} ${all.length === 1 ? "user" : "users"}`}
            </p>
          ) : null}
        </div>
        {users.isPending ? (
          <PageLoader label="Loading users…" />
        ) : users.isError ? (
          <LoadFailed icon={<UsersIcon />} title="The users could not be loaded" onRetry={() => void users.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState icon={<UsersIcon />} title={all.length === 0 ? "No users yet" : "No users match your search"}>
            {all.length === 0 ? "Viewers appear here once they enter the stream with an access code." : `Nobody's username or e-mail contains "${search.trim()}".`}
          </EmptyState>
        ) : asCards ? (
          <ul className="record-list" aria-label="Users">
            {list.rows.map((u) => (
              <li key={u.id} className="record-card">
                <div className="record-card-head">
                  <span className="user-name">{u.username}</span>
                  <StatusBadge user={u} />
                </div>
                <dl className="users-facts">
                  <IconFact icon={<MailIcon aria-hidden="true" />} label="E-mail">
                    {u.email ?? <span className="cell-muted">No e-mail</span>}
                  </IconFact>
                  <IconFact icon={<KeyIcon aria-hidden="true" />} label="Access code" className="mono">
                    {u.accessCode ?? "—"}
                  </IconFact>
                  <IconFact icon={<ClockIcon aria-hidden="true" />} label="Joined">
                    Joined {formatDateTime(u.createdAt)}
                  </IconFact>
                </dl>
                {u.moderator === "code" && u.banned ? null : (
                  <div className="record-card-actions">
                    <ModeratorToggle user={u} />
                    <BanButton user={u} onBan={setBanning} />
                  </div>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <TableWrap label="Users">
            <table className="data-table users-table">
              <caption className="sr-only">Users</caption>
              <thead>
                <tr>
                  <th scope="col">Username</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Access code</th>
                  <th scope="col">Status</th>
                  <th scope="col">Joined</th>
                  <th scope="col">
                    <span className="sr-only">Moderator and ban</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((u) => (
                  <tr key={u.id}>
                    <td className="user-name">{u.username}</td>
                    <td className="users-email">{u.email ?? <span className="cell-muted">—</span>}</td>
                    <td className="mono users-code">{u.accessCode ?? <span className="cell-muted">—</span>}</td>
                    <td>
                      <StatusBadge user={u} />
                    </td>
                    <td className="cell-muted users-joined">{formatDateTime(u.createdAt)}</td>
                    <td className="cell-actions">
                      <span className="users-actions">
                        <ModeratorToggle user={u} compact />
                        <BanButton user={u} compact onBan={setBanning} />
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
        <ListPager list={list} noun="users" />
      </section>
      <BanUserDialog user={banning} onOpenChange={(open) => !open && setBanning(null)} />
    </>
  );
}
