import assert from "node:assert/strict";
import { after } from "node:test";
import { MOBILE, screenshotWidths } from "./support/browser.mjs";
import { publishLegalLinks } from "./support/admin-panel.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { fakeStripeFlags, STRIPE_TEST_CARDS, startFakeStripe as startFakeStripeApi } from "../support/fake-stripe.mjs";
import { routeStripe } from "./support/stripe-js.mjs";
import { openBuyDialog, screenshotViewportWidths } from "./support/viewer-flows.mjs";

// Live-key mode against a local fake of Stripe's API; Stripe.js is stubbed at the network layer.
const fakeStripe = await startFakeStripeApi();
after(() => fakeStripe.close());
const app = useApp(
  {
    args: [...fakeStripeFlags(fakeStripe.url), "--public-url", "http://shop.dreadcast.test"],
  },
  // Real card payments sell once the organiser has linked their privacy policy and terms.
  { afterStart: publishLegalLinks },
);

async function payWithStripe(dialog, card, email) {
  await dialog.getByText("Please provide your payment details.").waitFor();
  if (email) await dialog.getByLabel("Email (optional)").fill(email);
  await dialog.getByLabel("Card number (Stripe)").fill(card);
  await dialog.getByRole("button", { name: "Pay Now" }).click();
}

app.browserTest(
  "Stripe purchase: Stripe.js loads only when the dialog opens; Payment Element in the night theme; code after payment",
  async ({ page }) => {
    const scripts = await routeStripe(page, fakeStripe);
    await page.goto("/");
    await page.getByRole("button", { name: /BUY NOW/ }).waitFor();
    await page.waitForLoadState("networkidle");
    assert.deepEqual(scripts, [], "no Stripe.js before the dialog opens");

    const dialog = await openBuyDialog(page);
    await dialog.getByText("Please provide your payment details.").waitFor();
    assert.equal(scripts.length, 1);
    assert.match(scripts[0], /^https:\/\/js\.stripe\.com\//);
    assert.equal(await dialog.getByText("Demo mode — no real payment").count(), 0, "no demo notice with live keys");

    const used = await page.evaluate(() => window.__fakeStripe);
    assert.match(used.elementsOptions.clientSecret, /^pi_fake.*_secret_fake$/);
    assert.equal(used.elementsOptions.appearance.theme, "night");
    assert.equal(used.elementsOptions.appearance.variables.colorPrimary, "#e01e2b");
    assert.deepEqual(
      used.elementOptions.map((e) => [e.type, e.options.layout]),
      [["payment", "tabs"]],
    );
    await screenshotViewportWidths(page, "purchase-stripe-dialog");

    await payWithStripe(dialog, STRIPE_TEST_CARDS.success, "stripe-buyer@example.com");
    await toastWith(page, "Thank you for your purchase!").waitFor();
    await waitForPath(page, "/checkout-success");
    const intentId = await page.evaluate(() => localStorage.getItem("paymentIntentId"));
    assert.match(intentId ?? "", /^pi_fake/);
    assert.equal(fakeStripe.intents.get(intentId).receipt_email, "stripe-buyer@example.com");

    const code = page.locator(".checkout-code-reveal-value");
    await code.waitFor();
    assert.match((await code.innerText()).trim(), /^SKP-/);
    await toastWith(page, "Your access code has been sent to your email!").waitFor();
  },
  { viewport: MOBILE },
);

app.browserTest("Stripe: confirmPayment gets the checkout-success return address and redirects only if required", async ({ page, url }) => {
  await routeStripe(page, fakeStripe);
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await dialog.getByText("Please provide your payment details.").waitFor();
  // A declined card keeps the page here, so the call can be read back.
  await payWithStripe(dialog, STRIPE_TEST_CARDS.declined);
  await toastWith(page, "Payment Failed").waitFor();
  const calls = await page.evaluate(() => window.__fakeStripe.confirmCalls);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].confirmParams.return_url, `${url}/checkout-success`);
  assert.equal(calls[0].redirect, "if_required");
  assert.equal(calls[0].hasElements, true);
});

app.browserTest("Stripe: a declined card gives 'Payment Failed' with Stripe's message", async ({ page }) => {
  await routeStripe(page, fakeStripe);
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await payWithStripe(dialog, STRIPE_TEST_CARDS.declined);
  const failed = toastWith(page, "Payment Failed");
  await failed.waitFor();
  await failed.getByText("Your card was declined.").waitFor();
  assert.equal(new URL(page.url()).pathname, "/");
  await dialog.getByRole("button", { name: "Pay Now" }).waitFor();
});

app.browserTest("Stripe: a payment still processing goes to /checkout-success with its payment_intent", async ({ page }) => {
  await routeStripe(page, fakeStripe);
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await payWithStripe(dialog, STRIPE_TEST_CARDS.processing);
  await waitForPath(page, "/checkout-success");
  const intent = new URL(page.url()).searchParams.get("payment_intent");
  assert.match(intent ?? "", /^pi_fake/);
  assert.equal(fakeStripe.intents.get(intent).status, "processing");
  await toastWith(page, "Failed to generate access code. Please contact support.").waitFor();

  // Once Stripe says it succeeded, the same link gives the code.
  fakeStripe.intents.get(intent).status = "succeeded";
  await page.reload();
  await page.locator(".checkout-code-reveal-value").waitFor();
});

app.browserTest("Stripe: an intent that already succeeded shows 'Payment succeeded!' on load and completes", async ({ page }) => {
  await routeStripe(page, fakeStripe);
  // Every new intent is paid before the form loads (a buyer coming back to a paid intent).
  await page.route("**/api/create-payment-intent", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    fakeStripe.intents.get(body.paymentIntentId).status = "succeeded";
    await route.fulfill({ response, json: body });
  });
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await dialog.getByText("Payment succeeded!").waitFor();
  await waitForPath(page, "/checkout-success");
});

app.browserTest("Stripe.js failing to load shows the setup error; Try again loads it once it is reachable", async ({ page }) => {
  await page.route("https://js.stripe.com/**", (route) => route.abort("failed"));
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await dialog.getByText("Failed to initialize payment. Please try again.").waitFor({ timeout: 15_000 });
  await page.unroute("https://js.stripe.com/**");
  await routeStripe(page, fakeStripe);
  await dialog.getByRole("button", { name: "Try again" }).click();
  await payWithStripe(dialog, STRIPE_TEST_CARDS.success);
  await waitForPath(page, "/checkout-success");
  await page.locator(".checkout-code-reveal-value").waitFor();
});

/** Stripe charges the card, but its answer never reaches the page (the connection drops on the way back). */
async function loseConfirmAnswers(page) {
  await page.route("https://api.stripe.com/v1/payment_intents/*/confirm", async (route) => {
    const id = decodeURIComponent(new URL(route.request().url()).pathname.split("/")[3]);
    const { card } = JSON.parse(route.request().postData() ?? "{}");
    fakeStripe.confirm(id, card);
    await route.abort("connectionreset");
  });
}

app.browserTest("Stripe: an answer lost after the card was charged — the dialog says it may have gone through, and checking goes on to the code", async ({ page }) => {
  await routeStripe(page, fakeStripe);
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await loseConfirmAnswers(page);
  await payWithStripe(dialog, STRIPE_TEST_CARDS.success, "lost-stripe@example.com");
  await toastWith(page, "Payment Failed").getByText("An unexpected error occurred.").waitFor();
  const notice = dialog.getByRole("alert").filter({ hasText: "Your payment may have gone through" });
  await notice.getByRole("button", { name: "Check my payment" }).click();
  await toastWith(page, "Payment Successful").waitFor();
  await waitForPath(page, "/checkout-success");
  await page.locator(".checkout-code-reveal-value").waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("email")), "lost-stripe@example.com");
});

app.browserTest(
  "Stripe: an answer lost after the card was charged — Pay Now again is refused by Stripe as already paid, and goes on to the code",
  async ({ page }) => {
    await routeStripe(page, fakeStripe);
    await page.goto("/");
    const dialog = await openBuyDialog(page);
    await loseConfirmAnswers(page);
    await payWithStripe(dialog, STRIPE_TEST_CARDS.success);
    await dialog.getByRole("alert").getByText("Your payment may have gone through").waitFor();
    // As Stripe answers a second confirmation of a paid intent: an error carrying the intent, succeeded.
    await page.unroute("https://api.stripe.com/v1/payment_intents/*/confirm");
    await page.route("https://api.stripe.com/v1/payment_intents/*/confirm", (route) => {
      const id = decodeURIComponent(new URL(route.request().url()).pathname.split("/")[3]);
      const error = {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: "You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.",
        payment_intent: fakeStripe.intents.get(id),
      };
      return route.fulfill({ status: 400, contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: JSON.stringify({ error }) });
    });
    await dialog.getByRole("button", { name: "Pay Now" }).click();
    await waitForPath(page, "/checkout-success");
    await page.locator(".checkout-code-reveal-value").waitFor();
    assert.equal(await toastWith(page, "already succeeded").count(), 0, "no 'Payment Failed' for a paid intent");
  },
  { viewport: MOBILE },
);

app.browserTest("with live keys /test-access says test codes are disabled on this server", async ({ page }) => {
  await page.goto("/test-access");
  await page.getByText("Test codes are disabled on this server").waitFor();
  await page.getByLabel("Access code", { exact: true }).waitFor();
  await screenshotWidths(page, "test-access-disabled");
});
