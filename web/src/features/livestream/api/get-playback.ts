import { useQuery } from "@/lib/query";
import type { StreamPlayback } from "@contracts/stream";
import { api, ApiError } from "@/lib/api-client";

export const playbackQueryKey = ["stream", "playback"] as const;

/** A fresh address is fetched this long before the current one expires. */
const REFRESH_BEFORE_MS = 5 * 60_000;
/** After a failure other than a refusal (network, server), ask again this soon. */
const RETRY_MS = 5000;

export function getPlayback(): Promise<StreamPlayback> {
  return api.get<StreamPlayback>("/api/stream/playback");
}

/** The viewer's playback address, renewed before it expires (also in a background tab, where the video keeps playing). */
export function usePlayback(enabled: boolean) {
  return useQuery({
    queryKey: playbackQueryKey,
    queryFn: getPlayback,
    enabled,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (query.state.error) return query.state.error instanceof ApiError && [401, 403].includes(query.state.error.status) ? false : RETRY_MS;
      return data ? Math.max(10_000, Date.parse(data.expiresAt) - Date.now() - REFRESH_BEFORE_MS) : false;
    },
  });
}
