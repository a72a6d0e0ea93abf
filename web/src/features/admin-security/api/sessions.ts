import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { AdminSessionView } from "@contracts/team";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";

export function getSessions(): Promise<{ sessions: AdminSessionView[] }> {
  return api.get("/api/admin/sessions");
}

export function sessionsQueryOptions() {
  return queryOptions({ queryKey: ["admin", "sessions"], queryFn: getSessions, select: (data) => data.sessions });
}

/** Where the member is signed in: this browser and any other. */
export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

function useReloadSessions() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey });
}

/** Ends one of the member's other sessions: its next request finds itself signed out. */
export function useEndSession() {
  const reload = useReloadSessions();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ ok: true }>(`/api/admin/sessions/${encodeURIComponent(id)}`),
    meta: { errorToast: serverMessageOr("Could not end the session.") },
    onSettled: reload,
  });
}

export function useEndOtherSessions() {
  const reload = useReloadSessions();
  return useMutation({
    mutationFn: () => api.post<{ ended: number }>("/api/admin/sessions/end-others"),
    meta: { errorToast: serverMessageOr("Could not end the other sessions.") },
    onSettled: reload,
  });
}

/** A new password (the current one confirms it); every other session ends. */
export function useChangePassword() {
  const reload = useReloadSessions();
  return useMutation({
    mutationFn: (body: { current: string; next: string }) => api.post<{ ok: true }>("/api/admin/password", body),
    meta: { errorToast: false },
    onSuccess: reload,
  });
}
