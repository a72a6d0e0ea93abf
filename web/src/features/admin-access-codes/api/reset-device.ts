import { useMutation, useQueryClient } from "@/lib/query";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";
import { storeAccessCode } from "./get-access-codes";

export function resetDevice(id: number): Promise<AccessCodeRecord> {
  return api.post<AccessCodeRecord>(`/api/admin/access-codes/${id}/reset-device`);
}

export function useResetDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetDevice,
    meta: { errorToast: serverMessageOr("Failed to reset the device binding.") },
    onSuccess: (record) => storeAccessCode(queryClient, record),
  });
}
