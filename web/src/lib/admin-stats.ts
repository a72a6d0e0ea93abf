import { queryOptions, useQuery } from "@/lib/query";
import type { AdminStats } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";

/** The admin stats, polled every 10 s; shared by the dashboard and the fake viewers control. */
export const ADMIN_STATS_REFRESH_MS = 10_000;

export const adminStatsQueryKey = ["admin", "stats"] as const;

export function getAdminStats(): Promise<AdminStats> {
  return api.get<AdminStats>("/api/admin/stats");
}

export function adminStatsQueryOptions() {
  return queryOptions({ queryKey: adminStatsQueryKey, queryFn: getAdminStats, refetchInterval: ADMIN_STATS_REFRESH_MS });
}

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
