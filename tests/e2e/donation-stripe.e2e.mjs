import assert from "node:assert/strict";
import { after } from "node:test";
import { MOBILE } from "./support/browser.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { FAKE_STRIPE_PUBLISHABLE_KEY, FAKE_STRIPE_SECRET_KEY, STRIPE_TEST_CARDS, routeStripe, startFakeStripeApi } from "./support/fake-stripe.mjs";
import { enterStream, routePlayer } from "./support/live.mjs";

// Live keys against a local fake of Stripe's API (test codes on, to let a viewer in); Stripe.js stubbed.
const fakeStripe = await startFakeStripeApi();
after(() => fakeStripe.close());
const app = useApp({
  args: ["--stripe-secret-key", FAKE_STRIPE_SECRET_KEY, "--stripe-publishable-key", FAKE_STRIPE_PUBLISHABLE_KEY, "--stripe-api-url", fakeStripe.url, "--enable-test-codes", "--public-url", "http://shop.dreadcast.test"],
});

app.browserTest(
  "a Stripe donation uses the compact dialog (350 px, accordion layout), loads Stripe.js only then, and is counted",
  async ({ page, context }) => {
    await routePlayer(context);
    const scripts = await routeStripe(page, fakeStripe);
    await enterStream(page, "StripeGiver");
    assert.deepEqual(scripts, [], "no Stripe.js on the stream until a payment starts");

    await page.getByRole("button", { name: "Donate" }).click();
    const chooser = page.getByRole("dialog", { name: "MAKE A DONATION" });
    await chooser.getByText("£10", { exact: true }).click();
    await chooser.getByRole("button", { name: "Donate £10" }).click();

    const payment = page.getByRole("dialog", { name: "Make a Donation" });
    await payment.getByText("Please provide your payment details.").waitFor();
    assert.equal(scripts.length, 1, "Stripe.js loads when the payment dialog opens");
    const used = await page.evaluate(() => window.__fakeStripe);
    assert.deepEqual(used.elementOptions.map((e) => [e.type, e.options.layout]), [["payment", "accordion"]]);
    assert.equal(used.elementsOptions.appearance.theme, "night");
    const width = await payment.evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(width <= 350, `compact dialog is at most 350 px wide, got ${width}`);

    await payment.getByLabel("Card number (Stripe)").fill(STRIPE_TEST_CARDS.success);
    await payment.getByRole("button", { name: "Pay Now" }).click();
    await toastWith(page, "Thank You!").getByText("Your donation of £10 has been received.").waitFor({ timeout: 15_000 });
    await page.getByRole("progressbar").and(page.locator("[aria-valuetext^='£10.00 of']")).waitFor({ timeout: 15_000 });
  },
  { viewport: MOBILE },
);
