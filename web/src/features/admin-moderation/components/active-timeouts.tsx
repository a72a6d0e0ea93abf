import { EmptyState } from "@/components/ui/empty-state";
import { ClockIcon } from "@/components/ui/icons";
import { toast } from "@/hooks/use-toast";
import { serverErrorMessage } from "@/lib/api-client";
import { formatTime } from "@/lib/dates";
import { useLiftTimeout, useTimeouts } from "../api/moderation-log";

/** The timeouts running now, each with its end and a Lift button. */
export function ActiveTimeouts() {
  const timeouts = useTimeouts();
  const lift = useLiftTimeout();
  const list = timeouts.data?.timeouts ?? [];

  const onLift = (username: string) =>
    lift.mutate(username, {
      onSuccess: () => toast({ title: "Timeout Lifted", description: `${username} can chat again.` }),
      onError: (error) => toast({ variant: "destructive", title: "Error", description: serverErrorMessage(error) ?? "Failed to lift the timeout." }),
    });

  return (
    <section className="card settings-section" aria-labelledby="timeouts-heading">
      <div className="settings-section-head">
        <span className="settings-section-icon" aria-hidden="true">
          <ClockIcon />
        </span>
        <div>
          <h2 id="timeouts-heading" className="settings-section-title">
            Timed out now
          </h2>
          <p className="settings-section-text">Muted viewers still watch. Moderators time them out from a chat line.</p>
        </div>
      </div>
      {list.length === 0 ? (
        <EmptyState icon={<ClockIcon />} title={timeouts.isPending ? "Loading…" : "Nobody is timed out"} />
      ) : (
        <ul className="timeout-list" aria-label="Timed-out viewers">
          {list.map((t) => (
            <li key={t.username} className="timeout-item">
              <span className="timeout-text">
                <span className="user-name">{t.username}</span>
                <span className="cell-muted">
                  until {formatTime(t.until)} · by {t.timedOutBy}
                </span>
              </span>
              <button type="button" className="btn btn-outline btn-sm" onClick={() => onLift(t.username)} disabled={lift.isPending} aria-label={`Lift the timeout of ${t.username}`}>
                Lift
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
