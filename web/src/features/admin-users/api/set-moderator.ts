import { useMutation, useQueryClient } from "@/lib/query";
import type { UserRecord } from "@contracts/admin-panel";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";
import { usersQueryOptions } from "./get-users";

export function setModerator(id: number, isModerator: boolean): Promise<{ id: number; username: string; isModerator: boolean }> {
  return api.post(`/api/admin/users/${id}/moderator`, { isModerator });
}

/** Makes a viewer a moderator (or takes it back); their open chat changes at once, the list follows. */
export function useSetModerator() {
  const queryClient = useQueryClient();
  const { queryKey } = usersQueryOptions();
  return useMutation({
    mutationFn: ({ id, isModerator }: { id: number; isModerator: boolean }) => setModerator(id, isModerator),
    meta: { errorToast: serverMessageOr("Failed to change the moderator.") },
    onSuccess: (result) => {
      queryClient.setQueryData<UserRecord[]>(queryKey, (users) => users?.map((u) => (u.id === result.id ? { ...u, moderator: result.isModerator ? "panel" : null } : u)));
    },
  });
}
