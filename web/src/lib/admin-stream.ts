import { queryOptions } from "@/lib/query";
import type { IngestView, StreamSourceView } from "@contracts/stream";
import { api } from "@/lib/api-client";

/** The stream source and the built-in ingest as the panel sees them; shared by the settings and the dashboard. */

export const streamSourceQueryKey = ["admin", "stream-source"] as const;

export function streamSourceQueryOptions() {
  return queryOptions({ queryKey: streamSourceQueryKey, queryFn: () => api.get<StreamSourceView>("/api/admin/stream-source") });
}

/** While a page shows the ingest, its state is asked again this often (OBS starting or stopping shows within seconds). */
export const INGEST_REFRESH_MS = 3000;

export const ingestQueryKey = ["admin", "ingest"] as const;

export function ingestQueryOptions(enabled: boolean) {
  return queryOptions({
    queryKey: ingestQueryKey,
    queryFn: () => api.get<IngestView>("/api/admin/ingest"),
    enabled,
    refetchInterval: INGEST_REFRESH_MS,
  });
}
