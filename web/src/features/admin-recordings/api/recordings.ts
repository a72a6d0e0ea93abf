import { useMutation, useQuery, useQueryClient } from "@/lib/query";
import type { RecordingPatchBody, RecordingView } from "@contracts/replay";
import { api } from "@/lib/api-client";
import { recordingsQueryKey, recordingsQueryOptions, type RecordingsList } from "@/lib/admin-recordings";
import { serverMessageOr } from "@/lib/query-client";

/** The recordings, the space they take and what is left. */
export function useRecordings() {
  return useQuery(recordingsQueryOptions());
}

/** Where a recording's MP4 is downloaded from (what the replay plays of it, trims applied). */
export const recordingDownloadUrl = (id: number) => `/api/admin/recordings/${id}.mp4`;

/**
 * Renames, trims, hides or shows a recording. The card shows a refusal itself (a trim outside the
 * recording, an empty title), beside the fields it concerns; the list takes the saved recording at once.
 */
export function useUpdateRecording() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: RecordingPatchBody }) => api.patch<RecordingView>(`/api/admin/recordings/${id}`, change),
    meta: { errorToast: false },
    onSuccess: (saved) => {
      queryClient.setQueryData<RecordingsList>(recordingsQueryKey, (old) => (old ? { ...old, recordings: old.recordings.map((r) => (r.id === saved.id ? saved : r)) } : old));
    },
  });
}

/** Deletes a recording and its files; the list (and the space) is read again. */
export function useDeleteRecording() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ ok: true }>(`/api/admin/recordings/${id}`),
    meta: { errorToast: serverMessageOr("Could not delete the recording.") },
    onSettled: () => queryClient.invalidateQueries({ queryKey: recordingsQueryKey }),
  });
}
