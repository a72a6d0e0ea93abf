import { QueryClient } from "@tanstack/react-query";

/** Data is loaded once and kept: no refetch on focus or on an interval, always fresh, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
