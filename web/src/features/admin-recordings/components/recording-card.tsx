import type { RecordingState, RecordingView } from "@contracts/replay";
import { DownloadIcon, EyeOffIcon, TrashIcon } from "@/components/ui/icons";
import { EyeIcon } from "@/components/ui/stream-icons";
import { AlertIcon } from "@/components/ui/site-icons";
import { toast, toastError } from "@/hooks/use-toast";
import { formatBytes, formatClock } from "@/lib/admin-recordings";
import { serverErrorMessage } from "@/lib/api-client";
import { formatDateTime } from "@/lib/dates";
import { recordingDownloadUrl, useUpdateRecording } from "../api/recordings";
import { RecordingTitle, TrimForm } from "./recording-edits";

const STATES: Record<RecordingState, { label: string; className: string }> = {
  recording: { label: "Recording", className: "badge badge-danger recordings-live" },
  complete: { label: "Complete", className: "badge badge-on" },
  interrupted: { label: "Interrupted", className: "badge badge-warn" },
  failed: { label: "Failed", className: "badge badge-danger" },
};

function StateBadge({ state }: { state: RecordingState }) {
  const { label, className } = STATES[state];
  return (
    <span className={className} data-state={state}>
      {state === "recording" ? <span className="recordings-live-dot" aria-hidden="true" /> : null}
      {label}
    </span>
  );
}

/** What the replay plays of it: the whole length, or what is left after the trims. */
function Length({ recording }: { recording: RecordingView }) {
  const trimmed = recording.trimStartS > 0 || recording.trimEndS !== null;
  return (
    <>
      {formatClock(recording.durationS)}
      {trimmed ? <span className="cell-sub recordings-played">plays {formatClock(recording.playedS)} after trims</span> : null}
    </>
  );
}

/** Hide from the replay or show in it again, at once. */
function VisibilityButton({ recording }: { recording: RecordingView }) {
  const update = useUpdateRecording();
  const hide = !recording.hidden;
  return (
    <button
      type="button"
      className="btn btn-outline btn-sm"
      disabled={update.isPending}
      onClick={() =>
        update.mutate(
          { id: recording.id, change: { hidden: hide } },
          {
            onSuccess: () =>
              toast(
                hide
                  ? { title: "Hidden from the replay", description: "Pass holders no longer see this recording." }
                  : { title: "Back in the replay", description: "Pass holders see this recording again." },
              ),
            onError: (error) => toastError(serverErrorMessage(error) ?? "Could not change whether the replay shows the recording."),
          },
        )
      }
    >
      {hide ? <EyeOffIcon /> : <EyeIcon />}
      {hide ? "Hide from Replay" : recording.rehearsal ? "Keep in Replay" : "Show in Replay"}
    </button>
  );
}

/**
 * One recording: its title (renamed in place), state, start, length, size and picture; why it stopped early
 * when it did; its trims; and hide, download and delete.
 */
export function RecordingCard({ recording, onDelete }: { recording: RecordingView; onDelete: (recording: RecordingView) => void }) {
  const writing = recording.state === "recording";
  return (
    <li className="record-card recordings-card" data-recording={recording.id} data-hidden={recording.hidden || undefined}>
      <div className="recordings-card-head">
        <RecordingTitle recording={recording} />
        <div className="recordings-badges">
          <StateBadge state={recording.state} />
          {recording.rehearsal ? <span className="badge recordings-rehearsal">{recording.hidden ? "Rehearsal · not in the replay" : "Rehearsal · kept"}</span> : null}
          {recording.hidden && !recording.rehearsal ? <span className="badge">Hidden</span> : null}
        </div>
      </div>
      <dl className="record-card-fields recordings-facts">
        <div>
          <dt>Started</dt>
          <dd>
            <time dateTime={recording.startedAt}>{formatDateTime(recording.startedAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Length</dt>
          <dd>
            <Length recording={recording} />
          </dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>{formatBytes(recording.bytes)}</dd>
        </div>
        <div>
          <dt>Picture</dt>
          <dd>{recording.width > 0 && recording.height > 0 ? `${recording.width}×${recording.height}` : "—"}</dd>
        </div>
      </dl>
      {recording.failure ? (
        <p className="recordings-failure" role="note">
          <AlertIcon />
          <span>
            <strong>Stopped early:</strong> {recording.failure}
          </span>
        </p>
      ) : null}
      <TrimForm recording={recording} />
      <div className="record-card-actions recordings-actions">
        <VisibilityButton recording={recording} />
        {writing ? (
          <button type="button" className="btn btn-outline btn-sm" disabled title="It can be downloaded once the stream ends">
            <DownloadIcon />
            Download MP4
          </button>
        ) : (
          <a className="btn btn-outline btn-sm" href={recordingDownloadUrl(recording.id)} download>
            <DownloadIcon />
            Download MP4
          </a>
        )}
        <button
          type="button"
          className="btn btn-outline btn-sm recordings-delete"
          onClick={() => onDelete(recording)}
          disabled={writing}
          title={writing ? "It can be deleted once the stream ends" : undefined}
        >
          <TrashIcon />
          Delete
        </button>
      </div>
    </li>
  );
}
