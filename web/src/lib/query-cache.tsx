import { QueryClientContext } from "@tanstack/react-query";
import type { keepPreviousData, QueryClient, QueryKey, QueryObserver, QueryObserverOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, useEffect, useState, useSyncExternalStore, type ComponentType, type LazyExoticComponent } from "react";
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
  /** The library's hooks, which web/src/lib/query.ts hands to the screens. */
  library: QueryLibrary;
}

/** TanStack Query's parts a screen uses, loaded with the cache. */
export interface QueryLibrary {
  useQuery: typeof useQuery;
  useMutation: typeof useMutation;
  useQueryClient: typeof useQueryClient;
  keepPreviousData: typeof keepPreviousData;
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
      loaded = {
        client,
        Observer: m.QueryObserver,
        library: { useQuery: m.useQuery, useMutation: m.useMutation, useQueryClient: m.useQueryClient, keepPreviousData: m.keepPreviousData },
      };
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

/** The library, for a screen's hooks: a screen is only shown once the cache is loaded (`withQueryCache`, `inQueryCache`). */
export function queryLibrary(): QueryLibrary {
  if (!loaded) throw new Error("The query cache is used before it is loaded: show this part through withQueryCache or inQueryCache.");
  return loaded.library;
}

function onLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A part split off the first paint that reads the server: its code and the cache fetched together, the cache given to it. */
export async function inQueryCache<P extends object>(load: () => Promise<ComponentType<P>>): Promise<ComponentType<P>> {
  const [{ client }, Part] = await Promise.all([loadQueryCache(), load()]);
  return (props: P) => (
    <QueryClientContext value={client}>
      <Part {...props} />
    </QueryClientContext>
  );
}

/** A screen split off the first paint that reads the server (`inQueryCache`), loaded by the router. */
export function withQueryCache<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: await inQueryCache(load) }));
}

/** What the first paint's code reads of a query: the cache's own result once it is loaded. */
export interface EarlyQueryResult<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
}

type EarlyOptions<T, K extends QueryKey> = QueryObserverOptions<T, Error, T, T, K>;

/**
 * One hook's view of a query: what the page was served until the cache is loaded, then the cache's observer.
 * Its snapshot changes only when what it shows does, so the cache's arrival repaints nothing by itself.
 */
class EarlyObservation<T, K extends QueryKey> {
  private observer: QueryObserver<T, Error, T, T, K> | undefined;
  private snapshot: EarlyQueryResult<T>;

  constructor(
    private options: EarlyOptions<T, K>,
    served: T | undefined,
  ) {
    this.snapshot = { data: served, isPending: served === undefined, isError: false };
  }

  private bound(): QueryObserver<T, Error, T, T, K> | undefined {
    if (!this.observer && loaded) this.observer = new loaded.Observer(loaded.client, this.options);
    return this.observer;
  }

  read = (): EarlyQueryResult<T> => {
    const result = this.bound()?.getCurrentResult();
    if (result && (result.data !== this.snapshot.data || result.isPending !== this.snapshot.isPending || result.isError !== this.snapshot.isError)) {
      this.snapshot = { data: result.data, isPending: result.isPending, isError: result.isError };
    }
    return this.snapshot;
  };

  subscribe = (onChange: () => void): (() => void) => {
    let stop = () => {};
    const observe = () => {
      const observer = this.bound();
      if (!observer) return false;
      stop = observer.subscribe(onChange);
      onChange();
      return true;
    };
    if (!observe()) {
      const unlisten = onLoaded(() => {
        unlisten();
        observe();
      });
      stop = unlisten;
      this.askIfNothingServed();
    }
    return () => stop();
  };

  /** Nothing served to show and the query enabled, before the cache is here: it is needed at once, to ask the server. */
  private askIfNothingServed(): void {
    if (!this.observer && this.snapshot.data === undefined && this.options.enabled !== false) void loadQueryCache().catch(() => {});
  }

  /** Passes on the options that change between renders (whether it runs, how often it polls). */
  update(enabled: EarlyOptions<T, K>["enabled"], refetchInterval: EarlyOptions<T, K>["refetchInterval"]): void {
    if (this.options.enabled === enabled && this.options.refetchInterval === refetchInterval) return;
    this.options = { ...this.options, enabled, refetchInterval };
    this.observer?.setOptions(this.options);
    this.askIfNothingServed();
  }
}

/**
 * `useQuery` for the code the first paint runs (the landing page, the site's header and footer): the same
 * query, observed in the same cache, but until the cache's code is loaded it answers with `served` (what the
 * page was served with). With nothing served, an enabled query fetches the cache at once, to ask the server.
 */
export function useEarlyQuery<T, K extends QueryKey>(options: EarlyOptions<T, K>, served: T | undefined): EarlyQueryResult<T> {
  const [observation] = useState(() => new EarlyObservation(options, served));
  const { enabled, refetchInterval } = options;
  useEffect(() => observation.update(enabled, refetchInterval), [observation, enabled, refetchInterval]);
  return useSyncExternalStore(observation.subscribe, observation.read);
}
