import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import type { AccessVerdict, VerifyStreamAccessBody } from "@contracts/access";
import { ACCESS_MESSAGES } from "@contracts/access-messages";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { api } from "@/lib/api-client";
import { getDeviceFingerprint } from "@/lib/fingerprint";
import { guardNavigation, isSpecialAccessCode, loopRecentlyStopped } from "@/lib/navigation-guard";
import { LOCAL_KEYS, readLocal, readSession, SESSION_KEYS, writeSession } from "@/lib/storage";

export type StreamAccess =
  | { status: "verifying" }
  | { status: "verified"; accessCode: string; username: string }
  /** Verification could not be done (network, server): the chat cannot connect. */
  | { status: "error" }
  /** Refused or redirected: the page is on its way out. */
  | { status: "denied" };

export const ACCESS_DENIED = { title: "Access Denied", description: "Your access code has expired or is not valid." };
export const USERNAME_REQUIRED = { title: "Username Required", description: "Please enter a username to join the livestream chat." };
export const VERIFICATION_ERROR = { title: "Verification Error", description: "There was a problem verifying your access. Please try again." };

/** Refusals whose own wording tells the viewer more than "expired or not valid". */
const SPECIFIC_REFUSALS: string[] = [ACCESS_MESSAGES.wrongDevice, ACCESS_MESSAGES.banned, ACCESS_MESSAGES.usernameTaken, ACCESS_MESSAGES.usernameReserved];

export function verifyStreamAccess(body: VerifyStreamAccessBody): Promise<AccessVerdict> {
  return api.post<AccessVerdict>("/api/verify-stream-access", body);
}

/**
 * On mount: checks the stored code, username and this device with the server (which also opens the
 * viewer session the chat needs). A refusal sends the viewer back to /access with a toast.
 */
export function useStreamAccess(): StreamAccess {
  const [location, navigate] = useLocation();
  const [access, setAccess] = useState<StreamAccess>({ status: "verifying" });

  useEffect(() => {
    let cancelled = false;
    const leave = () => {
      setAccess({ status: "denied" });
      // Right after the loop guard stepped in, stay put rather than bounce again.
      if (!loopRecentlyStopped()) navigate(paths.access, { replace: true });
    };

    async function verify() {
      // A loop: the guard takes over, except that a special code is sent here, where it already is.
      if (guardNavigation(location, navigate) && !isSpecialAccessCode(readLocal(LOCAL_KEYS.accessCode))) return setAccess({ status: "denied" });
      const accessCode = readLocal(LOCAL_KEYS.accessCode);
      const username = readLocal(LOCAL_KEYS.username) ?? readSession(SESSION_KEYS.username);
      if (!accessCode) return leave();
      if (!username) {
        toast({ variant: "destructive", ...USERNAME_REQUIRED });
        return leave();
      }
      try {
        const deviceFingerprint = await getDeviceFingerprint();
        const verdict = await verifyStreamAccess({ accessCode, username, deviceFingerprint });
        if (cancelled) return;
        if (!verdict.valid) {
          const description = SPECIFIC_REFUSALS.includes(verdict.message) ? verdict.message : ACCESS_DENIED.description;
          toast({ variant: "destructive", title: ACCESS_DENIED.title, description });
          return leave();
        }
        writeSession(SESSION_KEYS.accessVerified, "true");
        writeSession(SESSION_KEYS.verificationTimestamp, String(Date.now()));
        writeSession(SESSION_KEYS.verificationMethod, "stream");
        setAccess({ status: "verified", accessCode, username });
      } catch {
        if (cancelled) return;
        toast({ variant: "destructive", ...VERIFICATION_ERROR });
        setAccess({ status: "error" });
      }
    }

    void verify();
    return () => {
      cancelled = true;
    };
    // Once per visit to the page.
  }, []);

  return access;
}
