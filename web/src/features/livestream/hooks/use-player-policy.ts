import { useEffect, useRef } from "react";
import { SESSION_KEYS, readSession, writeSession } from "@/lib/storage";

/** The policy directives a player needs: its frame, or the relay's video and the worker that feeds it. */
const PLAYER_DIRECTIVES = new Set(["frame-src", "child-src", "media-src", "worker-src"]);

/** What a reload is for: the player's origin (the relay's is the page's own). */
export function playerSource(playbackUrl: string, pageOrigin: string): string {
  return URL.canParse(playbackUrl, pageOrigin) ? new URL(playbackUrl, pageOrigin).origin : playbackUrl;
}

/**
 * Whether a policy violation seen with this player calls for loading the page again: it concerns what a
 * player needs, and no reload was made for this player's source yet (so a player blocked for another
 * reason cannot make the page reload for ever).
 */
export function reloadsFor(directive: string, playbackUrl: string, pageOrigin: string, lastReloadFor: string | null): string | null {
  if (!playbackUrl || !PLAYER_DIRECTIVES.has(directive)) return null;
  const source = playerSource(playbackUrl, pageOrigin);
  return source === lastReloadFor ? null : source;
}

/**
 * The page's Content-Security-Policy is fixed when the page loads and allows the stream source of that
 * moment. When the admin moves the stream to another player (another origin, or the relay) while the
 * page is open, the page's own policy blocks the new one; the page then loads again, which brings the
 * policy for the new source.
 */
export function usePlayerPolicy(playbackUrl: string): void {
  const current = useRef(playbackUrl);
  current.current = playbackUrl;

  useEffect(() => {
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      const source = reloadsFor(event.effectiveDirective, current.current, window.location.origin, readSession(SESSION_KEYS.policyReloadFor));
      if (source === null) return;
      writeSession(SESSION_KEYS.policyReloadFor, source);
      window.location.reload();
    };
    document.addEventListener("securitypolicyviolation", onViolation);
    return () => document.removeEventListener("securitypolicyviolation", onViolation);
  }, []);
}
