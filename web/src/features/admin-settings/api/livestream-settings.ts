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
export function useNightAction(action: "open" | "end") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<EventPhaseView>(`/api/admin/event/${action}`, {}),
    meta: { errorToast: (error: Error) => serverErrorMessage(error) ?? (action === "open" ? "Failed to open the doors." : "Failed to end the night.") },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminSettingsQueryKey });
      void queryClient.invalidateQueries({ queryKey: livestreamSettingsQueryKey });
    },
  });
}
