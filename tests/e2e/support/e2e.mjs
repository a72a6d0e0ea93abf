/**
 * The per-file set-up of a browser test: the real executable and one Chromium for the whole file, and a
 * `browserTest` that gives each test a fresh context and page, saves a screenshot when it fails and fails
 * it on any uncaught error in the page.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchBrowser, openPage, screenshot, slug, DESKTOP } from "./browser.mjs";
import { startServer } from "./server.mjs";

/** The most a browser test may take. */
const TEST_TIMEOUT_MS = 240_000;

/**
 * @param {{ args?: string[] }} [serverOptions]
 * @param {{ afterStart?: (url: string) => Promise<void> }} [setup] what the file's server needs once it listens, before any test
 */
export function useApp(serverOptions = {}, { afterStart } = {}) {
  /** @type {{ server?: Awaited<ReturnType<typeof startServer>>, browser?: import("playwright-core").Browser }} */
  const state = {};
  before(async () => {
    state.server = await startServer(serverOptions);
    await afterStart?.(state.server.url);
    state.browser = await launchBrowser();
  });
  after(async () => {
    await state.browser?.close();
    await state.server?.stop();
  });

  return {
    get url() {
      if (!state.server) throw new Error("the server is not started yet");
      return state.server.url;
    },
    /** The server's data directory (its SQLite file, dreadcast.db, among the rest). */
    get dataDir() {
      if (!state.server) throw new Error("the server is not started yet");
      return state.server.dataDir;
    },
    /**
     * @param {string} name
     * @param {(t: { page: import("playwright-core").Page, context: import("playwright-core").BrowserContext, url: string }) => Promise<void>} fn
     * @param {{ viewport?: { width: number, height: number }, contextOptions?: import("playwright-core").BrowserContextOptions }} [options]
     */
    browserTest(name, fn, { viewport = DESKTOP, contextOptions = {} } = {}) {
      // A test that hangs fails after four minutes (the longest take under one) instead of holding the run.
      test(name, { timeout: TEST_TIMEOUT_MS }, async () => {
        if (!state.browser || !state.server) throw new Error("the browser or the server did not start");
        const { context, page, pageErrors } = await openPage(state.browser, state.server.url, viewport, contextOptions);
        try {
          await fn({ page, context, url: state.server.url });
          assert.deepEqual(pageErrors.map(String), [], "uncaught errors in the page");
        } catch (error) {
          await screenshot(page, `failure-${slug(name)}`).catch(() => {});
          throw error;
        } finally {
          await context.close();
        }
      });
    },
  };
}

/** The open toast with this text (Radix renders each toast as a list item in the toast region). */
export function toastWith(page, text) {
  return page.locator("li.toast").filter({ hasText: text });
}

/** Waits until the page's path (without query) is `path`. */
export async function waitForPath(page, path, timeout = 10_000) {
  await page.waitForURL((url) => url.pathname === path, { timeout });
}

/**
 * Asks `check` every `every` ms (300) until it answers something truthy, and resolves with that; throws once
 * `timeout` has passed, naming what was waited for (`what`, or what it says then: the last state seen).
 * @template T @param {string | (() => string)} what @param {() => T | Promise<T>} check @param {number} [timeout] @param {number} [every]
 */
export async function until(what, check, timeout = 30_000, every = 300) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
