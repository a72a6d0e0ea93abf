import { QueryClientContext } from "@tanstack/react-query";
import type { QueryClient, QueryKey, QueryObserver, QueryObserverOptions } from "@tanstack/react-query";
import { lazy, useCallback, useEffect, useMemo, useSyncExternalStore, type ComponentType, type LazyExoticComponent } from "react";
import { importFresh } from "@/lib/app-version";

/**
 * The query cache (TanStack Query) is how the web app reads the server, but its code is not part of the
 * landing page's first paint: that page is drawn from the settings the server wrote into it. The cache is
 * fetched once the page is idle, on a hint of a screen that needs it, or at once by a screen that reads the
 * server (`withQueryCache`), and there is one cache for the page's life.
 */
export interface LoadedQueryCache {
  client: QueryClient;
  Observer: typeof QueryObserver;
}

let loaded: LoadedQueryCache | undefined;
let loading: Promise<LoadedQueryCache> | undefined;
const listeners = new Set<() => void>();

/** The query cache, fetched on first call (again after a failed fetch). */
export function loadQueryCache(): Promise<LoadedQueryCache> {
  loading ??= importFresh(() => import("@/lib/query-client")).then(
    (m) => {
      const client = m.createQueryClient();
      client.mount();
      loaded = { client, Observer: m.QueryObserver };
      for (const listener of listeners) listener();
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

function onLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A screen split off the first paint that reads the server: its code and the cache fetched together, the cache given to it. */
export function withQueryCache<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => {
    const [{ client }, Screen] = await Promise.all([loadQueryCache(), load()]);
    return {
      default: (props: P) => (
        <QueryClientContext value={client}>
          <Screen {...props} />
        </QueryClientContext>
      ),
    };
  });
}

/** What the first paint's code reads of a query: the cache's own result once it is loaded. */
export interface EarlyQueryResult<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
}

const noSubscription = () => () => {};

/**
 * `useQuery` for the code the first paint runs (the landing page, the site's header and footer): the same
 * query, observed in the same cache, but until the cache's code is loaded it answers with `served` (what the
 * page was served with). With nothing served, an enabled query fetches the cache at once, to ask the server.
 */
export function useEarlyQuery<T, K extends QueryKey>(options: QueryObserverOptions<T, Error, T, T, K>, served: T | undefined): EarlyQueryResult<T> {
  const cache = useSyncExternalStore(onLoaded, () => loaded);
  const { enabled, refetchInterval } = options;
  const waiting = !cache && served === undefined && enabled !== false;
  useEffect(() => {
    if (waiting) void loadQueryCache().catch(() => {});
  }, [waiting]);

  // Created with the options of the render that first has the cache; the two that change are passed on below.
  const observer = useMemo(() => (cache ? new cache.Observer(cache.client, options) : undefined), [cache]);
  useEffect(() => {
    observer?.setOptions({ ...observer.options, enabled, refetchInterval });
  }, [observer, enabled, refetchInterval]);

  const subscribe = useCallback((onChange: () => void) => observer?.subscribe(onChange) ?? (() => {}), [observer]);
  const before = useMemo<EarlyQueryResult<T>>(() => ({ data: served, isPending: served === undefined, isError: false }), [served]);
  const result = useSyncExternalStore(observer ? subscribe : noSubscription, () => (observer ? observer.getCurrentResult() : before));
  return result;
}
