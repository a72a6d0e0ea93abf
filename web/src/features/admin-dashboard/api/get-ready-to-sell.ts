import { queryOptions, useQuery } from "@/lib/query";
import type { ReadyToSell } from "@contracts/ready-to-sell";
import { api } from "@/lib/api-client";

/** What the organiser fixes in another tab (Settings, a test purchase) shows here within this long. */
const READY_REFRESH_MS = 30_000;

export function getReadyToSell(): Promise<ReadyToSell> {
  return api.get<ReadyToSell>("/api/admin/ready-to-sell");
}

export function readyToSellQueryOptions() {
  return queryOptions({ queryKey: ["admin", "ready-to-sell"], queryFn: getReadyToSell, refetchInterval: READY_REFRESH_MS });
}

export function useReadyToSell() {
  return useQuery(readyToSellQueryOptions());
}
