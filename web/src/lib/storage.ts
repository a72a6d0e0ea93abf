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
} as const;

export type LocalKey = (typeof LOCAL_KEYS)[keyof typeof LOCAL_KEYS];

/** Fired on window when this tab changes local storage (the "storage" event only reaches other tabs). */
export const LOCAL_STORAGE_CHANGE = "dreadcast:local-storage";

// Storage can throw (privacy modes, quota): a failing read is "nothing stored".
export function readLocal(key: LocalKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeLocal(key: LocalKey, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } finally {
    window.dispatchEvent(new CustomEvent(LOCAL_STORAGE_CHANGE, { detail: key }));
  }
}

export function removeLocal(key: LocalKey): void {
  try {
    window.localStorage.removeItem(key);
  } finally {
    window.dispatchEvent(new CustomEvent(LOCAL_STORAGE_CHANGE, { detail: key }));
  }
}

export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];

export function readSession(key: SessionKey): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeSession(key: SessionKey, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // storage unavailable: the tab simply forgets
  }
}

export function removeSession(key: SessionKey): void {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // storage unavailable: nothing to remove
  }
}
