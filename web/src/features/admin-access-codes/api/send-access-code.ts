import { useMutation, useQueryClient } from "@/lib/query";
import { api } from "@/lib/api-client";
import { accessCodesQueryKey } from "./get-access-codes";

export function sendAccessCode({ id, email }: { id: number; email: string }): Promise<{ ok: true; email: string }> {
  return api.post<{ ok: true; email: string }>(`/api/admin/access-codes/${id}/send`, { email });
}

/** Sends the code by e-mail; the list is reloaded because the server remembers the address. */
export function useSendAccessCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendAccessCode,
    meta: { errorToast: "Failed to send access code." },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessCodesQueryKey }),
  });
}
