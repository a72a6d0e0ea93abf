import { useEffect, useId, useRef, useState } from "react";
import type { AuditQuery } from "@contracts/team";
import { ListPager, type ListPage } from "@/components/admin/list-pager";
import { IconFact } from "@/components/admin/icon-fact";
import { LoadFailed } from "@/components/admin/load-failed";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { DownloadIcon, ScrollIcon, UsersIcon } from "@/components/ui/icons";
import { PinIcon } from "@/components/ui/stream-icons";
import { RefreshIcon } from "@/components/ui/site-icons";
import { PageLoader } from "@/components/ui/page-loader";
import { useMediaQuery } from "@/hooks/use-media-query";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { formatCount } from "@/lib/numbers";
import { auditCsvUrl, useAuditLog, type AuditPage as AuditPageData } from "../api/audit-log";
import { ActionTag, AuditChange, AuditTarget, AuditTime } from "./audit-values";
import { TableWrap } from "@/components/admin/table-wrap";

interface Filters {
  actor: string;
  action: string;
  /** `datetime-local` values, in the owner's own time zone. */
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { actor: "", action: "", from: "", to: "" };

/** The filters as the server takes them: trimmed, times as ISO 8601 instants. */
function toQuery(filters: Filters): Omit<AuditQuery, "page"> {
  const iso = (local: string) => (local && !Number.isNaN(new Date(local).getTime()) ? new Date(local).toISOString() : undefined);
  return { actor: filters.actor.trim() || undefined, action: filters.action || undefined, from: iso(filters.from), to: iso(filters.to) };
}

/** The actions to filter by: each recorded one, and "all of" each family with more than one (sign-in, team…). */
function actionOptions(actions: string[]): { value: string; label: string }[] {
  const families = new Map<string, number>();
  for (const action of actions) {
    const family = action.split(".")[0]!;
    families.set(family, (families.get(family) ?? 0) + 1);
  }
  const options: { value: string; label: string }[] = [];
  for (const [family, count] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    if (count > 1) options.push({ value: family, label: `${family} (all)` });
    for (const action of actions.filter((a) => a.split(".")[0] === family)) if (action !== family || count === 1) options.push({ value: action, label: action });
  }
  return options;
}

/** What the pager needs of a server-side page. */
function serverPage(data: AuditPageData | undefined, setPage: (page: number) => void, topRef: ListPage<unknown>["topRef"]): ListPage<unknown> {
  const total = data?.total ?? 0;
  const pageSize = data?.pageSize ?? 50;
  const page = (data?.page ?? 1) - 1;
  return {
    rows: data?.entries ?? [],
    page,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
    total,
    from: page * pageSize + 1,
    to: Math.min(total, (page + 1) * pageSize),
    setPage: (next) => {
      setPage(next + 1);
      topRef.current?.scrollIntoView({ block: "start" });
    },
    topRef,
  };
}

/** The audit log (owners): every sign-in and change, who, what, before and after, from where; filtered, paged, exported. */
export function AuditPage() {
  const ids = { actor: useId(), action: useId(), from: useId(), to: useId() };
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [actor, setActor] = useState("");
  const [page, setPage] = useState(1);
  const topRef = useRef<HTMLElement | null>(null);
  const asCards = !useMediaQuery("(min-width: 1024px)");

  // The member's name is typed: the list follows once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.actor === actor ? f : { ...f, actor })), 300);
    return () => clearTimeout(timer);
  }, [actor]);
  const query = toQuery(filters);
  const queryKey = JSON.stringify(query);
  const [shownFor, setShownFor] = useState(queryKey);
  if (shownFor !== queryKey) {
    setShownFor(queryKey);
    setPage(1);
  }

  const log = useAuditLog({ ...query, page });
  useQueryErrorToast(log, "Failed to load the audit log.");
  const set = (key: keyof Filters) => (event: { target: { value: string } }) => setFilters((f) => ({ ...f, [key]: event.target.value }));
  const filtered = Object.values(query).some((v) => v !== undefined);
  const entries = log.data?.entries ?? [];
  const pager = serverPage(log.data, setPage, topRef);

  return (
    <>
      <AdminPageHeader
        title="Audit Log"
        description="Every sign-in and every change in the panel: who, what, before and after, and from where. Entries cannot be edited or deleted."
        actions={
          <a className="btn btn-outline" href={auditCsvUrl(query)} download>
            <DownloadIcon />
            Export CSV
          </a>
        }
      />
      <section ref={topRef} className="card list-panel" aria-labelledby="audit-heading">
        <h2 id="audit-heading" className="sr-only">
          Audit entries
        </h2>
        <form className="audit-filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter the audit log">
          <div className="field">
            <label className="field-label" htmlFor={ids.actor}>
              Member
            </label>
            <input
              id={ids.actor}
              className="input"
              type="search"
              placeholder="Any member"
              autoComplete="off"
              spellCheck={false}
              value={actor}
              onChange={(e) => setActor(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.action}>
              Action
            </label>
            <select id={ids.action} className="input admin-select" value={filters.action} onChange={set("action")}>
              <option value="">Any action</option>
              {actionOptions(log.data?.actions ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.from}>
              From
            </label>
            <input id={ids.from} className="input" type="datetime-local" value={filters.from} onChange={set("from")} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.to}>
              To
            </label>
            <input id={ids.to} className="input" type="datetime-local" value={filters.to} onChange={set("to")} />
          </div>
          <div className="audit-filters-foot">
            <p className="admin-toolbar-count" aria-live="polite">
              {log.data ? `${formatCount(log.data.total)} ${log.data.total === 1 ? "entry" : "entries"}${filtered ? " match" : ""}` : null}
            </p>
            {filtered || actor ? (
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  setActor("");
                  setFilters(NO_FILTERS);
                }}
              >
                Clear Filters
              </button>
            ) : null}
          </div>
        </form>
        {log.isPending ? (
          <PageLoader label="Loading the audit log…" />
        ) : log.isError && !log.data ? (
          <LoadFailed icon={<ScrollIcon />} title="The audit log could not be loaded" onRetry={() => void log.refetch()} />
        ) : entries.length === 0 ? (
          <EmptyState icon={<ScrollIcon />} title={filtered ? "Nothing matches these filters" : "Nothing recorded yet"}>
            {filtered ? "Try another member, action or time range." : "Sign-ins and changes appear here as they happen."}
          </EmptyState>
        ) : asCards ? (
          <ul className="record-list audit-cards" aria-label="Audit entries" aria-busy={log.isFetching}>
            {entries.map((e) => (
              <li key={e.id} className="record-card">
                <div className="record-card-head">
                  <ActionTag action={e.action} />
                  <span className="cell-muted">
                    <AuditTime iso={e.at} oneLine />
                  </span>
                </div>
                <dl className="audit-facts">
                  <IconFact icon={<UsersIcon aria-hidden="true" />} label="Member">
                    <span className="user-name">{e.actor}</span>
                    {e.target ? <span className="cell-muted"> on {e.target}</span> : null}
                  </IconFact>
                  <IconFact icon={<RefreshIcon aria-hidden="true" />} label="Change">
                    <AuditChange entry={e} />
                  </IconFact>
                  <IconFact icon={<PinIcon aria-hidden="true" />} label="Address" className="mono">
                    {e.address ?? "—"}
                  </IconFact>
                </dl>
              </li>
            ))}
          </ul>
        ) : (
          <TableWrap label="Audit entries">
            <table className="data-table audit-table" aria-busy={log.isFetching}>
              <caption className="sr-only">Audit entries</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Member</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Before → after</th>
                  <th scope="col">Address</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id}>
                    <td className="cell-muted">
                      <AuditTime iso={e.at} />
                    </td>
                    <td className="user-name">{e.actor}</td>
                    <td>
                      <ActionTag action={e.action} />
                    </td>
                    <td className="audit-target">{e.target ? <AuditTarget target={e.target} /> : <span className="cell-muted">—</span>}</td>
                    <td className="audit-change-cell">
                      <AuditChange entry={e} />
                    </td>
                    <td className="mono cell-muted">{e.address ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
        <ListPager list={pager} noun="entries" />
      </section>
    </>
  );
}
