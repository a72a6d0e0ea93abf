import { useId, useState } from "react";
import type { AdminSessionView } from "@contracts/team";
import { AdminSectionHead } from "@/components/admin/admin-section";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { IconFact } from "@/components/admin/icon-fact";
import { LoadFailed } from "@/components/admin/load-failed";
import { LogOutIcon, MonitorIcon } from "@/components/ui/icons";
import { ClockIcon, PinIcon } from "@/components/ui/stream-icons";
import { CalendarIcon } from "@/components/ui/site-icons";
import { PageLoader } from "@/components/ui/page-loader";
import { toast } from "@/hooks/use-toast";
import { useMediaQuery } from "@/hooks/use-media-query";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { formatDateTime } from "@/lib/dates";
import { useEndOtherSessions, useEndSession, useSessions } from "../api/sessions";
import { TableWrap } from "@/components/admin/table-wrap";

function ThisDevice() {
  return <span className="badge badge-on">This device</span>;
}

function EndButton({ session, onEnd }: { session: AdminSessionView; onEnd: (session: AdminSessionView) => void }) {
  if (session.current) return null;
  return (
    <button type="button" className="btn btn-outline btn-sm" onClick={() => onEnd(session)} aria-label={`End the session in ${session.browser} from ${session.address}`}>
      <LogOutIcon />
      End
    </button>
  );
}

/** Where the member is signed in (browser, address, since, last seen), with "This device" marked; end one or all others. */
export function SessionsSection() {
  const headingId = useId();
  const sessions = useSessions();
  useQueryErrorToast(sessions, "Failed to load your sessions.");
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const asCards = !useMediaQuery("(min-width: 768px)");
  const [ending, setEnding] = useState<AdminSessionView | "others" | null>(null);
  const list = sessions.data ?? [];
  const others = list.filter((s) => !s.current).length;

  const confirm = () => {
    if (ending === "others") {
      endOthers.mutate(undefined, {
        onSuccess: ({ ended }) => {
          setEnding(null);
          toast({ title: "Signed out elsewhere", description: ended === 1 ? "1 other session was ended." : `${ended} other sessions were ended.` });
        },
      });
    } else if (ending) {
      endOne.mutate(ending.id, {
        onSuccess: () => {
          setEnding(null);
          toast({ title: "Session ended", description: "That browser is signed out." });
        },
      });
    }
  };

  return (
    <section className="card admin-section security-section" aria-labelledby={headingId}>
      <AdminSectionHead
        id={headingId}
        icon={<MonitorIcon />}
        title="Where you're signed in"
        text="Every browser signed in to your account. End any you don't recognise, then change your password."
      />
      {sessions.isPending ? (
        <PageLoader label="Loading your sessions…" />
      ) : sessions.isError ? (
        <LoadFailed icon={<MonitorIcon />} title="Your sessions could not be loaded" onRetry={() => void sessions.refetch()} />
      ) : asCards ? (
        <ul className="record-list" aria-label="Sessions">
          {list.map((s) => (
            <li key={s.id} className="record-card">
              <div className="record-card-head">
                <span className="user-name">{s.browser}</span>
                {s.current ? <ThisDevice /> : null}
              </div>
              <dl className="security-facts">
                <IconFact icon={<PinIcon aria-hidden="true" />} label="Address" className="mono">
                  {s.address}
                </IconFact>
                <IconFact icon={<CalendarIcon aria-hidden="true" />} label="Signed in">
                  Signed in {formatDateTime(s.createdAt)}
                </IconFact>
                <IconFact icon={<ClockIcon aria-hidden="true" />} label="Last seen">
                  Last seen {formatDateTime(s.lastSeenAt)}
                </IconFact>
              </dl>
              {s.current ? null : (
                <div className="record-card-actions">
                  <EndButton session={s} onEnd={setEnding} />
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <TableWrap label="Your sessions">
          <table className="data-table">
            <caption className="sr-only">Your sessions</caption>
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span className="sr-only">End</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id}>
                  <td>
                    <span className="security-browser">
                      <span className="user-name">{s.browser}</span>
                      {s.current ? <ThisDevice /> : null}
                    </span>
                  </td>
                  <td className="mono cell-muted">{s.address}</td>
                  <td className="cell-date">{formatDateTime(s.createdAt)}</td>
                  <td className="cell-date">{formatDateTime(s.lastSeenAt)}</td>
                  <td className="cell-actions">
                    <EndButton session={s} onEnd={setEnding} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {others > 0 ? (
        <div className="security-actions">
          <button type="button" className="btn btn-outline btn-sm security-actions-end" onClick={() => setEnding("others")}>
            <LogOutIcon />
            End All Other Sessions
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => !open && setEnding(null)}
        title={ending === "others" ? "End all other sessions?" : "End this session?"}
        description={
          ending === "others"
            ? `Every browser but this one is signed out (${others === 1 ? "1 session" : `${others} sessions`}).`
            : ending
              ? `${ending.browser} at ${ending.address} is signed out at its next step.`
              : ""
        }
        confirmLabel={ending === "others" ? "End Others" : "End Session"}
        pendingLabel="Ending..."
        pending={endOne.isPending || endOthers.isPending}
        icon={<LogOutIcon />}
        onConfirm={confirm}
      />
    </section>
  );
}
