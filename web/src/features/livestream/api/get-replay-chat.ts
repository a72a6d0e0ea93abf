import { useQuery } from "@/lib/query";
import type { ReplayChat } from "@contracts/replay";
import { api } from "@/lib/api-client";

export const replayChatQueryKey = ["stream", "replay-chat"] as const;

export function getReplayChat(): Promise<ReplayChat> {
  return api.get<ReplayChat>("/api/stream/replay-chat");
}

/** The night's chat as it happened, fetched once while the replay plays (the page shows what the video has reached). */
export function useReplayChat(enabled: boolean) {
  return useQuery({ queryKey: replayChatQueryKey, queryFn: getReplayChat, enabled });
}
