import { useMutation, useQueryClient } from "@/lib/query";
import type { UserRecord } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";
import { usersQueryOptions } from "./get-users";

export function banUser(id: number, reason: string): Promise<{ ok: true; id: number; username: string }> {
  return api.post(`/api/admin/users/${id}/ban`, reason.trim() ? { reason: reason.trim() } : {});
}

/** Bans a viewer from the Users screen (chatted or not); the list marks them, Banned Users reloads. */
export function useBanUser() {
  const queryClient = useQueryClient();
  const { queryKey } = usersQueryOptions();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => banUser(id, reason),
    meta: { errorToast: serverMessageOr("Failed to ban user.") },
    onSuccess: (result) => {
      queryClient.setQueryData<UserRecord[]>(queryKey, (users) => users?.map((u) => (u.id === result.id ? { ...u, banned: true } : u)));
      void queryClient.invalidateQueries({ queryKey: ["admin", "banned-users"] });
    },
    // Banned meanwhile (409) or gone: the list shows how things stand now.
    onError: () => void queryClient.invalidateQueries({ queryKey }),
  });
}
