import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { Role, TeamView } from "@contracts/team";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";

export function getTeam(): Promise<TeamView> {
  return api.get<TeamView>("/api/admin/team");
}

export function teamQueryOptions() {
  return queryOptions({ queryKey: ["admin", "team"], queryFn: getTeam });
}

/** The members, the open invites and whether the team requires two factors. */
export function useTeam() {
  return useQuery(teamQueryOptions());
}

/** After any change, and after a refusal (someone else may have changed it meanwhile): the team as it is now. */
function useReloadTeam() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: teamQueryOptions().queryKey });
}

/** Invites by e-mail; answers the link (also e-mailed) for the owner to pass on. */
export function useInvite() {
  const reload = useReloadTeam();
  return useMutation({
    mutationFn: (body: { email: string; role: Role }) => api.post<{ inviteUrl: string; id: number; expiresAt: string }>("/api/admin/team/invites", body),
    meta: { errorToast: false },
    onSuccess: reload,
  });
}

export function useRevokeInvite() {
  const reload = useReloadTeam();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ ok: true }>(`/api/admin/team/invites/${id}`),
    meta: { errorToast: serverMessageOr("Could not revoke the invite.") },
    onSettled: reload,
  });
}

export function useSetRole() {
  const reload = useReloadTeam();
  return useMutation({
    mutationFn: ({ id, role }: { id: number; role: Role }) => api.put<{ id: number; username: string; role: Role }>(`/api/admin/team/${id}`, { role }),
    meta: { errorToast: false },
    onSettled: reload,
  });
}

export function useRemoveMember() {
  const reload = useReloadTeam();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ ok: true }>(`/api/admin/team/${id}`),
    meta: { errorToast: serverMessageOr("Could not remove the member.") },
    onSettled: reload,
  });
}

/** Signs a member out everywhere (their other sessions, when it is the owner themself). */
export function useEndMemberSessions() {
  const reload = useReloadTeam();
  return useMutation({
    mutationFn: (id: number) => api.post<{ ended: number }>(`/api/admin/team/${id}/end-sessions`),
    meta: { errorToast: serverMessageOr("Could not end the member's sessions.") },
    onSettled: reload,
  });
}

export function useRequireTwoFactor() {
  const queryClient = useQueryClient();
  const reload = useReloadTeam();
  return useMutation({
    mutationFn: (required: boolean) => api.put<{ requireTwoFactor: boolean }>("/api/admin/team/require-2fa", { required }),
    meta: { errorToast: serverMessageOr("Could not change the two-factor rule.") },
    // The switch shows the rule the server now holds at once, with its toast, not after the reload.
    onSuccess: ({ requireTwoFactor }) => {
      queryClient.setQueryData(teamQueryOptions().queryKey, (team) => (team ? { ...team, requireTwoFactor } : team));
    },
    onSettled: reload,
  });
}
