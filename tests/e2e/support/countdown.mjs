/** The countdown's boxes, read the same way by the landing page's and the stream page's tests. */

/**
 * The four countdown boxes as { Days: "04", ... } in this part of the page (or the whole page).
 * @param {import("playwright-core").Page | import("playwright-core").Locator} scope
 */
export async function countdownValues(scope) {
  return scope
    .locator(".countdown-box")
    .evaluateAll((boxes) => Object.fromEntries(boxes.map((box) => [box.querySelector(".countdown-label")?.textContent, box.querySelector(".countdown-value")?.textContent])));
}

/**
 * Waits until the countdown is drawn and counting: its first box holds a number, not the "--" it shows
 * before it knows the start (a box not drawn yet is not taken for one counting).
 * @param {import("playwright-core").Page} page
 */
export function countingDown(page) {
  return page.waitForFunction(() => (document.querySelector(".countdown-value")?.textContent ?? "--") !== "--");
}
