import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import ICAL from "ical.js";
import ogs from "open-graph-scraper";
import { DESKTOP, MOBILE, screenshotWidths } from "./support/browser.mjs";
import { accessibilityViolations } from "./support/a11y.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";

const app = useApp();

/** The VEVENT of a calendar file as ical.js reads it. */
function eventOf(text) {
  return new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent");
}

/** Stands in for a phone's share sheet (the Web Share API), recording what the page shares. */
function fakeShareSheet() {
  window.__shared = [];
  Object.defineProperty(navigator, "share", {
    configurable: true,
    value: async (data) => {
      window.__shared.push(data);
    },
  });
}

/** A paid demo payment, its code not yet asked for: /checkout-success generates it. */
async function paidDemoPayment(baseUrl) {
  const setup = await fetch(`${baseUrl}/api/create-payment-intent`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ amount: 100, product: "livestream-access" }),
  }).then((r) => r.json());
  await fetch(`${baseUrl}/api/demo/confirm-payment`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ clientSecret: setup.clientSecret, cardNumber: "4242424242424242" }),
  });
  return setup.paymentIntentId;
}

app.browserTest("the served landing page previews as the event for a crawler, with the JSON-LD Event", async ({ page, url }) => {
  const html = await (await page.request.get("/")).text();
  const { result } = await ogs({ html });
  assert.equal(result.ogTitle, "DREADCAST: The Night It Streams");
  assert.equal(result.ogUrl, `${url}/`);
  assert.equal(result.twitterCard, "summary_large_image");
  assert.equal(result.ogImage[0].url, `${url}/assets/default-thumbnail.jpg`);
  assert.equal((await page.request.get(result.ogImage[0].url.slice(url.length))).status(), 200);
  assert.equal(result.jsonLD[0]["@type"], "Event");
  // The page still starts as before: the head's scripts load and the app renders.
  await page.goto("/");
  await page.getByRole("heading", { level: 1 }).waitFor();
  assert.equal(await page.title(), "DREADCAST: The Night It Streams");
});

for (const viewport of [MOBILE, DESKTOP]) {
  app.browserTest(
    `at ${viewport.width} px the landing page's Add to calendar downloads the event's .ics`,
    async ({ page }) => {
      await page.goto("/");
      const add = page.getByRole("link", { name: "Add to calendar" });
      await add.waitFor();
      assert.ok(await add.isVisible());
      assert.ok(await page.getByRole("button", { name: "Share" }).isVisible());
      const box = await add.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= viewport.width, "the button fits the screen");
      assert.ok(box.height >= 44, "the button is a finger's size");
      const [download] = await Promise.all([page.waitForEvent("download"), add.click()]);
      assert.equal(download.suggestedFilename(), "event.ics");
      const event = eventOf(await readFile(await download.path(), "utf8"));
      assert.equal(event.getFirstPropertyValue("summary"), "DREADCAST: The Night It Streams");
      assert.equal(String(event.getFirstSubcomponent("valarm").getFirstPropertyValue("trigger")), "-PT15M");
      assert.deepEqual(await accessibilityViolations(page), []);
    },
    { viewport },
  );
}

app.browserTest(
  "Share opens the phone's share sheet with the event's title and link",
  async ({ page, url }) => {
    await page.addInitScript(fakeShareSheet);
    await page.goto("/");
    await page.getByRole("button", { name: "Share" }).click();
    await page.waitForFunction(() => window.__shared.length === 1);
    const [shared] = await page.evaluate(() => window.__shared);
    assert.deepEqual(shared, { title: "DREADCAST: The Night It Streams", text: "DREADCAST: The Night It Streams", url: `${url}/` });
    assert.equal(await toastWith(page, "Copied!").count(), 0);
  },
  { viewport: MOBILE },
);

app.browserTest(
  "without a share sheet, Share copies the link and says so",
  async ({ page, url }) => {
    await page.goto("/");
    assert.equal(await page.evaluate(() => typeof navigator.share), "undefined");
    await page.getByRole("button", { name: "Share" }).click();
    await toastWith(page, "Copied!").waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${url}/`);
  },
  { viewport: DESKTOP, contextOptions: { permissions: ["clipboard-read", "clipboard-write"] } },
);

app.browserTest("the landing page with its calendar and share buttons, at 390 and 1280 px", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Add to calendar" }).waitFor();
  await page.evaluate(() => document.fonts.ready);
  await screenshotWidths(page, "event-actions-home");
});

app.browserTest("/checkout-success offers Add to calendar and Share under the code", async ({ page, url }) => {
  const paymentIntentId = await paidDemoPayment(url);
  // The page's clock runs as usual, and is held while the page is photographed: its 5-second countdown would
  // otherwise move it on under a busy machine.
  await page.clock.install();
  await page.goto(`/checkout-success?payment_intent=${paymentIntentId}`);
  await page.getByRole("button", { name: "CONTINUE NOW" }).waitFor();
  const add = page.getByRole("link", { name: "Add to calendar" });
  assert.equal(await add.getAttribute("href"), "/event.ics");
  assert.ok(await page.getByRole("button", { name: "Share" }).isVisible());
  assert.deepEqual(await accessibilityViolations(page), []);
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 100));
  // Still the code page: the checks ran on it, and it waits for the shots; it moves to /access once time runs.
  assert.equal(new URL(page.url()).pathname, "/checkout-success");
  await screenshotWidths(page, "event-actions-checkout-success");
  await page.clock.resume();
  await page.waitForURL((u) => u.pathname === "/access", { timeout: 15_000 });
});
