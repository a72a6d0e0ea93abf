import assert from "node:assert/strict";
import { after } from "node:test";
import { MOBILE } from "./support/browser.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { fakeStripeFlags, STRIPE_TEST_CARDS, startFakeStripe as startFakeStripeApi } from "../support/fake-stripe.mjs";
import { routeStripe } from "./support/stripe-js.mjs";
import { enterStream, routePlayer } from "./support/live.mjs";
import { assertToastCoversNothing } from "./support/toast-cover.mjs";
import { screenshotViewportWidths } from "./support/viewer-flows.mjs";

// Live keys against a local fake of Stripe's API (test codes on, to let a viewer in); Stripe.js stubbed.
const fakeStripe = await startFakeStripeApi();
after(() => fakeStripe.close());
const app = useApp({
  args: [...fakeStripeFlags(fakeStripe.url), "--enable-test-codes", "--public-url", "http://shop.dreadcast.test"],
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
    assert.deepEqual(
      used.elementOptions.map((e) => [e.type, e.options.layout]),
      [["payment", "accordion"]],
    );
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

app.browserTest("a donation of one's own amount: checked as the server checks it, then paid and thanked for that amount", async ({ page, context }) => {
  await routePlayer(context);
  await routeStripe(page, fakeStripe);
  await enterStream(page, "OwnAmount");
  await page.getByRole("button", { name: "Donate" }).click();
  const chooser = page.getByRole("dialog", { name: "MAKE A DONATION" });
  const own = chooser.getByLabel("Or your own amount (GBP)");
  await chooser.getByText("From £1 to £1,000.").waitFor();

  await own.fill(" ");
  await chooser.getByRole("button", { name: "Donate", exact: true }).click();
  await chooser.getByText("Please enter an amount", { exact: true }).waitFor();
  for (const [typed, message] of [
    ["7.505", "Please enter an amount like 15 or 7.50"],
    ["1,000", "Please enter an amount like 15 or 7.50"],
    ["0.50", "The smallest donation is £1.00"],
    ["1000.01", "The largest donation is £1,000.00"],
  ]) {
    await own.fill(typed);
    await chooser.getByRole("button", { name: /^Donate/ }).click();
    await chooser.getByRole("alert").getByText(message, { exact: true }).waitFor();
    assert.equal(await own.getAttribute("aria-invalid"), "true");
  }
  // Donate names no amount it would refuse.
  await chooser.getByRole("button", { name: "Donate", exact: true }).waitFor();
  await screenshotViewportWidths(page, "donation-own-amount-error");
  // A preset clears the message and is what Donate pays; typing again chooses one's own amount.
  await chooser.getByText("£20", { exact: true }).click();
  await chooser.getByRole("button", { name: "Donate £20" }).waitFor();
  assert.equal(await chooser.getByRole("alert").count(), 0);
  await own.fill("7.5");
  await chooser.getByRole("button", { name: "Donate £7.50" }).waitFor();
  assert.equal(await chooser.getByRole("radio", { checked: true }).count(), 0, "no preset is chosen beside one's own amount");
  await screenshotViewportWidths(page, "donation-own-amount");
  await chooser.getByRole("button", { name: "Donate £7.50" }).click();

  const payment = page.getByRole("dialog", { name: "Make a Donation" });
  await payment.getByText("£7.50").waitFor();
  // The payment dialog's usual subtitle stays; the dialog says beside it what a donation is.
  await payment.getByText("Complete your purchase securely").waitFor();
  await payment.getByText("A donation to the event: once it is paid, your name and the amount appear in the chat.").waitFor();
  await payment.getByText("Please provide your payment details.").waitFor();
  await screenshotViewportWidths(page, "donation-own-amount-payment");
  await payment.getByLabel("Card number (Stripe)").fill(STRIPE_TEST_CARDS.success);
  await payment.getByRole("button", { name: "Pay Now" }).click();
  await toastWith(page, "Thank You!").getByText("Your donation of £7.50 has been received.").waitFor({ timeout: 15_000 });
  // Clear of the chat's message box, Send, Donate and the heart at 1280 × 800, and on a phone.
  await assertToastCoversNothing(page);
  await page.getByRole("progressbar").and(page.locator("[aria-valuetext^='£17.50 of']")).waitFor({ timeout: 15_000 });
  const intent = [...fakeStripe.intents.values()].at(-1);
  assert.equal(intent.amount, 750);
});

app.browserTest("the server refuses a donation amount out of range whatever the page sends", async ({ page, context }) => {
  await routePlayer(context);
  await enterStream(page, "Tamperer");
  for (const [amount, message] of [
    [99, "The smallest donation is £1.00"],
    [100_001, "The largest donation is £1,000.00"],
    [750.5, "Donation amount must be a whole number of pence"],
  ]) {
    const response = await page.request.post("/api/create-donation-intent", { data: { amount } });
    assert.equal(response.status(), 400, String(amount));
    assert.equal((await response.json()).error, message);
  }
});
