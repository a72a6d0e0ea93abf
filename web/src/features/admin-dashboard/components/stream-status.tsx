import { useQuery } from "@/lib/query";
import { Link } from "wouter";
import { TvIcon } from "@/components/ui/icons";
import { paths } from "@/config/paths";
import { useNow } from "@/hooks/use-now";
import { useCan } from "@/lib/admin-auth";
import { ingestQueryOptions, streamSourceQueryOptions } from "@/lib/admin-stream";
import { liveFor, videoSummary } from "@/lib/ingest-figures";
import { DashPanel } from "./dash-panel";

/** With the built-in ingest: whether OBS is live, for how long and what it sends, and what to change (for the roles that run the stream). */
export function StreamStatus() {
  const mayRunStream = useCan("stream");
  const source = useQuery({ ...streamSourceQueryOptions(), enabled: mayRunStream });
  const ingest = useQuery(ingestQueryOptions(source.data?.kind === "ingest"));
  const now = useNow(30_000);
  if (source.data?.kind !== "ingest" || !ingest.data) return null;
  const { live, publisher, warnings } = ingest.data;
  return (
    <section aria-label="Stream" data-testid="dashboard-stream">
      <DashPanel
        icon={<TvIcon />}
        title="Stream"
        aside={
          live ? (
            <span className="badge dash-badge-live">
              <span className="dash-live-dot" aria-hidden="true" />
              Live
            </span>
          ) : (
            <span className="badge">Offline</span>
          )
        }
      >
        <p className="dash-stream-line">
          {live
            ? `OBS has been streaming to the built-in ingest for ${publisher ? liveFor(publisher.since, now) : "a moment"}.`
            : "The built-in ingest is waiting for OBS: viewers see 'Stream Offline'."}
          {live && publisher?.video ? <span className="dash-stream-figures">{videoSummary(publisher.video)}</span> : null}
        </p>
        <p className="dash-stat-card-detail">
          {warnings.length > 0 ? `${warnings.length === 1 ? "1 thing" : `${warnings.length} things`} to change in OBS. ` : null}
          <Link href={paths.admin.settings} className="text-link">
            {warnings.length > 0 ? "See Settings → Stream source" : "Server address and key in Settings"}
          </Link>
        </p>
      </DashPanel>
    </section>
  );
}
