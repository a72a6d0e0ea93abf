import { useSyncExternalStore } from "react";
import { LOCAL_STORAGE_CHANGE, readLocal, type LocalKey } from "@/lib/storage";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(LOCAL_STORAGE_CHANGE, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(LOCAL_STORAGE_CHANGE, onChange);
  };
}

/** A local-storage value that re-renders when this tab or another one changes it. */
export function useStoredValue(key: LocalKey): string | null {
  return useSyncExternalStore(
    subscribe,
    () => readLocal(key),
    () => null,
  );
}
