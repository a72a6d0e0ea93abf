import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export function uploadThumbnail(file: File): Promise<{ thumbnailUrl: string }> {
  const form = new FormData();
  form.append("thumbnail", file);
  return api.post<{ thumbnailUrl: string }>("/api/admin/upload-thumbnail", form);
}

export function useUploadThumbnail() {
  return useMutation({ mutationFn: uploadThumbnail });
}
