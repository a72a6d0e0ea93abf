import { useMutation, useQueryClient } from "@/lib/query";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { adminPaymentsQueryKey } from "@/lib/admin-payments";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";
import { storeAccessCode } from "./get-access-codes";

export function restoreAccessCode(id: number): Promise<AccessCodeRecord> {
  return api.post<AccessCodeRecord>(`/api/admin/access-codes/${id}/restore`);
}

/** A revoked code made to work again; the payments list learns it on its next load. */
export function useRestoreAccessCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreAccessCode,
    meta: { errorToast: serverMessageOr("Failed to restore access code.") },
    onSuccess: (record) => {
      storeAccessCode(queryClient, record);
      void queryClient.invalidateQueries({ queryKey: adminPaymentsQueryKey });
    },
  });
}
