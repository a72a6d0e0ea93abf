/**
 * Whether an open toast hides something the viewer needs: the boxes of the toast and of every control on
 * the screen (and every spot a page marks `data-toast-avoid`, such as a new access code) that is not itself
 * under something else, compared.
 */
import assert from "node:assert/strict";
import { DESKTOP, MOBILE } from "./browser.mjs";

/** What the open toast covers now, each as "button 'Save Settings'" and the like; [] when nothing. */
export async function controlsUnderToast(page) {
  return page.evaluate(() => {
    const toast = document.querySelector("li.toast[data-state='open']");
    if (!toast) throw new Error("no open toast");
    const area = toast.parentElement;
    const t = toast.getBoundingClientRect();
    const selector = "a[href], button, input:not([type=hidden]), select, textarea, iframe, [role=button], [role=switch], label:has(> input), [data-toast-avoid]";
    const covered = [];
    /** The labels of a form control; undefined for anything else. */
    const labelsOf = (/** @type {Element} */ node) => /** @type {HTMLInputElement} */ (node).labels;
    for (const element of document.querySelectorAll(selector)) {
      if (area.contains(element)) continue;
      const r = element.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const meets = r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top;
      if (!meets) continue;
      // Shown, not hidden under a dialog's backdrop or scrolled out of its list: on top at its centre.
      const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
      const top = document.elementsFromPoint(x, y).find((hit) => !area.contains(hit));
      if (!top || !(element === top || element.contains(top) || [...(labelsOf(top) ?? [])].some((label) => label === element))) continue;
      const name = element.getAttribute("aria-label") || element.textContent?.trim().slice(0, 40) || element.getAttribute("placeholder") || "";
      covered.push(`${element.tagName.toLowerCase()} '${name}'`);
    }
    return covered;
  });
}

/** Waits for the toast to settle where it goes (its entrance, then its place for this screen). */
export async function settleToast(page) {
  await page.locator("li.toast[data-state='open']").first().waitFor();
  await page.waitForTimeout(600);
}

/** The open toast covers no control at 1280 × 800 and at 390 × 844 (the viewport is put back after). */
export async function assertToastCoversNothing(page, sizes = [DESKTOP, MOBILE]) {
  const original = page.viewportSize();
  const found = {};
  const expected = {};
  for (const size of sizes) {
    await page.setViewportSize(size);
    await settleToast(page);
    // The toast looks again at what it covers a few times a second (a screen turned, a menu button shown
    // once the page re-rendered for the new width): on a busy machine that can take a moment longer.
    let covered = await controlsUnderToast(page);
    for (const until = Date.now() + 3000; covered.length > 0 && Date.now() < until; covered = await controlsUnderToast(page)) await page.waitForTimeout(200);
    const place = await page
      .locator("li.toast[data-state='open']")
      .first()
      .evaluate((toast) => toast.parentElement?.dataset.place ?? "");
    found[`${size.width}x${size.height}`] = { place, covered };
    expected[`${size.width}x${size.height}`] = { place, covered: [] };
  }
  if (original) await page.setViewportSize(original);
  assert.deepEqual(found, expected, "what the toast covers at each size");
}

/** The open toast leaves the page's heading (its text) clear at 1280 × 800 and at 390 × 844. */
export async function assertToastClearOfHeading(page, sizes = [DESKTOP, MOBILE]) {
  const original = page.viewportSize();
  const found = {};
  for (const size of sizes) {
    await page.setViewportSize(size);
    await settleToast(page);
    found[`${size.width}x${size.height}`] = await page.evaluate(() => {
      const toast = document.querySelector("li.toast[data-state='open']")?.getBoundingClientRect();
      const heading = document.querySelector("h1");
      if (!toast || !heading) throw new Error("no open toast, or no heading");
      const text = document.createRange();
      text.selectNodeContents(heading);
      const h = text.getBoundingClientRect();
      return h.left < toast.right && h.right > toast.left && h.top < toast.bottom && h.bottom > toast.top ? `covers '${heading.textContent}'` : "clear";
    });
  }
  if (original) await page.setViewportSize(original);
  assert.deepEqual(found, Object.fromEntries(Object.keys(found).map((k) => [k, "clear"])), "the toast and the page's heading");
}
