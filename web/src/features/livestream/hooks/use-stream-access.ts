import { useCallback, useEffect, useRef, useState } from "react";
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
import { FAILED_ATTEMPTS_BEFORE_ERROR, reconnectDelay } from "@/lib/chat-socket";
import { getDeviceFingerprint } from "@/lib/fingerprint";
import { guardNavigation, isSpecialAccessCode, loopRecentlyStopped } from "@/lib/navigation-guard";
import { fetchStreamIdentity } from "@/lib/stream-identity";
import { LOCAL_KEYS, readLocal, readSession, SESSION_KEYS, writeLocal, writeSession } from "@/lib/storage";

export type StreamAccess =
  | { status: "verifying" }
  /**
   * Let in: a viewer with their code, or a signed-in admin (no code: the admin watches and moderates
   * under their own name, the server's session deciding).
   */
  | { status: "verified"; role: "viewer"; accessCode: string; username: string }
  | { status: "verified"; role: "admin"; accessCode: null; username: string }
  /**
   * The server could not answer (network, 5xx, too busy): asked again by itself with the chat's backoff.
   * `failures` in a row so far; from FAILED_ATTEMPTS_BEFORE_ERROR on, `failing` (the viewer is told).
   */
  | { status: "unreachable"; failures: number; failing: boolean }
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

export interface StreamAccessCheck {
  access: StreamAccess;
  /** Asks the server again now (the RECONNECT button while it could not be reached). */
  retry: () => void;
}

/**
 * On mount: checks the stored code, username and this device with the server (which also opens the
 * viewer session the chat needs). A refusal sends the viewer back to /access with a toast. No answer
 * (network, server) is asked again by itself, 1 s later and then 1.5× longer each time up to 30 s, as the
 * chat reconnects; after a streak of failures the viewer is told, and told no more once it answers.
 */
export function useStreamAccess(): StreamAccessCheck {
  const [location, navigate] = useLocation();
  const [access, setAccess] = useState<StreamAccess>({ status: "verifying" });
  const retryRef = useRef<() => void>(() => {});
  const retry = useCallback(() => retryRef.current(), []);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let failureNotice: { dismiss: () => void } | null = null;
    const leave = (why: ToastInput) => {
      toast({ variant: "destructive", ...why });
      setAccess({ status: "denied" });
      // Right after the loop guard stepped in, stay put rather than bounce again.
      if (!loopRecentlyStopped()) navigate(paths.access, { replace: true });
    };

    async function verify() {
      // A loop: the guard takes over, except that a special code is sent here, where it already is.
      if (guardNavigation(location, navigate) && !isSpecialAccessCode(readLocal(LOCAL_KEYS.accessCode))) return setAccess({ status: "denied" });
      // A signed-in admin needs no code, whatever this browser keeps (the server's rule: the admin's session first).
      const here = await fetchStreamIdentity();
      if (cancelled) return;
      if (here?.role === "admin" && here.username) return setAccess({ status: "verified", role: "admin", accessCode: null, username: here.username });
      const accessCode = readLocal(LOCAL_KEYS.accessCode);
      if (!accessCode) return leave(ACCESS_REQUIRED);
      const username = await chatName();
      if (cancelled) return;
      if (!username) return leave(USERNAME_REQUIRED);
      // /access has already said 'Access Granted' in this tab; a viewer arriving any other way is told here.
      const alreadyVerified = readSession(SESSION_KEYS.accessVerified) === "true";
      const special = isSpecialAccessCode(accessCode);
      let asking = false;

      const ask = async () => {
        clearTimeout(timer);
        asking = true;
        const judgement = await (special ? verifySpecialAccess : verifyStreamAccess)(accessCode, username);
        asking = false;
        if (cancelled) return;
        if (judgement.granted === null) {
          failures += 1;
          const failing = failures >= FAILED_ATTEMPTS_BEFORE_ERROR;
          if (failing) failureNotice ??= toast({ variant: "destructive", ...VERIFICATION_ERROR });
          setAccess({ status: "unreachable", failures, failing });
          timer = setTimeout(() => void ask(), reconnectDelay(failures - 1));
          return;
        }
        failureNotice?.dismiss();
        if (!judgement.granted) return leave({ title: ACCESS_DENIED_TITLE, description: judgement.reason });
        if (!alreadyVerified) {
          if (judgement.message) toast({ title: judgement.message, description: `Watching as ${username}.` });
          writeSession(SESSION_KEYS.accessVerified, "true");
          writeSession(SESSION_KEYS.verificationMethod, special ? "special-access" : "stream");
        }
        writeSession(SESSION_KEYS.verificationTimestamp, String(Date.now()));
        setAccess({ status: "verified", role: "viewer", accessCode, username });
      };
      retryRef.current = () => {
        if (!asking && !cancelled && failures > 0) void ask();
      };
      await ask();
    }

    void verify();
    return () => {
      cancelled = true;
      clearTimeout(timer);
      retryRef.current = () => {};
    };
    // Once per visit to the page.
  }, []);

  return { access, retry };
}
