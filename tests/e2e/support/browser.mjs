/** Headless Chromium through playwright-core: one browser per test file, a fresh context per test. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { repoRoot } from "./server.mjs";

export const screenshotDir = join(repoRoot, "test-results/screenshots");

export const MOBILE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}

/**
 * A new context (own cookies and storage) and page on the app. Uncaught page errors are collected.
 * @param {import("playwright-core").Browser} browser
 * @param {string} baseURL
 * @param {{ width: number, height: number }} [viewport]
 * @param {import("playwright-core").BrowserContextOptions} [contextOptions] e.g. { timezoneId }
 */
export async function openPage(browser, baseURL, viewport = DESKTOP, contextOptions = {}) {
  const context = await browser.newContext({ baseURL, viewport, deviceScaleFactor: 1, reducedMotion: "reduce", ...contextOptions });
  const page = await context.newPage();
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error));
  return { context, page, pageErrors };
}

export function slug(text) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80);
}

/**
 * Saves test-results/screenshots/<name>.png (the full page), for people to look at. DREADCAST_E2E_SCREENSHOTS=0
 * skips the capture (CI, where no one looks at them); the page is still resized and laid out at each width.
 */
export async function screenshot(page, name) {
  const path = join(screenshotDir, `${name}.png`);
  if (process.env.DREADCAST_E2E_SCREENSHOTS === "0") return path;
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Waits for the display fonts: registered (the page does so once its largest paint is shown), a moment for
 * the page to ask for what it uses of them, and those loaded. Nothing here runs on the page's timers, which a
 * test may have stopped (`page.clock`).
 * @param {import("playwright-core").Page} page
 */
export async function fontsSettled(page) {
  await page.waitForFunction(() => [...document.fonts].some((face) => face.family.replace(/"/g, "") === "Creepster"), null, { timeout: 5_000 });
  await new Promise((resolve) => setTimeout(resolve, 50));
  await page.evaluate(() => document.fonts.ready);
}

/** Saves <name>-390.png and <name>-1280.png, then restores the page's viewport. */
export async function screenshotWidths(page, name, widths = [MOBILE.width, DESKTOP.width]) {
  const original = page.viewportSize();
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 1024 ? MOBILE.height : DESKTOP.height });
    await fontsSettled(page);
    await page.waitForTimeout(150);
    await screenshot(page, `${name}-${width}`);
  }
  if (original) await page.setViewportSize(original);
}
