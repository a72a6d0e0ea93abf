import { useMutation } from "@/lib/query";
import { api, serverErrorMessage } from "@/lib/api-client";

export function uploadThumbnail(file: File): Promise<{ thumbnailUrl: string }> {
  const form = new FormData();
  form.append("thumbnail", file);
  return api.post<{ thumbnailUrl: string }>("/api/admin/upload-thumbnail", form);
}

/** The server says why it refused the file (not an image, too large, empty). */
export function useUploadThumbnail() {
  return useMutation({
    mutationFn: uploadThumbnail,
    meta: { errorToast: (error) => ({ title: "Failed to upload thumbnail.", description: serverErrorMessage(error) ?? "Please try again." }) },
  });
}
