import { useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { StreamSourceBody, StreamSourceView } from "@contracts/stream";
import { api } from "@/lib/api-client";
import { ingestQueryKey, streamSourceQueryKey, streamSourceQueryOptions } from "@/lib/admin-stream";
import type { ErrorToast } from "@/lib/query-client";

export function useStreamSource() {
  return useQuery(streamSourceQueryOptions());
}

export function saveStreamSource(body: StreamSourceBody): Promise<StreamSourceView> {
  return api.put<StreamSourceView>("/api/admin/stream-source", body);
}

/**
 * Saves the source; the answer (secrets masked) becomes the admin copy, and the ingest's state is asked again.
 * `errorToast` leaves out the refusals the card shows beside its fields.
 */
export function useSaveStreamSource(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveStreamSource,
    meta: { errorToast },
    onSuccess: (saved) => {
      queryClient.setQueryData(streamSourceQueryKey, saved);
      void queryClient.invalidateQueries({ queryKey: ingestQueryKey });
    },
  });
}
