import { useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { IngestView, StreamKeyAnswer, StreamPlayback } from "@contracts/stream";
import { api } from "@/lib/api-client";
import { ingestQueryKey, ingestQueryOptions } from "@/lib/admin-stream";
import { serverMessageOr } from "@/lib/query-client";

/** The built-in ingest (server address, the publisher's figures; not the key), polled while the card shows it. */
export function useIngest(enabled: boolean) {
  return useQuery(ingestQueryOptions(enabled));
}

/**
 * The stream key, asked for when the admin reveals or copies it: the server wants a fresh proof (the
 * panel's "Confirm it's you" dialog opens) and logs it. Kept by the card only while it is shown.
 */
export function useRevealStreamKey() {
  return useMutation({
    mutationFn: () => api.post<StreamKeyAnswer>("/api/admin/ingest/reveal-key"),
    meta: { errorToast: serverMessageOr("Could not show the stream key.") },
  });
}

/** A new stream key; the publisher using the old one is dropped. */
export function useRotateStreamKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<StreamKeyAnswer>("/api/admin/ingest/rotate-key"),
    meta: { errorToast: serverMessageOr("Failed to rotate the stream key.") },
    onSuccess: () => {
      queryClient.setQueryData<IngestView>(ingestQueryKey, (old) => (old ? { ...old, live: false, publisher: null } : old));
      void queryClient.invalidateQueries({ queryKey: ingestQueryKey });
    },
  });
}

/** The admin's own playback address, for the preview (the same the viewers get, opened by the admin session). */
export function usePreviewPlayback(enabled: boolean) {
  return useQuery({
    queryKey: ["admin", "preview-playback"],
    queryFn: () => api.get<StreamPlayback>("/api/stream/playback?preview=1"),
    enabled,
    // No address until the first seconds of video are packaged: asked again soon.
    refetchInterval: (query) => (query.state.data?.url ? 60_000 : 3000),
    retry: false,
  });
}
