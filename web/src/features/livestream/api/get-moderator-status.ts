import { useQuery } from "@/lib/query";
import type { ModeratorStatus } from "@contracts/access";
import { api } from "@/lib/api-client";

export function getModeratorStatus(): Promise<ModeratorStatus> {
  return api.get<ModeratorStatus>("/api/check-moderator-status");
}

/** Whether this viewer may moderate the chat; asked once access is verified. */
export function useModeratorStatus(enabled: boolean) {
  return useQuery({ queryKey: ["moderator-status"], queryFn: getModeratorStatus, enabled });
}
