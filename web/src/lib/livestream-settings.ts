import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PublicLivestreamSettings } from "@contracts/settings";
import { api } from "@/lib/api-client";
import { INLINE_SETTINGS_ID } from "@contracts/event-defaults";
import { DEFAULT_THUMBNAIL_URL } from "@/config/event";

/** The public event settings (title, start, thumbnail, player, counts), shared by the viewer pages. */
export function getLivestreamSettings(): Promise<PublicLivestreamSettings> {
  return api.get<PublicLivestreamSettings>("/api/livestream-settings");
}

export const livestreamSettingsQueryKey = ["livestream-settings"] as const;

/**
 * The settings the server wrote into the landing or livestream page, taken once: its first paint (title,
 * banner, countdown with the date, price; the stream's title, start and counts) needs no request. They carry
 * no viewer's stream link; the livestream page asks for its own as soon as the viewer's access is confirmed
 * (and polls them).
 */
function inlineSettings(): PublicLivestreamSettings | undefined {
  if (typeof document === "undefined") return undefined;
  const element = document.getElementById(INLINE_SETTINGS_ID);
  if (!element) return undefined;
  element.remove();
  try {
    return JSON.parse(element.textContent ?? "") as PublicLivestreamSettings;
  } catch {
    return undefined;
  }
}

export function livestreamSettingsQueryOptions() {
  return queryOptions({
    queryKey: livestreamSettingsQueryKey,
    queryFn: getLivestreamSettings,
    initialData: inlineSettings,
  });
}

export function useLivestreamSettings(options: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...livestreamSettingsQueryOptions(), ...options });
}

/** The banner image of the event: the uploaded thumbnail, or the default one. */
export function thumbnailOf(settings: PublicLivestreamSettings | undefined): string {
  return settings?.thumbnailData ?? (settings?.displayThumbnail || settings?.thumbnailUrl || DEFAULT_THUMBNAIL_URL);
}
