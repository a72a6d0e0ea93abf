import { useEffect, useRef } from "react";
import { useQuery, useQueryClient } from "@/lib/query";
import { ROLE_LABELS, type Role } from "@contracts/team";
import { toast, toastError } from "@/hooks/use-toast";
import { adminAuthKeys, adminProfileQueryOptions } from "@/lib/admin-auth";
import { ADMIN_ROLE_REFUSED_EVENT, ADMIN_SESSION_LOST_EVENT, ApiError } from "@/lib/api-client";

/**
 * How often the open panel reads the member's profile again: the server's events say a change at once,
 * and this catches what a dropped event stream missed.
 */
export const PROFILE_RECHECK_MS = 10_000;
/** The server's events for the open panel: `profile` when an owner changed this member's role or sessions. */
const ADMIN_EVENTS_URL = "/api/admin/events";

/** The server's 401 when it knows nothing more than that there is no session. */
const NOT_LOGGED_IN = "Not logged in";

/** What the member is told when an owner changed their role while the panel was open. */
export function roleChangedToast(role: Role) {
  return { title: "Your role changed", description: `An owner changed your role to ${ROLE_LABELS[role]}.` };
}

/**
 * The signed-in member's profile, kept up with the team: read again at once when the server's event
 * stream says an owner changed the member, after any admin call refused for want of a session (401) or for
 * the role (403), when the window is looked at again, and every few seconds. A new role is said in a toast, and what was loaded under the old one is dropped (the menu and the
 * page follow the profile); a session that ended calls `onSignedOut` with the server's reason, or the
 * spec's 'Failed to fetch admin profile' when there is none. A failure that is not a 401 (the server
 * restarting) keeps the panel as it is once it has a profile.
 */
export function useFollowedProfile(onSignedOut: () => void) {
  const queryClient = useQueryClient();
  const profile = useQuery({ ...adminProfileQueryOptions(), refetchInterval: PROFILE_RECHECK_MS, refetchOnWindowFocus: true });
  const role = profile.data?.role;
  const knownRole = useRef<Role | undefined>(undefined);
  const signedOut = useRef(onSignedOut);
  signedOut.current = onSignedOut;

  const signedIn = profile.data !== undefined;
  useEffect(() => {
    const recheck = () => void queryClient.invalidateQueries({ queryKey: adminAuthKeys.profile, exact: true });
    window.addEventListener(ADMIN_SESSION_LOST_EVENT, recheck);
    window.addEventListener(ADMIN_ROLE_REFUSED_EVENT, recheck);
    // The server says at once when an owner changed this member (the browser reopens a dropped stream itself).
    const pushed = signedIn && typeof EventSource === "function" ? new EventSource(ADMIN_EVENTS_URL) : null;
    pushed?.addEventListener("profile", recheck);
    return () => {
      window.removeEventListener(ADMIN_SESSION_LOST_EVENT, recheck);
      window.removeEventListener(ADMIN_ROLE_REFUSED_EVENT, recheck);
      pushed?.close();
    };
  }, [queryClient, signedIn]);

  useEffect(() => {
    if (!role) return;
    const before = knownRole.current;
    knownRole.current = role;
    if (!before || before === role) return;
    toast(roleChangedToast(role));
    // Loaded under the old role (buyers' e-mails, payments): dropped, and read again as the new role may.
    void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] === "admin" && query.queryKey[1] !== "profile" });
  }, [role, queryClient]);

  const error = profile.error;
  useEffect(() => {
    if (!error) return;
    const unauthorized = error instanceof ApiError && error.status === 401;
    if (!unauthorized && signedIn) return;
    const reason = error instanceof ApiError ? error.serverMessage : null;
    if (unauthorized && reason && reason !== NOT_LOGGED_IN) toast({ variant: "destructive", title: "Signed out", description: reason });
    else toastError("Failed to fetch admin profile");
    signedOut.current();
  }, [error, signedIn]);

  return profile;
}
