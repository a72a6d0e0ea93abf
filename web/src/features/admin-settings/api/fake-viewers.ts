import { useMutation, useQueryClient } from "@/lib/query";
import type { AdminStats } from "@contracts/admin-panel";
import { adminStatsQueryKey } from "@/lib/admin-stats";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";

export interface FakeViewersInput {
  enabled: boolean;
  /** Omitted when disabling. */
  targetViewers?: number;
}

export function setFakeViewers(input: FakeViewersInput): Promise<AdminStats> {
  return api.post<AdminStats>("/api/admin/fake-viewers", input);
}

/** Turns fake viewers on (with a target) or off; the stats are refetched afterwards. */
export function useSetFakeViewers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setFakeViewers,
    meta: { errorToast: serverMessageOr("Failed to update fake viewers.") },
    onSuccess: (stats) => {
      queryClient.setQueryData(adminStatsQueryKey, stats);
      return queryClient.invalidateQueries({ queryKey: adminStatsQueryKey });
    },
  });
}
