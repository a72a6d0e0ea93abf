import { useEffect } from "react";
import { toastError } from "@/hooks/use-toast";

/** Shows the destructive error toast each time a query fails (once per failed fetch, not per render). */
export function useQueryErrorToast(query: { isError: boolean; errorUpdatedAt: number }, description: string): void {
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) toastError(description);
  }, [isError, errorUpdatedAt, description]);
}
