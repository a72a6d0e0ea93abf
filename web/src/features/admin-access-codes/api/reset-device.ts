import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";
import { storeAccessCode } from "./get-access-codes";

export function resetDevice(id: number): Promise<AccessCodeRecord> {
  return api.post<AccessCodeRecord>(`/api/admin/access-codes/${id}/reset-device`);
}

export function useResetDevice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: resetDevice, onSuccess: (record) => storeAccessCode(queryClient, record) });
}
