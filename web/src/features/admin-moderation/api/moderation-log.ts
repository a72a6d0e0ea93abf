import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { ActiveTimeout, ModerationAction, ModerationLogEntry } from "@contracts/moderation";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";

/** The log refreshes itself while the screen is open: moderators act during the event. */
export const MODERATION_REFRESH_MS = 10_000;
export const CHAT_EXPORT_CSV_URL = "/api/admin/chat-export.csv";
export const CHAT_EXPORT_JSON_URL = "/api/admin/chat-export.json";

/** The CSV of the log as filtered on screen. */
export function moderationLogCsvUrl(action: ModerationAction | "", search: string): string {
  const query = new URLSearchParams();
  if (action) query.set("action", action);
  if (search.trim()) query.set("q", search.trim());
  const qs = query.toString();
  return `/api/admin/moderation-log.csv${qs ? `?${qs}` : ""}`;
}

export function getModerationLog(): Promise<{ entries: ModerationLogEntry[] }> {
  return api.get<{ entries: ModerationLogEntry[] }>("/api/admin/moderation-log");
}

export function useModerationLog() {
  return useQuery(queryOptions({ queryKey: ["admin", "moderation-log"], queryFn: getModerationLog, refetchInterval: MODERATION_REFRESH_MS }));
}

const timeoutsQueryKey = ["admin", "timeouts"] as const;

export function getTimeouts(): Promise<{ timeouts: ActiveTimeout[] }> {
  return api.get<{ timeouts: ActiveTimeout[] }>("/api/admin/timeouts");
}

export function useTimeouts() {
  return useQuery(queryOptions({ queryKey: timeoutsQueryKey, queryFn: getTimeouts, refetchInterval: MODERATION_REFRESH_MS }));
}

export function liftTimeout(username: string): Promise<{ ok: true; username: string }> {
  return api.post<{ ok: true; username: string }>("/api/admin/lift-timeout", { username });
}

/** Ends a timeout early; the list and the log reload. */
export function useLiftTimeout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: liftTimeout,
    meta: { errorToast: serverMessageOr("Failed to lift the timeout.") },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: timeoutsQueryKey });
      void queryClient.invalidateQueries({ queryKey: ["admin", "moderation-log"] });
    },
  });
}
