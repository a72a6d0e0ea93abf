import { useMutation, useQueryClient } from "@/lib/query";
import type { AccessCodeRecord } from "@contracts/admin-panel";
import { adminStatsQueryKey } from "@/lib/admin-stats";
import { api } from "@/lib/api-client";
import { storeAccessCode } from "./get-access-codes";

export interface GenerateAccessCodeInput {
  email?: string;
  kind: "SKP" | "MOD";
}

export function generateAccessCode(input: GenerateAccessCodeInput): Promise<AccessCodeRecord> {
  return api.post<AccessCodeRecord>("/api/admin/generate-access-code", input);
}

export function useGenerateAccessCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateAccessCode,
    meta: { errorToast: "Failed to generate access code." },
    onSuccess: (record) => {
      storeAccessCode(queryClient, record);
      void queryClient.invalidateQueries({ queryKey: adminStatsQueryKey });
    },
  });
}
