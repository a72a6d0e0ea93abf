import { beforeEach, describe, expect, test } from "bun:test";
import { AppVersion, buildNamedIn, CHECK_INTERVAL_MS, updateReady, type VersionEnvironment } from "./app-version";
import { SESSION_KEYS, readSession, removeSession, writeSession } from "./storage";

const indexOf = (build: string) =>
  `<!doctype html><html><head><meta charset="UTF-8" /><title>DREADCAST</title><script type="module" src="/assets/index-1.js"></script><meta name="dreadcast-build" content="${build}" /></head><body></body></html>`;

/** A server whose index.html names `served` (null: unreachable), and a page loaded from `page`. */
function setup(page: string | null, served: string | null) {
  const calls = { fetches: 0, reloads: 0 };
  let clock = 1_000_000;
  const state = { served };
  const env: VersionEnvironment = {
    pageBuild: page,
    fetchIndex: async () => {
      calls.fetches++;
      return state.served === null ? null : indexOf(state.served);
    },
    reload: () => {
      calls.reloads++;
    },
    now: () => clock,
  };
  return { version: new AppVersion(env), calls, state, advance: (ms: number) => (clock += ms) };
}

const missingFile = () => Promise.reject(new TypeError("Failed to fetch dynamically imported module: /assets/payment-dialog-abc.js"));

beforeEach(() => {
  updateReady.value = false;
  removeSession(SESSION_KEYS.reloadedForBuild);
});

describe("the build a page names", () => {
  test("is read from index.html's meta tag, whatever the quotes", () => {
    expect(buildNamedIn(indexOf("ee32ff7cd1d0"))).toBe("ee32ff7cd1d0");
    expect(buildNamedIn(`<meta name='dreadcast-build' content='abc123'>`)).toBe("abc123");
    expect(buildNamedIn("<html><head></head></html>")).toBeNull();
    expect(buildNamedIn(`<meta name="dreadcast-build" content="<script>">`)).toBeNull();
  });
});

describe("checking for a newer build", () => {
  test("the same build is no update", async () => {
    const { version } = setup("aaa", "aaa");
    expect(await version.check()).toBe(false);
    expect(updateReady.value).toBe(false);
  });

  test("another build shows the update bar", async () => {
    const { version } = setup("aaa", "bbb");
    const told: boolean[] = [];
    const unsubscribe = updateReady.subscribe(() => told.push(updateReady.value));
    expect(await version.check()).toBe(true);
    expect(await version.check(true)).toBe(true);
    expect(updateReady.value).toBe(true);
    // The bar is told once, when it changes; not after it has gone.
    expect(told).toEqual([true]);
    unsubscribe();
    updateReady.value = false;
    expect(told).toEqual([true]);
  });

  test("a server that cannot be reached, or a page not built, tells nothing", async () => {
    expect(await setup("aaa", null).version.check()).toBe(false);
    const unbuilt = setup(null, "bbb");
    expect(await unbuilt.version.check()).toBe(false);
    expect(unbuilt.calls.fetches).toBe(0);
    expect(updateReady.value).toBe(false);
  });

  test("is asked at most once per interval unless forced, and once at a time", async () => {
    const { version, calls, state, advance } = setup("aaa", "aaa");
    await Promise.all([version.check(), version.servedBuild()]);
    expect(calls.fetches).toBe(1);
    state.served = "bbb";
    expect(await version.check()).toBe(false);
    expect(calls.fetches).toBe(1);
    advance(CHECK_INTERVAL_MS);
    expect(await version.check()).toBe(true);
    expect(calls.fetches).toBe(2);
  });
});

describe("loading a split-off part of the page", () => {
  test("loads it when it is there", async () => {
    const { version, calls } = setup("aaa", "bbb");
    expect(await version.load(async () => ({ part: 1 }))).toEqual({ part: 1 });
    expect(calls.fetches).toBe(0);
  });

  test("reloads the page once when the server was upgraded since, and says so after the reload", async () => {
    const { version, calls } = setup("aaa", "bbb");
    let settled = false;
    void version.load(missingFile).finally(() => (settled = true));
    await Bun.sleep(5);
    expect(calls.reloads).toBe(1);
    expect(settled).toBe(false);
    expect(readSession(SESSION_KEYS.reloadedForBuild)).toBe("bbb");

    // The same stale page failing again (the reload did not bring the new build): the error stands.
    await expect(version.load(missingFile)).rejects.toThrow("Failed to fetch dynamically imported module");
    expect(calls.reloads).toBe(1);

    // The page of the new build, after the reload, says why once.
    const reloaded = setup("bbb", "bbb").version;
    expect(reloaded.reloadedForUpdate()).toBe(true);
    expect(reloaded.reloadedForUpdate()).toBe(false);
  });

  test("keeps the error when the server is the same build or cannot be reached", async () => {
    for (const served of ["aaa", null]) {
      const { version, calls } = setup("aaa", served);
      await expect(version.load(missingFile)).rejects.toThrow(TypeError);
      expect(calls.reloads).toBe(0);
    }
  });

  test("a reload made for another build is not claimed by this one", () => {
    writeSession(SESSION_KEYS.reloadedForBuild, "ccc");
    expect(setup("bbb", "bbb").version.reloadedForUpdate()).toBe(false);
  });
});
