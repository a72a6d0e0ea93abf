import { queryOptions } from "@/lib/query";
import type { PublicLivestreamSettings } from "@contracts/settings";
import { api } from "@/lib/api-client";
import { INLINE_SETTINGS_ID } from "@contracts/event-defaults";
import { DEFAULT_THUMBNAIL_URL } from "@/config/event";
import { useEarlyQuery } from "@/lib/query-cache";

/** The public event settings (title, start, thumbnail, player, counts), shared by the viewer pages. */
export function getLivestreamSettings(): Promise<PublicLivestreamSettings> {
  return api.get<PublicLivestreamSettings>("/api/livestream-settings");
}

export const livestreamSettingsQueryKey = ["livestream-settings"] as const;

/** The settings the server wrote into the page (undefined when it wrote none), read from it once. */
let served: PublicLivestreamSettings | undefined | null = null;
/** Whether the query cache has taken them: a cache cleared later (an admin signing out) asks the server. */
let taken = false;

function servedSettings(): PublicLivestreamSettings | undefined {
  if (served !== null) return served;
  served = undefined;
  const element = typeof document === "undefined" ? null : document.getElementById(INLINE_SETTINGS_ID);
  if (!element) return served;
  element.remove();
  try {
    served = JSON.parse(element.textContent ?? "") as PublicLivestreamSettings;
  } catch {}
  return served;
}

/**
 * The settings the server wrote into the landing or livestream page, taken once by the cache: its first
 * paint (title, banner, countdown with the date, price; the stream's title, start and counts) needs no
 * request. They carry no viewer's stream link; the livestream page asks for its own as soon as the viewer's
 * access is confirmed (and polls them).
 */
function takeServedSettings(): PublicLivestreamSettings | undefined {
  if (taken) return undefined;
  taken = true;
  return servedSettings();
}

export function livestreamSettingsQueryOptions() {
  return queryOptions({
    queryKey: livestreamSettingsQueryKey,
    queryFn: getLivestreamSettings,
    initialData: takeServedSettings,
  });
}

/** The public settings, also before the query cache is loaded (the landing page's first paint). */
export function useLivestreamSettings(options: { refetchInterval?: number | false } = {}) {
  return useEarlyQuery({ ...livestreamSettingsQueryOptions(), ...options }, servedSettings());
}

/** The banner image of the event: the uploaded thumbnail, or the default one. */
export function thumbnailOf(settings: PublicLivestreamSettings | undefined): string {
  return settings?.thumbnailData ?? (settings?.displayThumbnail || settings?.thumbnailUrl || DEFAULT_THUMBNAIL_URL);
}
