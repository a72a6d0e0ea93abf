import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import type { VerifyAccessBody, VerifyStreamAccessBody, ViewerProfile } from "@contracts/access";
import { paths } from "@/config/paths";
import { toast, type ToastInput } from "@/hooks/use-toast";
import {
  ACCESS_DENIED_TITLE,
  ACCESS_REQUIRED,
  USERNAME_REQUIRED,
  VERIFICATION_ERROR,
  answerOf,
  judgeSpecialAccess,
  judgeStreamVerdict,
  type StreamJudgement,
} from "@/lib/access-verdicts";
import { api } from "@/lib/api-client";
import { getDeviceFingerprint } from "@/lib/fingerprint";
import { guardNavigation, isSpecialAccessCode, loopRecentlyStopped } from "@/lib/navigation-guard";
import { LOCAL_KEYS, readLocal, readSession, SESSION_KEYS, writeLocal, writeSession } from "@/lib/storage";

export type StreamAccess =
  | { status: "verifying" }
  | { status: "verified"; accessCode: string; username: string }
  /** Verification could not be done (network, server): the chat cannot connect. */
  | { status: "error" }
  /** Refused or redirected: the page is on its way out. */
  | { status: "denied" };

/** POST /api/verify-stream-access: the code, the name and this device. Opens the viewer session. */
async function verifyStreamAccess(accessCode: string, username: string): Promise<StreamJudgement> {
  const ask = async () => {
    const body: VerifyStreamAccessBody = { accessCode, username, deviceFingerprint: await getDeviceFingerprint() };
    return api.post("/api/verify-stream-access", body);
  };
  return judgeStreamVerdict(await answerOf(ask()));
}

/** POST /api/verify-special-access for MOD- and SCP- codes, which skip the device check. Opens the viewer session. */
async function verifySpecialAccess(accessCode: string, username: string): Promise<StreamJudgement> {
  const body: VerifyAccessBody = { accessCode, username };
  return judgeSpecialAccess(await answerOf(api.post("/api/verify-special-access", body)));
}

/** The chat name stored in this browser, else the one the viewer's session holds (GET /api/user-data), kept for next time. */
async function chatName(): Promise<string | null> {
  const stored = readLocal(LOCAL_KEYS.username) ?? readSession(SESSION_KEYS.username);
  if (stored) return stored;
  try {
    const profile = await api.get<ViewerProfile | null>("/api/user-data", { on401: "returnNull" });
    if (!profile?.username) return null;
    writeLocal(LOCAL_KEYS.username, profile.username);
    writeSession(SESSION_KEYS.username, profile.username);
    return profile.username;
  } catch {
    return null;
  }
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
    const leave = (why: ToastInput) => {
      toast({ variant: "destructive", ...why });
      setAccess({ status: "denied" });
      // Right after the loop guard stepped in, stay put rather than bounce again.
      if (!loopRecentlyStopped()) navigate(paths.access, { replace: true });
    };

    async function verify() {
      // A loop: the guard takes over, except that a special code is sent here, where it already is.
      if (guardNavigation(location, navigate) && !isSpecialAccessCode(readLocal(LOCAL_KEYS.accessCode))) return setAccess({ status: "denied" });
      const accessCode = readLocal(LOCAL_KEYS.accessCode);
      if (!accessCode) return leave(ACCESS_REQUIRED);
      const username = await chatName();
      if (cancelled) return;
      if (!username) return leave(USERNAME_REQUIRED);
      // /access has already said 'Access Granted' in this tab; a viewer arriving any other way is told here.
      const alreadyVerified = readSession(SESSION_KEYS.accessVerified) === "true";
      const special = isSpecialAccessCode(accessCode);
      const judgement = await (special ? verifySpecialAccess : verifyStreamAccess)(accessCode, username);
      if (cancelled) return;
      if (judgement.granted === null) {
        toast({ variant: "destructive", ...VERIFICATION_ERROR });
        return setAccess({ status: "error" });
      }
      if (!judgement.granted) return leave({ title: ACCESS_DENIED_TITLE, description: judgement.reason });
      if (!alreadyVerified) {
        if (judgement.message) toast({ title: judgement.message, description: `Watching as ${username}.` });
        writeSession(SESSION_KEYS.accessVerified, "true");
        writeSession(SESSION_KEYS.verificationMethod, special ? "special-access" : "stream");
      }
      writeSession(SESSION_KEYS.verificationTimestamp, String(Date.now()));
      setAccess({ status: "verified", accessCode, username });
    }

    void verify();
    return () => {
      cancelled = true;
    };
    // Once per visit to the page.
  }, []);

  return access;
}
