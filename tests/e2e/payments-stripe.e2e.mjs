import assert from "node:assert/strict";
import { after } from "node:test";
import { request } from "playwright-core";
import { logIn, publishLegalLinks, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { FAKE_STRIPE_WEBHOOK_SECRET, fakeStripeFlags, STRIPE_TEST_CARDS, startFakeStripe as startFakeStripeApi } from "../support/fake-stripe.mjs";
import { routeStripe } from "./support/stripe-js.mjs";
import { openBuyDialog } from "./support/viewer-flows.mjs";
import { makeFingerprint } from "../support/fingerprint.mjs";

// Live-key mode against a local fake of Stripe's API; Stripe.js is stubbed at the network layer.
const fakeStripe = await startFakeStripeApi();
after(() => fakeStripe.close());
const app = useApp(
  {
    args: [...fakeStripeFlags(fakeStripe.url), "--stripe-webhook-secret", FAKE_STRIPE_WEBHOOK_SECRET, "--public-url", "http://shop.dreadcast.test"],
  },
  // Real card payments sell once the organiser has linked their privacy policy and terms.
  { afterStart: publishLegalLinks },
);

app.browserTest("Stripe: a €4.50 pass is charged in euros, then refunded from the Payments screen through the Refunds API", async ({ page }) => {
  await logIn(page, "/admin/settings");
  await page.getByLabel("Currency").selectOption("eur");
  await page.getByLabel("Access price (EUR)").fill("4.50");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await toastWith(page, "Settings Saved").waitFor();

  await routeStripe(page, fakeStripe);
  await page.goto("/");
  await page
    .getByRole("button", { name: /BUY NOW/ })
    .getByText("€4.50")
    .waitFor();
  const dialog = await openBuyDialog(page);
  await dialog.getByText("€4.50").waitFor();
  await dialog.getByText("Please provide your payment details.").waitFor();
  await dialog.getByLabel("Email (optional)").fill("euro-buyer@example.com");
  await dialog.getByLabel("Card number (Stripe)").fill(STRIPE_TEST_CARDS.success);
  await dialog.getByRole("button", { name: "Pay Now" }).click();
  await waitForPath(page, "/checkout-success");
  const code = page.locator(".checkout-code-reveal-value");
  await code.waitFor();
  const accessCode = (await code.innerText()).trim();
  const intentId = await page.evaluate(() => localStorage.getItem("paymentIntentId"));
  assert.deepEqual([fakeStripe.intents.get(intentId).amount, fakeStripe.intents.get(intentId).currency], [450, "eur"]);

  await page.goto("/admin/payments");
  const row = page.locator("tbody tr").filter({ hasText: accessCode });
  await row.getByText("€4.50").waitFor();
  // Named by what it refunds and whose, not by the payment's id.
  await row.getByRole("button", { name: "Refund €4.50 access pass of euro-buyer@example.com" }).click();
  const confirm = page.getByRole("dialog", { name: "Refund this payment?" });
  await confirm.getByText(`the access code ${accessCode} is revoked at once`).waitFor();
  await confirm.getByRole("button", { name: "Refund and revoke" }).click();
  await toastWith(page, "Refund Issued").getByText(`€4.50 refunded. ${accessCode} no longer works.`).waitFor();
  await row.getByText("Refunded", { exact: true }).waitFor();

  const calls = fakeStripe.requests.filter((r) => r.path === "/v1/refunds");
  assert.equal(calls.length, 1);
  assert.equal(calls[0].params.payment_intent, intentId);
  assert.equal(calls[0].params.amount, "450");
  assert.match(calls[0].idempotencyKey ?? "", new RegExp(`^dreadcast-refund-${intentId}-`));
  assert.deepEqual(
    fakeStripe.refunds.map((r) => [r.payment_intent, r.amount]),
    [[intentId, 450]],
  );
  await screenshotScreen(page, "admin-payments-stripe-refunded");

  // On Access Codes the pass shows why it is revoked, and it cannot be restored while refunded in full.
  await page.goto(`/admin/access-codes?search=${accessCode}`);
  const refundedCode = page.locator("tbody tr").filter({ hasText: accessCode });
  await refundedCode.getByText("Revoked").waitFor();
  await refundedCode.getByText("Refunded", { exact: true }).waitFor();
  assert.equal(await refundedCode.getByRole("button", { name: `Restore ${accessCode}` }).isDisabled(), true);
  await screenshotScreen(page, "admin-access-codes-refunded-pass");
  await page.goto("/admin/payments");
  await row.getByText("Refunded", { exact: true }).waitFor();

  // The card was closed: the refund fails, its money is back in the account, and the admin is told why.
  const failed = fakeStripe.failRefund(fakeStripe.refunds[0].id);
  assert.equal((await fakeStripe.deliverEvent(app.url, "refund.failed", failed)).status, 200);
  await page.reload();
  await row.getByText("Paid", { exact: true }).waitFor();
  await row.getByText("€4.50 refund failed: the card has expired or was canceled").waitFor();
  await row.getByText("Revoked").waitFor();
  assert.equal(await row.getByText("refunded", { exact: false }).count(), 0, "no amount shows as refunded");
  await row.getByRole("button", { name: /^Refund / }).click();
  await confirm.getByTestId("refund-failed-note").getByText("€4.50 refund failed: the card has expired or was canceled").waitFor();
  await confirm.getByText("Confirm? €4.50 goes back to the buyer's card. This cannot be undone.").waitFor();
  await confirm.getByLabel("Reason").selectOption("fraudulent");
  await confirm.getByText("Stripe also adds the card and e-mail to your block lists.").waitFor();
  await screenshotScreen(page, "admin-payments-refund-failed-dialog");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await confirm.waitFor({ state: "detached" });
  await screenshotScreen(page, "admin-payments-refund-failed");
  const cards = page.locator("li.record-card").filter({ hasText: accessCode });
  await page.setViewportSize({ width: 390, height: 844 });
  await cards.getByText("€4.50 refund failed: the card has expired or was canceled").waitFor();

  // The buyer should keep watching: the pass the refund revoked is restored from Access Codes.
  await page.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole("button", { name: /^Refund / }).click();
  await confirm.getByText(`The access code ${accessCode} was revoked with the refund. If the buyer should keep watching, restore it from Access Codes.`).waitFor();
  await assertAccessible(page, "the Refund dialog of a failed refund, with its link to Access Codes");
  await confirm.getByRole("link", { name: "Access Codes" }).click();
  await waitForPath(page, "/admin/access-codes");
  assert.equal(await page.getByRole("searchbox", { name: "Search codes" }).inputValue(), accessCode);
  await page.getByText(/^1 of \d+ codes$/).waitFor();
  const codeRow = page.locator("tbody tr").filter({ hasText: accessCode });
  await codeRow.getByRole("button", { name: `Restore ${accessCode}` }).click();
  await page.getByRole("dialog", { name: "Restore this access code?" }).getByRole("button", { name: "Restore code" }).click();
  await toastWith(page, "Code Restored").waitFor();
  // The buyer was told the pass no longer works: sending it to them again is offered at once.
  const send = page.getByRole("dialog", { name: "Send access code" });
  assert.equal(await send.getByLabel("E-mail address").inputValue(), "euro-buyer@example.com");
  await screenshotScreen(page, "admin-access-codes-restored-send");
  await send.getByRole("button", { name: "Send" }).click();
  await toastWith(page, "Email Sent").getByText(`${accessCode} was sent to euro-buyer@example.com.`).waitFor();
  await page.goto("/admin/payments");
  await row.getByText("€4.50 refund failed: the card has expired or was canceled").waitFor();
  assert.equal(await row.getByText("Revoked").count(), 0, "the pass works again");
});

app.browserTest("Stripe: an inquiry from the buyer's bank shows on the Payments screen, and a full refund answers it", async ({ page }) => {
  // A pass paid with Stripe's test card, through the API, at the event's price (€4.50 after the test above).
  const api = await request.newContext({ baseURL: app.url });
  let code;
  let intentId;
  try {
    const { accessPrice } = await (await api.get("/api/payment-config")).json();
    const intent = await (await api.post("/api/create-payment-intent", { data: { amount: accessPrice, product: "livestream-access", email: "asked@example.com" } })).json();
    intentId = intent.paymentIntentId;
    assert.equal(fakeStripe.confirm(intentId, STRIPE_TEST_CARDS.success).status, 200);
    code = (await (await api.post("/api/generate-access-code", { data: { paymentIntentId: intentId, deviceFingerprint: makeFingerprint() } })).json()).accessCode;
    assert.match(code, /^SKP-/);
  } finally {
    await api.dispose();
  }
  const stripeIntent = fakeStripe.intents.get(intentId);
  const inquiry = {
    id: "dp_inquiry_e2e",
    object: "dispute",
    amount: stripeIntent.amount,
    currency: stripeIntent.currency,
    charge: stripeIntent.latest_charge,
    payment_intent: intentId,
    status: "warning_needs_response",
  };
  assert.equal((await fakeStripe.deliverEvent(app.url, "charge.dispute.created", inquiry)).status, 200);

  await logIn(page, "/admin/payments");
  const row = page.locator("tbody tr").filter({ hasText: code });
  await row.getByText("Inquiry", { exact: true }).waitFor();
  await row.getByText("Revoked").waitFor();
  // The failed refund from the test above is on the same screen.
  await page.getByText("€4.50 refund failed: the card has expired or was canceled").waitFor();
  await assertAccessible(page, "/admin/payments with an inquiry and a failed refund");
  await screenshotScreen(page, "admin-payments-inquiry");
  await row.getByRole("button", { name: /^Refund / }).click();
  const confirm = page.getByRole("dialog", { name: "Refund this payment?" });
  await confirm.getByTestId("inquiry-note").getByText("The buyer's bank is asking about this payment").waitFor();
  await assertAccessible(page, "the Refund dialog of an inquiry");
  await screenshotScreen(page, "admin-payments-inquiry-dialog");
  await confirm.getByLabel("Reason").selectOption({ label: "Requested by the buyer" });
  await confirm.getByRole("button", { name: "Refund €4.50" }).click();
  await toastWith(page, "Refund Issued").getByText("€4.50 refunded.", { exact: true }).waitFor();
  await row.getByText("Refunded", { exact: true }).waitFor();
  assert.deepEqual(
    fakeStripe.refunds.filter((r) => r.payment_intent === intentId).map((r) => [r.amount, r.reason]),
    [[450, "requested_by_customer"]],
  );
});
