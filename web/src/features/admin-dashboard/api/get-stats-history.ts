import { queryOptions, useQuery } from "@/lib/query";
import type { StatsSample } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";

/** The server samples viewers and donations once a minute; the chart reloads them as often. */
const HISTORY_REFRESH_MS = 60_000;

export function getStatsHistory(): Promise<{ samples: StatsSample[] }> {
  return api.get<{ samples: StatsSample[] }>("/api/admin/stats/history");
}

export function statsHistoryQueryOptions() {
  return queryOptions({ queryKey: ["admin", "stats", "history"], queryFn: getStatsHistory, refetchInterval: HISTORY_REFRESH_MS });
}

export function useStatsHistory() {
  return useQuery(statsHistoryQueryOptions());
}
