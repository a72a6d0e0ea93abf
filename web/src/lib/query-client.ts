import { MutationCache, QueryClient } from "@tanstack/react-query";

// The library's parts the screens use, loaded with the cache and handed to them by web/src/lib/query.ts, and
// what the first paint's code observes the cache with (web/src/lib/query-cache.tsx).
export { keepPreviousData, QueryObserver, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast, type ToastInput } from "@/hooks/use-toast";
import { serverErrorMessage } from "@/lib/api-client";

/**
 * What a failed mutation tells the user, declared once with the mutation as `meta: { errorToast }`: a text
 * is the description of the toast titled "Error"; a function words it from the error (with a title of its
 * own, or null when the screen shows that failure itself); false means the screen shows every failure.
 */
export type ErrorToast = string | false | ((error: Error) => string | { title: string; description: string } | null);

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: { errorToast?: ErrorToast };
  }
}

/** The server's own words for a refusal (`{ error }`), else `fallback`. */
export function serverMessageOr(fallback: string): (error: Error) => string {
  return (error) => serverErrorMessage(error) ?? fallback;
}

/** A mutation that declares no wording: the server's words, else a plain apology. */
const UNWORDED = serverMessageOr("Something went wrong. Please try again.");

/** The toast a failed mutation shows, or null when it shows none. */
export function mutationErrorToast(error: Error, errorToast: ErrorToast | undefined): ToastInput | null {
  const worded = typeof errorToast === "function" ? errorToast(error) : (errorToast ?? UNWORDED(error));
  if (worded === false || worded === null) return null;
  return typeof worded === "string" ? { variant: "destructive", title: "Error", description: worded } : { variant: "destructive", ...worded };
}

/**
 * Data is loaded once and kept: no refetch on focus or on an interval, always fresh, no retries. A failed
 * mutation is reported here, once for the whole app, as its `meta.errorToast` words it (`show` is the toast).
 */
export function createQueryClient(show: (input: ToastInput) => unknown = toast): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        const shown = mutationErrorToast(error, mutation.meta?.errorToast);
        if (shown) show(shown);
      },
    }),
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
