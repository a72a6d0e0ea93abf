import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  LOOP_REDIRECT_DELAY_MS,
  LOOP_WINDOW_MS,
  addVisit,
  countHops,
  guardNavigation,
  guardedPageOf,
  isNavigationLoop,
  isSpecialAccessCode,
  loopRecentlyStopped,
  type NavVisit,
} from "./navigation-guard";

/** The visits of a viewer bounced between the two pages, one every `gap` ms from `start`. */
function bounce(count: number, start = 0, gap = 1000): NavVisit[] {
  let history: NavVisit[] = [];
  for (let i = 0; i < count; i++) history = addVisit(history, i % 2 === 0 ? "access" : "livestream", start + i * gap);
  return history;
}

describe("loop counting", () => {
  test("the livestream's alternate routes count as the livestream; other pages are not guarded", () => {
    expect(guardedPageOf("/access")).toBe("access");
    for (const path of ["/livestream", "/livestream-new", "/livestream-fixed"]) expect(guardedPageOf(path)).toBe("livestream");
    expect(guardedPageOf("/")).toBeNull();
  });

  test("4 hops are not a loop, 5 are", () => {
    expect(countHops(bounce(5))).toBe(4);
    expect(isNavigationLoop(bounce(5))).toBe(false);
    expect(countHops(bounce(6))).toBe(5);
    expect(isNavigationLoop(bounce(6))).toBe(true);
  });

  test("staying on one page (reloads) is not a hop", () => {
    let history: NavVisit[] = [];
    for (let i = 0; i < 10; i++) history = addVisit(history, "access", i * 100);
    expect(countHops(history)).toBe(0);
  });

  test("only visits within the 30000 ms window count", () => {
    const slow = bounce(6, 0, LOOP_WINDOW_MS / 5);
    expect(slow.length).toBeLessThan(6);
    expect(isNavigationLoop(slow)).toBe(false);
    expect(isNavigationLoop(bounce(6, 0, LOOP_WINDOW_MS / 6 - 1))).toBe(true);
  });

  test("SCP- and MOD- codes are special, in any case; SKP- and none are not", () => {
    expect(isSpecialAccessCode("SCP-ABCD-1234")).toBe(true);
    expect(isSpecialAccessCode("mod-abcd-1234")).toBe(true);
    expect(isSpecialAccessCode("SKP-ABCD-1234")).toBe(false);
    expect(isSpecialAccessCode(null)).toBe(false);
  });
});

class MemoryStorage {
  data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, String(value));
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
}

describe("guardNavigation", () => {
  let local: MemoryStorage;
  let session: MemoryStorage;
  const saved = (globalThis as { window?: unknown }).window;

  beforeEach(() => {
    local = new MemoryStorage();
    session = new MemoryStorage();
    (globalThis as { window?: unknown }).window = { localStorage: local, sessionStorage: session, dispatchEvent: () => true };
  });
  afterEach(() => {
    (globalThis as { window?: unknown }).window = saved;
  });

  /** Visits the two pages in turn; returns the navigations the guard asked for. */
  function visit(times: number, start = 1_000_000): { to: string; replace?: boolean }[] {
    const calls: { to: string; replace?: boolean }[] = [];
    for (let i = 0; i < times; i++) {
      guardNavigation(i % 2 === 0 ? "/access" : "/livestream", (to, options) => calls.push({ to, ...options }), start + i * 500);
    }
    return calls;
  }

  test("keeps the history in session storage as navHistory", () => {
    expect(visit(2)).toEqual([]);
    expect(JSON.parse(session.getItem("navHistory")!)).toHaveLength(2);
  });

  test("a loop with a regular code clears the code, username and history, and goes home after 1000 ms", async () => {
    local.setItem("accessCode", "SKP-AAAA-BBBB-CCCC-DDDD");
    local.setItem("username", "Wanderer");
    const start = Date.now();
    const calls = visit(6, start);
    expect(local.getItem("accessCode")).toBeNull();
    expect(local.getItem("username")).toBeNull();
    expect(session.getItem("navHistory")).toBeNull();
    expect(Number(local.getItem("loopPreventionTimestamp"))).toBe(start + 5 * 500);
    expect(calls).toEqual([]);
    await Bun.sleep(LOOP_REDIRECT_DELAY_MS + 50);
    expect(calls).toEqual([{ to: "/", replace: true }]);
    expect(loopRecentlyStopped(start + 5 * 500 + 1000)).toBe(true);
    expect(loopRecentlyStopped(start + 5 * 500 + LOOP_WINDOW_MS)).toBe(false);
  });

  test("a loop with a test or moderator code goes to the livestream, with a generated username when none is set", () => {
    local.setItem("accessCode", "SCP-TEST-CODE-0001");
    const calls = visit(6);
    expect(calls).toEqual([{ to: "/livestream", replace: true }]);
    expect(local.getItem("accessCode")).toBe("SCP-TEST-CODE-0001");
    expect(local.getItem("username")).toMatch(/^Viewer-\d{4}$/);
  });

  test("a moderator keeps their own username", () => {
    local.setItem("accessCode", "MOD-ABCD-EFGH-JKLM-NPQR");
    local.setItem("username", "Warden");
    expect(visit(6)).toEqual([{ to: "/livestream", replace: true }]);
    expect(local.getItem("username")).toBe("Warden");
  });
});
