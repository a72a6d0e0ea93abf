import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { LivestreamSettings, LivestreamSettingsBody } from "@contracts/settings";
import type { EventPhaseView } from "@contracts/event-phase";
import { api, serverErrorMessage } from "@/lib/api-client";
import { livestreamSettingsQueryKey } from "@/lib/livestream-settings";
import type { ErrorToast } from "@/lib/query-client";

const adminSettingsQueryKey = ["admin", "livestream-settings"] as const;

export function getAdminLivestreamSettings(): Promise<LivestreamSettings> {
  return api.get<LivestreamSettings>("/api/admin/livestream-settings");
}

export function adminLivestreamSettingsQueryOptions() {
  return queryOptions({ queryKey: adminSettingsQueryKey, queryFn: getAdminLivestreamSettings });
}

export function useAdminLivestreamSettings() {
  return useQuery(adminLivestreamSettingsQueryOptions());
}

export function updateLivestreamSettings(body: LivestreamSettingsBody): Promise<LivestreamSettings> {
  return api.put<LivestreamSettings>("/api/admin/livestream-settings", body);
}

/**
 * Saves the settings; the admin copy takes the saved row and the viewers' copy is reloaded. `errorToast`
 * says what failed: the whole form, or the thumbnail alone.
 */
export function useUpdateLivestreamSettings(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLivestreamSettings,
    meta: { errorToast },
    onSuccess: (saved) => {
      queryClient.setQueryData<LivestreamSettings>(adminSettingsQueryKey, (old) => (old ? { ...old, ...saved } : saved));
      void queryClient.invalidateQueries({ queryKey: livestreamSettingsQueryKey });
    },
  });
}

/**
 * The night's actions: the doors open (`open`: live to pass holders, a pre-show before the start, or the
 * night opened again after it was ended) and the night ended (`end`). Both copies of the settings reload.
 */
const NIGHT_ACTION_FAILED = { open: "Failed to open the doors.", end: "Failed to end the night.", cancel: "Failed to cancel the event." } as const;

/** The night's actions: open the doors, end the night, cancel the event (with the owner's note to the buyers). */
export function useNightAction(action: "open" | "end" | "cancel") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { note?: string } | void) => api.post<EventPhaseView>(`/api/admin/event/${action}`, body ?? {}),
    meta: { errorToast: (error: Error) => serverErrorMessage(error) ?? NIGHT_ACTION_FAILED[action] },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminSettingsQueryKey });
      void queryClient.invalidateQueries({ queryKey: livestreamSettingsQueryKey });
    },
  });
}
