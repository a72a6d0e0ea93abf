import { useMutation, useQueryClient } from "@/lib/query";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";
import { storeAccessCode } from "./get-access-codes";

export function revokeAccessCode(id: number): Promise<AccessCodeRecord> {
  return api.post<AccessCodeRecord>(`/api/admin/access-codes/${id}/revoke`);
}

export function useRevokeAccessCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAccessCode,
    meta: { errorToast: serverMessageOr("Failed to revoke access code.") },
    onSuccess: (record) => storeAccessCode(queryClient, record),
  });
}
