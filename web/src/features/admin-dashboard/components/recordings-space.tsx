import { useQuery } from "@/lib/query";
import { Link } from "wouter";
import { FilmIcon } from "@/components/ui/icons";
import { paths } from "@/config/paths";
import { useCan } from "@/lib/admin-auth";
import { formatBytes, recordingsQueryOptions } from "@/lib/admin-recordings";
import { DashPanel } from "./dash-panel";

/** Once something is recorded (for the roles that run the stream): the space the recordings take and what is left. */
export function RecordingsSpace() {
  const mayRunStream = useCan("stream");
  const list = useQuery(recordingsQueryOptions(mayRunStream));
  const recordings = list.data?.recordings ?? [];
  if (!list.data || recordings.length === 0) return null;
  const { totalBytes, freeBytes } = list.data;
  const writing = recordings.some((r) => r.state === "recording");
  return (
    <section aria-label="Recordings" data-testid="dashboard-recordings">
      <DashPanel icon={<FilmIcon />} title="Recordings" aside={<span className="badge">{recordings.length === 1 ? "1 recording" : `${recordings.length} recordings`}</span>}>
        <p className="dash-stream-line">
          {formatBytes(totalBytes)} used{freeBytes === null ? "" : ` · ${formatBytes(freeBytes)} free on the disk`}
          {writing ? <span className="dash-stream-figures">Recording now</span> : null}
        </p>
        <p className="dash-stat-card-detail">
          <Link href={paths.admin.recordings} className="text-link">
            Rename, trim, download or delete them in Recordings
          </Link>
        </p>
      </DashPanel>
    </section>
  );
}
