import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { StreamSourceBody, StreamSourceView } from "@contracts/stream";
import { api } from "@/lib/api-client";

const streamSourceQueryKey = ["admin", "stream-source"] as const;

export function getStreamSource(): Promise<StreamSourceView> {
  return api.get<StreamSourceView>("/api/admin/stream-source");
}

export function useStreamSource() {
  return useQuery(queryOptions({ queryKey: streamSourceQueryKey, queryFn: getStreamSource }));
}

export function saveStreamSource(body: StreamSourceBody): Promise<StreamSourceView> {
  return api.put<StreamSourceView>("/api/admin/stream-source", body);
}

/** Saves the source; the answer (secrets masked) becomes the admin copy. */
export function useSaveStreamSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveStreamSource,
    onSuccess: (saved) => queryClient.setQueryData(streamSourceQueryKey, saved),
  });
}
