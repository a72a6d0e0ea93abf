import { createElement, useEffect, useRef, useState, type ComponentType, type ReactNode } from "react";

/** After a part's code could not be fetched (the connection dropped), the next try this soon. */
export const PART_RETRY_MS = 3000;

interface Part {
  module?: unknown;
  loading?: Promise<unknown>;
}

const parts = new Map<() => Promise<unknown>, Part>();

/** The part's code, fetched once (again after a failed fetch): `load` is the part's one loader. */
export function loadPart<T>(load: () => Promise<T>): Promise<T> {
  let part = parts.get(load);
  if (!part) parts.set(load, (part = {}));
  if (part.module !== undefined) return Promise.resolve(part.module as T);
  const entry = part;
  entry.loading ??= load().then(
    (module) => {
      entry.module = module;
      return module;
    },
    (error: unknown) => {
      entry.loading = undefined;
      throw error;
    },
  );
  return entry.loading as Promise<T>;
}

interface PartOptions {
  /** Fetch it now (a dialog: once it is opened); true unless said. */
  wanted?: boolean;
  /**
   * A fetch that fails: for a dialog, the caller closes it and says why, and the next time it is wanted
   * its code is fetched again. Without it, the fetch is tried again every few seconds.
   */
  onFailed?: () => void;
}

/**
 * A split-off part of a screen that the screen goes on without until it comes (a player, a moderator's
 * tools, a dialog): its module once fetched, else null. A fetch that fails is tried again every few
 * seconds (or handed to `onFailed`), so the part appears once the connection is back, and the rest of the
 * screen never gives way to an error.
 */
export function useLazyPart<T>(load: () => Promise<T>, { wanted = true, onFailed }: PartOptions = {}): T | null {
  const [module, setModule] = useState<T | null>(() => (parts.get(load)?.module as T | undefined) ?? null);
  const failed = useRef(onFailed);
  failed.current = onFailed;
  useEffect(() => {
    if (!wanted || module !== null) return;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const attempt = () => {
      loadPart(load).then(
        (loaded) => {
          if (!stopped) setModule(() => loaded);
        },
        () => {
          if (stopped) return;
          if (failed.current) failed.current();
          else retry = setTimeout(attempt, PART_RETRY_MS);
        },
      );
    };
    attempt();
    return () => {
      stopped = true;
      clearTimeout(retry);
    };
  }, [load, wanted, module]);
  return module;
}

/**
 * A component of a split-off part, shown in place as soon as its code is in (`fallback` until then), its
 * fetch tried again while the connection is down: what `lazy()` is, without an error that takes the screen.
 */
export function lazyPart<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>, fallback: ReactNode = null): ComponentType<P> {
  return function LazyPart(props: P) {
    const part = useLazyPart(load);
    return part ? createElement(pick(part), props) : fallback;
  };
}
