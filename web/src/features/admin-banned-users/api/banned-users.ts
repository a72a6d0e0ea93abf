import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import { api } from "@/lib/api-client";

export interface BannedUser {
  username: string;
  bannedBy: string | null;
  /** Why, when the moderator said. */
  reason: string | null;
  /** ISO 8601 */
  bannedAt: string;
}

const bannedUsersQueryKey = ["admin", "banned-users"] as const;

export function getBannedUsers(): Promise<{ bannedUsers: BannedUser[] }> {
  return api.get<{ bannedUsers: BannedUser[] }>("/api/admin/banned-users");
}

export function bannedUsersQueryOptions() {
  return queryOptions({ queryKey: bannedUsersQueryKey, queryFn: getBannedUsers });
}

export function useBannedUsers() {
  return useQuery(bannedUsersQueryOptions());
}

export function unbanUser(username: string): Promise<{ ok: true; username: string }> {
  return api.post<{ ok: true; username: string }>("/api/admin/unban-user", { username });
}

/** Lifts a ban and drops that user from the cached list. */
export function useUnbanUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unbanUser,
    meta: { errorToast: "Failed to unban user." },
    onSuccess: (_result, username) => {
      queryClient.setQueryData<{ bannedUsers: BannedUser[] }>(bannedUsersQueryKey, (data) =>
        data ? { bannedUsers: data.bannedUsers.filter((b) => b.username !== username) } : data,
      );
      void queryClient.invalidateQueries({ queryKey: ["admin", "users"] });
    },
  });
}
