import { AdminSection } from "@/components/admin/admin-section";
import { EmptyState } from "@/components/ui/empty-state";
import { ClockIcon } from "@/components/ui/stream-icons";
import { toast } from "@/hooks/use-toast";
import { formatTime } from "@/lib/dates";
import { useLiftTimeout, useTimeouts } from "../api/moderation-log";

/** The timeouts running now, each with its end and a Lift button. */
export function ActiveTimeouts() {
  const timeouts = useTimeouts();
  const lift = useLiftTimeout();
  const list = timeouts.data?.timeouts ?? [];

  const onLift = (username: string) => lift.mutate(username, { onSuccess: () => toast({ title: "Timeout Lifted", description: `${username} can chat again.` }) });

  return (
    <AdminSection icon={<ClockIcon />} title="Timed out now" text="Muted viewers still watch. Moderators time them out from a chat line.">
      {list.length === 0 ? (
        <EmptyState icon={<ClockIcon />} title={timeouts.isPending ? "Loading…" : "Nobody is timed out"} />
      ) : (
        <ul className="moderation-timeout-list" aria-label="Timed-out viewers">
          {list.map((t) => (
            <li key={t.username} className="moderation-timeout-item">
              <span className="moderation-timeout-text">
                <span className="user-name">{t.username}</span>
                <span className="cell-muted">
                  until {formatTime(t.until)} · by {t.timedOutBy}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => onLift(t.username)}
                disabled={lift.isPending}
                aria-label={`Lift the timeout of ${t.username}`}
              >
                Lift
              </button>
            </li>
          ))}
        </ul>
      )}
    </AdminSection>
  );
}
