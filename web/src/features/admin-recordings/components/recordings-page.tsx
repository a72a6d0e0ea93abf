import { useState } from "react";
import type { RecordingView } from "@contracts/replay";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { LoadFailed } from "@/components/admin/load-failed";
import { AdminPageHeader } from "@/components/layouts/admin-page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { FilmIcon, HardDriveIcon, TrashIcon } from "@/components/ui/icons";
import { PageLoader } from "@/components/ui/page-loader";
import { toast } from "@/hooks/use-toast";
import { useQueryErrorToast } from "@/hooks/use-query-error-toast";
import { formatBytes, type RecordingsList } from "@/lib/admin-recordings";
import { useDeleteRecording, useRecordings } from "../api/recordings";
import { RecordingCard } from "./recording-card";

/** The space the recordings take, and what is left on the disk they are written to. */
function SpaceSummary({ list }: { list: RecordingsList }) {
  const { totalBytes, freeBytes, recordings } = list;
  const share = freeBytes !== null && totalBytes + freeBytes > 0 ? totalBytes / (totalBytes + freeBytes) : null;
  return (
    <section className="card recordings-space" aria-labelledby="recordings-space-heading" data-testid="recordings-space">
      <span className="recordings-space-icon" aria-hidden="true">
        <HardDriveIcon />
      </span>
      <div className="recordings-space-body">
        <h2 id="recordings-space-heading" className="recordings-space-title">
          Space
        </h2>
        <p className="recordings-space-figures">
          <span>
            <strong>{formatBytes(totalBytes)}</strong> used by {recordings.length === 1 ? "1 recording" : `${recordings.length} recordings`}
          </span>
          <span>
            {freeBytes === null ? (
              "The free space of this storage is not known"
            ) : (
              <>
                <strong>{formatBytes(freeBytes)}</strong> free on the disk
              </>
            )}
          </span>
        </p>
        {share !== null ? (
          <div
            className="recordings-space-track"
            role="meter"
            aria-label="Disk space the recordings use"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(share * 1000) / 10}
            aria-valuetext={`${formatBytes(totalBytes)} of ${formatBytes(totalBytes + (freeBytes ?? 0))}`}
          >
            <div className="recordings-space-fill" style={{ width: `${Math.max(share * 100, totalBytes > 0 ? 1 : 0)}%` }} />
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** The Recordings screen (roles that run the stream): each recording of the built-in ingest or the HLS relay, the space they take; rename, trim, hide, download, delete. */
export function RecordingsPage() {
  const list = useRecordings();
  useQueryErrorToast(list, "Failed to load the recordings.");
  const remove = useDeleteRecording();
  const [deleting, setDeleting] = useState<RecordingView | null>(null);
  const recordings = list.data?.recordings ?? [];

  const confirmDelete = () => {
    if (!deleting) return;
    const { id, title, bytes } = deleting;
    remove.mutate(id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: "Recording deleted", description: `“${title}” is gone from the replay; ${formatBytes(bytes)} freed.` });
      },
    });
  };

  return (
    <>
      <AdminPageHeader
        title="Recordings"
        description="Every time OBS publishes to the built-in ingest, and every run of the relayed HLS stream, it is recorded here (an embed, Mux, Cloudflare Stream and Bunny Stream keep their own). After the night, pass holders watch them one after another as the replay: rename, trim or hide them first; download or delete them."
      />
      <div className="recordings-page">
        {list.data ? <SpaceSummary list={list.data} /> : null}
        <section className="card list-panel" aria-labelledby="recordings-heading">
          <div className="recordings-panel-head">
            <h2 id="recordings-heading" className="recordings-panel-title">
              Recordings
            </h2>
            {list.data ? <p className="admin-toolbar-count">{recordings.length === 1 ? "1 recording" : `${recordings.length} recordings`}</p> : null}
          </div>
          {list.isPending ? (
            <PageLoader label="Loading the recordings…" />
          ) : list.isError ? (
            <LoadFailed icon={<FilmIcon />} title="The recordings could not be loaded" onRetry={() => void list.refetch()} />
          ) : recordings.length === 0 ? (
            <EmptyState icon={<FilmIcon />} title="No recordings yet">
              When OBS publishes to the built-in ingest, or the HLS relay's origin is live (Settings → Stream source), each session is recorded and listed here. An embed, Mux,
              Cloudflare Stream and Bunny Stream keep their own recordings.
            </EmptyState>
          ) : (
            <ul className="record-list recordings-list" aria-label="Recordings">
              {recordings.map((recording) => (
                <RecordingCard key={recording.id} recording={recording} onDelete={setDeleting} />
              ))}
            </ul>
          )}
        </section>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete “${deleting?.title ?? ""}”?`}
        description={`The recording (${deleting ? formatBytes(deleting.bytes) : ""}) is deleted from the disk and leaves the replay. Download it first to keep a copy.`}
        confirmLabel="Delete Recording"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        icon={<TrashIcon />}
        onConfirm={confirmDelete}
      />
    </>
  );
}
