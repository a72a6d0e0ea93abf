import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ListPager, useListPage } from "@/components/admin/list-pager";
import { LoadFailed } from "@/components/admin/load-failed";
import { SearchField } from "@/components/admin/search-field";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { BanIcon, UserCheckIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { paths } from "@/config/paths";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { toast } from "@/hooks/use-toast";
import { formatDateTime } from "@/lib/dates";
import { formatCount } from "@/lib/numbers";
import { matchesSearch } from "@/lib/search";
import { useBannedUsers, useUnbanUser } from "../api/banned-users";

/**
 * Users banned from the event (a ban locks them out of the stream and the chat, by name and by access
 * code): pick one, confirm, and the ban is lifted. After a raid there may be thousands: a search (name,
 * who banned them, reason) and pages of 50 keep one easy to find. Bans are made in the chat or on Users.
 */
export function BannedUsersPage() {
  const banned = useBannedUsers();
  useQueryErrorToast(banned, "Failed to load banned users list.");
  const unban = useUnbanUser();
  const [selected, setSelected] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [search, setSearch] = useState("");
  const list = banned.data?.bannedUsers ?? [];
  const shown = list.filter((b) => matchesSearch(search, b.username, b.bannedBy, b.reason));
  const page = useListPage(shown, search.trim());
  const picked = list.find((b) => b.username === selected) ?? null;
  // A new page starts at the top of the scrolling list.
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [page.page, search]);

  const onConfirm = () => {
    if (!picked) return;
    unban.mutate(picked.username, {
      onSuccess: () => {
        toast({ title: "User Unbanned", description: `${picked.username} can watch and chat again.` });
        setSelected(null);
      },
      onSettled: () => setConfirming(false),
    });
  };

  return (
    <>
      <AdminPageHeader
        title="Banned Users"
        description="People locked out of the stream and the chat, and unbanning them."
        actions={
          <Link href={paths.admin.users} className="btn btn-outline">
            <BanIcon />
            Ban from Users
          </Link>
        }
      />
      <section ref={page.topRef} className="card list-panel" aria-labelledby="banned-heading">
        <div className="banned-head">
          <h2 id="banned-heading" className="banned-title">
            Banned from the stream and chat
          </h2>
          {banned.data ? <span className="badge badge-danger">{formatCount(list.length)} banned</span> : null}
        </div>
        {banned.isPending ? (
          <PageLoader label="Loading banned users…" />
        ) : banned.isError ? (
          <LoadFailed icon={<BanIcon />} title="The banned users could not be loaded" onRetry={() => void banned.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState icon={<BanIcon />} title="Nobody is banned">
            A ban locks a viewer out of the stream and the chat, under their name and with their access code. Viewers banned by a moderator in the chat, or by you on{" "}
            <Link href={paths.admin.users} className="text-link">
              Users
            </Link>
            , are listed here, where you can unban them.
          </EmptyState>
        ) : (
          <>
            <p id="banned-help" className="banned-help">
              Pick a user, then unban them. They can watch and chat again with their access code and name.
            </p>
            <div className="admin-toolbar">
              <SearchField label="Search banned users" placeholder="Name or reason…" value={search} onChange={setSearch} />
              <p className="admin-toolbar-count" aria-live="polite">
                {search.trim() ? `${formatCount(shown.length)} of ${formatCount(list.length)} banned` : null}
              </p>
            </div>
            {shown.length === 0 ? (
              <EmptyState icon={<BanIcon />} title="No banned users match your search">
                Nobody banned has a name, banner or reason containing "{search.trim()}".
              </EmptyState>
            ) : (
              <div ref={scroller} className="banned-scroll" data-testid="banned-scroll">
                <div className="banned-list" role="radiogroup" aria-labelledby="banned-heading" aria-describedby="banned-help">
                  {page.rows.map((b) => (
                    <label key={b.username} className="banned-item">
                      <input type="radio" name="banned-user" value={b.username} checked={selected === b.username} onChange={() => setSelected(b.username)} />
                      <span className="banned-avatar" aria-hidden="true">
                        {b.username.charAt(0).toUpperCase()}
                      </span>
                      <span className="banned-text">
                        <span className="banned-name">{b.username}</span>
                        <span className="banned-meta">
                          {b.bannedBy ? `Banned by ${b.bannedBy}` : "Banned"} · {formatDateTime(b.bannedAt)}
                        </span>
                        {b.reason ? <span className="banned-reason">“{b.reason}”</span> : null}
                      </span>
                    </label>
                  ))}
                </div>
              </div>
            )}
            <ListPager list={page} noun="banned users" />
            <div className="banned-actions">
              <p className="banned-picked" aria-live="polite">
                {picked ? (
                  <>
                    Selected: <strong>{picked.username}</strong>
                  </>
                ) : (
                  "No user selected"
                )}
              </p>
              <button type="button" className="btn btn-primary" disabled={!picked} onClick={() => setConfirming(true)}>
                <UserCheckIcon />
                Unban User
              </button>
            </div>
          </>
        )}
      </section>
      <ConfirmDialog
        open={confirming && picked !== null}
        onOpenChange={setConfirming}
        icon={<UserCheckIcon />}
        title={`Unban ${picked?.username ?? ""}?`}
        description="They will be able to enter the event and chat again with their access code."
        confirmLabel="Unban"
        pendingLabel="Unbanning..."
        pending={unban.isPending}
        onConfirm={onConfirm}
      />
    </>
  );
}
