import { queryOptions, useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { ChatRules } from "@contracts/moderation";
import { api } from "@/lib/api-client";
import { serverMessageOr } from "@/lib/query-client";

const chatRulesQueryKey = ["admin", "chat-rules"] as const;

export function getChatRules(): Promise<ChatRules> {
  return api.get<ChatRules>("/api/admin/chat-rules");
}

/** The chat's rules; not loaded for a role that may not set them (`enabled` false). */
export function useChatRules(enabled = true) {
  return useQuery(queryOptions({ queryKey: chatRulesQueryKey, queryFn: getChatRules, enabled }));
}

export function saveChatRules(rules: ChatRules): Promise<ChatRules> {
  return api.put<ChatRules>("/api/admin/chat-rules", rules);
}

/** Saves the rules (they apply to the next chat line); the log shows the change. */
export function useSaveChatRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveChatRules,
    meta: { errorToast: serverMessageOr("Failed to save the chat rules.") },
    onSuccess: (saved) => {
      queryClient.setQueryData(chatRulesQueryKey, saved);
      void queryClient.invalidateQueries({ queryKey: ["admin", "moderation-log"] });
    },
  });
}
