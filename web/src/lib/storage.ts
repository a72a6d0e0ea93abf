/** Keys the app keeps in the browser's local storage. */
export const LOCAL_KEYS = {
  accessCode: "accessCode",
  username: "username",
  email: "email",
  deviceToken: "device_token",
  deviceFingerprint: "device_fingerprint",
  paymentIntentId: "paymentIntentId",
  loopPreventionTimestamp: "loopPreventionTimestamp",
} as const;

/** Keys the app keeps in the tab's session storage. */
export const SESSION_KEYS = {
  accessVerified: "accessVerified",
  verificationTimestamp: "verificationTimestamp",
  verificationMethod: "verificationMethod",
  username: "username",
  deviceToken: "device_token",
  forcedAccess: "forcedAccess",
  navHistory: "navHistory",
  reloadedForBuild: "reloadedForBuild",
  policyReloadFor: "policyReloadFor",
} as const;

export type LocalKey = (typeof LOCAL_KEYS)[keyof typeof LOCAL_KEYS];

/** Fired on window when this tab changes local storage (the "storage" event only reaches other tabs). */
export const LOCAL_STORAGE_CHANGE = "dreadcast:local-storage";

type StorageKind = "localStorage" | "sessionStorage";

/**
 * Storage can throw on any call (privacy modes, a full quota, storage turned off). A refused write or
 * removal is kept in memory for this page instead (null: removed), so the page goes on as if it had been
 * stored; a failing read is "nothing stored".
 */
function keptIn(kind: StorageKind) {
  const unsaved = new Map<string, string | null>();
  const attempt = (key: string, change: (storage: Storage) => void, fallback: string | null) => {
    try {
      change(window[kind]);
      unsaved.delete(key);
    } catch {
      unsaved.set(key, fallback);
    }
  };
  return {
    read(key: string): string | null {
      if (unsaved.has(key)) return unsaved.get(key) ?? null;
      try {
        return window[kind].getItem(key);
      } catch {
        return null;
      }
    },
    write: (key: string, value: string) => attempt(key, (storage) => storage.setItem(key, value), value),
    remove: (key: string) => attempt(key, (storage) => storage.removeItem(key), null),
  };
}

const local = keptIn("localStorage");
const session = keptIn("sessionStorage");

function announce(key: LocalKey): void {
  window.dispatchEvent(new CustomEvent(LOCAL_STORAGE_CHANGE, { detail: key }));
}

export function readLocal(key: LocalKey): string | null {
  return local.read(key);
}

export function writeLocal(key: LocalKey, value: string): void {
  local.write(key, value);
  announce(key);
}

export function removeLocal(key: LocalKey): void {
  local.remove(key);
  announce(key);
}

export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];

export function readSession(key: SessionKey): string | null {
  return session.read(key);
}

export function writeSession(key: SessionKey, value: string): void {
  session.write(key, value);
}

export function removeSession(key: SessionKey): void {
  session.remove(key);
}
