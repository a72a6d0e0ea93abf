/** Steps the purchase and access browser tests share. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DESKTOP, fontsSettled, MOBILE, screenshotDir } from "./browser.mjs";

/**
 * Saves <name>-390.png and <name>-1280.png of the viewport only: a full-page shot cannot show a modal
 * over a scroll-locked page.
 */
export async function screenshotViewportWidths(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  for (const size of [MOBILE, DESKTOP]) {
    await page.setViewportSize(size);
    await fontsSettled(page);
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(screenshotDir, `${name}-${size.width}.png`) });
  }
  if (original) await page.setViewportSize(original);
}

async function postJson(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Buys a pass through the demo API (as the dialog does) and returns its access code. */
export async function buyCodeViaApi(baseUrl) {
  const setup = await postJson(`${baseUrl}/api/create-payment-intent`, { amount: 100, product: "livestream-access" });
  await postJson(`${baseUrl}/api/demo/confirm-payment`, { clientSecret: setup.clientSecret, cardNumber: "4242424242424242" });
  const { accessCode } = await postJson(`${baseUrl}/api/generate-access-code`, { paymentIntentId: setup.paymentIntentId });
  return accessCode;
}

/** Clicks BUY NOW and waits for the 'Secure Your Access' dialog. */
export async function openBuyDialog(page) {
  await page.getByRole("button", { name: /BUY NOW/ }).click();
  const dialog = page.getByRole("dialog", { name: "Secure Your Access" });
  await dialog.waitFor();
  return dialog;
}
