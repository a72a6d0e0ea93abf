import { confirmIdentity, refusalOf } from "@/lib/step-up";

/**
 * The one HTTP client of the web app. Every request sends credentials; bodies are JSON (or FormData);
 * any non-OK response throws an ApiError whose message is `${status}: ${bodyText || statusText}`. An admin
 * call refused for a stale proof (403 `reauth`) first asks the member to confirm it's them and is sent again.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = "ApiError";
  }

  /** The server's `{ error }` message, when the body carries one. */
  get serverMessage(): string | null {
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      if (parsed && typeof parsed === "object" && "error" in parsed && typeof parsed.error === "string") return parsed.error;
    } catch {
      // not JSON: no server message
    }
    return null;
  }
}

/** The server's `{ error }` message of a failed request, or null. */
export function serverErrorMessage(error: unknown): string | null {
  return error instanceof ApiError ? error.serverMessage : null;
}

export interface RequestOptions {
  /** "returnNull" turns a 401 into a null result instead of an error. */
  on401?: "throw" | "returnNull";
  signal?: AbortSignal;
}

/** Fired when an admin call is refused for want of a session (it expired, or another tab logged out). */
export const ADMIN_SESSION_LOST_EVENT = "dreadcast:admin-session-lost";
/** Fired when an admin call is refused until the member sets up two-factor sign-in (403 `{ enrol: true }`). */
export const ADMIN_ENROL_NEEDED_EVENT = "dreadcast:admin-enrol-needed";
/** Fired when an admin call is refused for the member's role (403): an owner may have just changed it. */
export const ADMIN_ROLE_REFUSED_EVENT = "dreadcast:admin-role-refused";

// Login answers 401 for a wrong password, and the profile check is what the admin layout already handles.
function isAdminDataCall(path: string): boolean {
  return path.startsWith("/api/admin/") && path !== "/api/admin/login" && path !== "/api/admin/profile";
}

async function request<T>(method: string, path: string, body: unknown, options: RequestOptions, mayStepUp = true): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(path, { method, headers, body: payload, credentials: "include", signal: options.signal });
  if (response.status === 401 && isAdminDataCall(path)) window.dispatchEvent(new Event(ADMIN_SESSION_LOST_EVENT));
  // The body is always read, even when it is not used, so the response completes.
  const text = await response.text();
  if (response.status === 401 && options.on401 === "returnNull") return null as T;
  if (response.status === 403 && isAdminDataCall(path)) {
    const refusal = refusalOf(text);
    if (refusal.enrol) window.dispatchEvent(new Event(ADMIN_ENROL_NEEDED_EVENT));
    // A stale proof: once the member confirms it's them, the same call goes again (once).
    else if (refusal.reauth && mayStepUp && (await confirmIdentity())) return request<T>(method, path, body, options, false);
    else if (!refusal.reauth) window.dispatchEvent(new Event(ADMIN_ROLE_REFUSED_EVENT));
  }
  if (!response.ok) throw new ApiError(response.status, text, response.statusText);
  if (!text) return null as T;
  const type = response.headers.get("content-type") ?? "";
  return (type.includes("json") ? JSON.parse(text) : text) as T;
}

export const api = {
  get: <T>(path: string, options: RequestOptions = {}) => request<T>("GET", path, undefined, options),
  post: <T>(path: string, body?: unknown, options: RequestOptions = {}) => request<T>("POST", path, body, options),
  put: <T>(path: string, body?: unknown, options: RequestOptions = {}) => request<T>("PUT", path, body, options),
  patch: <T>(path: string, body?: unknown, options: RequestOptions = {}) => request<T>("PATCH", path, body, options),
  delete: <T>(path: string, options: RequestOptions = {}) => request<T>("DELETE", path, undefined, options),
};
