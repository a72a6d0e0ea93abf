import { navigate as browserNavigate } from "wouter/use-browser-location";
import { paths } from "@/config/paths";
import { toast } from "@/hooks/use-toast";
import { LOCAL_KEYS, SESSION_KEYS, readLocal, readSession, removeLocal, removeSession, writeLocal, writeSession } from "@/lib/storage";

/**
 * The navigation-loop guard: when /access and /livestream keep sending the viewer to each
 * other, 5 or more hops within 30 s is a loop. Special codes are let through to the stream; any other code is
 * forgotten and the viewer goes home, so a bad stored code cannot trap the tab.
 */
export const LOOP_WINDOW_MS = 30_000;
export const LOOP_MIN_HOPS = 5;
export const LOOP_REDIRECT_DELAY_MS = 1000;

export type GuardedPage = "access" | "livestream";

export interface NavVisit {
  page: GuardedPage;
  at: number;
}

/** The page a path belongs to; the livestream's alternate routes count as the livestream. */
export function guardedPageOf(path: string): GuardedPage | null {
  if (path === paths.access) return "access";
  if (path === paths.livestream || path === paths.livestreamNew || path === paths.livestreamFixed) return "livestream";
  return null;
}

/** The history with this visit added, keeping only the visits inside the window. */
export function addVisit(history: NavVisit[], page: GuardedPage, now: number): NavVisit[] {
  return [...history.filter((visit) => now - visit.at < LOOP_WINDOW_MS && visit.at <= now), { page, at: now }];
}

/** Moves from one of the two pages to the other. */
export function countHops(history: NavVisit[]): number {
  let hops = 0;
  for (let i = 1; i < history.length; i++) if (history[i]!.page !== history[i - 1]!.page) hops++;
  return hops;
}

export function isNavigationLoop(history: NavVisit[]): boolean {
  return countHops(history) >= LOOP_MIN_HOPS;
}

/** SCP- (test) and MOD- (moderator) codes skip the device check, so the guard lets them through. */
export function isSpecialAccessCode(code: string | null): boolean {
  const upper = (code ?? "").trim().toUpperCase();
  return upper.startsWith("SCP-") || upper.startsWith("MOD-");
}

export function generatedUsername(prefix = "Viewer"): string {
  return `${prefix}-${String(Math.floor(1000 + Math.random() * 9000))}`;
}

function readHistory(): NavVisit[] {
  try {
    const parsed: unknown = JSON.parse(readSession(SESSION_KEYS.navHistory) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (v: Partial<Record<keyof NavVisit, unknown>> | null): v is NavVisit =>
        !!v && typeof v === "object" && (v.page === "access" || v.page === "livestream") && typeof v.at === "number",
    );
  } catch {
    return [];
  }
}

/** A loop was stopped less than a window ago: pages should not bounce the viewer on their own again yet. */
export function loopRecentlyStopped(now = Date.now()): boolean {
  const at = Number(readLocal(LOCAL_KEYS.loopPreventionTimestamp));
  return Number.isFinite(at) && at > 0 && now - at < LOOP_WINDOW_MS;
}

type Navigate = (to: string, options?: { replace?: boolean }) => void;

function stopLoop(navigate: Navigate, now: number): void {
  writeLocal(LOCAL_KEYS.loopPreventionTimestamp, String(now));
  removeSession(SESSION_KEYS.navHistory);
  const code = readLocal(LOCAL_KEYS.accessCode);
  if (isSpecialAccessCode(code)) {
    if (!readLocal(LOCAL_KEYS.username)) {
      const username = generatedUsername();
      writeLocal(LOCAL_KEYS.username, username);
      writeSession(SESSION_KEYS.username, username);
    }
    toast({ title: "Navigation Error Detected", description: "Taking you straight to the livestream." });
    navigate(paths.livestream, { replace: true });
    return;
  }
  removeLocal(LOCAL_KEYS.accessCode);
  removeLocal(LOCAL_KEYS.username);
  removeSession(SESSION_KEYS.accessVerified);
  toast({
    variant: "destructive",
    title: "Navigation Error Detected",
    description: "Your access could not be confirmed. Please enter your access code again.",
  });
  setTimeout(() => navigate(paths.home, { replace: true }), LOOP_REDIRECT_DELAY_MS);
}

/**
 * Records a visit to /access or /livestream (call once when the page mounts). Returns true when it found
 * a loop and took over the navigation; the page should then not redirect on its own.
 */
export function guardNavigation(path: string, navigate: Navigate = browserNavigate, now = Date.now()): boolean {
  const page = guardedPageOf(path);
  if (!page) return false;
  const history = addVisit(readHistory(), page, now);
  writeSession(SESSION_KEYS.navHistory, JSON.stringify(history));
  if (!isNavigationLoop(history)) return false;
  stopLoop(navigate, now);
  return true;
}
