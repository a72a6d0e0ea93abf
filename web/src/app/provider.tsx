import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { AppErrorBoundary } from "@/components/app-update/app-error-boundary";
import { UpdateBar } from "@/components/app-update/update-bar";
import { Toaster } from "@/components/ui/toaster";
import { createQueryClient } from "@/lib/query-client";

/** App-wide providers: the query cache, the toast area, the update bar, and a card for a page that fails. */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AppErrorBoundary>{children}</AppErrorBoundary>
      <UpdateBar />
      <Toaster />
    </QueryClientProvider>
  );
}
