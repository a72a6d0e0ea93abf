/** Runs axe-core (the engine behind Lighthouse's accessibility audit) in the page. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { DESKTOP, MOBILE } from "./browser.mjs";

// Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not block.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The WCAG 2.1 A/AA and best-practice violations on the page, as readable lines ("rule: target — summary").
 * @param {import("playwright-core").Page} page
 */
export async function accessibilityViolations(page) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // @ts-expect-error axe is injected above
    const result = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(" ")} — ${n.failureSummary}`) }));
  });
  return violations.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.impact}): ${node}`));
}

/**
 * Asserts axe finds nothing at phone and desktop widths, then restores the viewport.
 * @param {import("playwright-core").Page} page
 * @param {string} what
 */
export async function assertAccessible(page, what) {
  const original = page.viewportSize();
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    assert.deepEqual(await accessibilityViolations(page), [], `${what} at ${viewport.width}px`);
  }
  if (original) await page.setViewportSize(original);
}
