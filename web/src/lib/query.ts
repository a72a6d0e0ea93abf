import { queryLibrary, type QueryLibrary } from "@/lib/query-cache";

/**
 * How the screens read and change the server's data: TanStack Query's hooks, imported from here. The library
 * is one split-off file that arrives with the query cache (web/src/lib/query-client.ts), before any screen
 * that reads the server is shown (`withQueryCache`, `inQueryCache`); each hook here hands over to it. So the
 * library is one file, whichever screens use which of its parts, rather than a file for each mix of them.
 * Types come from "@tanstack/react-query" itself (`import type`).
 */

/** A hook of the loaded library, under the same name and type. */
function handedOver<K extends keyof QueryLibrary>(name: K): QueryLibrary[K] {
  const hook = (...args: unknown[]): unknown => (queryLibrary()[name] as (...args: unknown[]) => unknown)(...args);
  return hook as QueryLibrary[K];
}

export const useQuery = handedOver("useQuery");
export const useMutation = handedOver("useMutation");
export const useQueryClient = handedOver("useQueryClient");
export const keepPreviousData = handedOver("keepPreviousData");

// A typed identity (options in, the same options out), which the first paint's code uses before the library is here.
export { queryOptions } from "@tanstack/react-query";
