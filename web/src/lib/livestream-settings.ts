import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PublicLivestreamSettings } from "@contracts/settings";
import { api } from "@/lib/api-client";
import { DEFAULT_THUMBNAIL_URL } from "@/config/event";

/** The public event settings (title, start, thumbnail, player, counts), shared by the viewer pages. */
export function getLivestreamSettings(): Promise<PublicLivestreamSettings> {
  return api.get<PublicLivestreamSettings>("/api/livestream-settings");
}

export const livestreamSettingsQueryKey = ["livestream-settings"] as const;

export function livestreamSettingsQueryOptions() {
  return queryOptions({ queryKey: livestreamSettingsQueryKey, queryFn: getLivestreamSettings });
}

export function useLivestreamSettings(options: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...livestreamSettingsQueryOptions(), ...options });
}

/** The banner image of the event: the uploaded thumbnail, or the default one. */
export function thumbnailOf(settings: PublicLivestreamSettings | undefined): string {
  return settings?.thumbnailData ?? (settings?.displayThumbnail || settings?.thumbnailUrl || DEFAULT_THUMBNAIL_URL);
}
