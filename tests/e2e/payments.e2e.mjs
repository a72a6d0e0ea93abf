import assert from "node:assert/strict";
import { logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { DESKTOP, MOBILE } from "./support/browser.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { chatLine, enterStream, openViewer, say } from "./support/live.mjs";
import { assertToastCoversNothing } from "./support/toast-cover.mjs";
import { screenshotViewportWidths } from "./support/viewer-flows.mjs";
import { makeFingerprint } from "../support/fingerprint.mjs";

const app = useApp({ args: ["--enable-test-codes"] });

/**
 * A pass bought with the demo card from its own browser context (own cookies, closed with the browser).
 * With a `username` the buyer is let in through the API and can donate; without, a real page enters later.
 */
async function buyPass(page, email, username) {
  const context = await page.context().browser().newContext({ baseURL: app.url });
  const post = async (path, data) => {
    const response = await context.request.post(path, { data });
    const body = await response.json();
    assert.ok(response.ok(), `${path}: ${response.status()} ${JSON.stringify(body)}`);
    return body;
  };
  const pay = (clientSecret) => post("/api/demo/confirm-payment", { clientSecret, cardNumber: "4242424242424242" });
  const setup = await post("/api/create-payment-intent", { amount: 100, product: "livestream-access", email });
  await pay(setup.clientSecret);
  const { accessCode } = await post("/api/generate-access-code", { paymentIntentId: setup.paymentIntentId, deviceFingerprint: makeFingerprint() });
  if (username) assert.equal((await post("/api/validate-access", { accessCode, username, email, deviceFingerprint: makeFingerprint() })).valid, true);
  return {
    code: accessCode,
    donate: async (pence) => pay((await post("/api/create-donation-intent", { amount: pence })).clientSecret),
  };
}

/** Records the title of every toast shown from now on (only one is on screen at a time). */
function recordToasts(page) {
  return page.evaluate(() => {
    window.toastTitles = [];
    new MutationObserver(() => {
      for (const title of document.querySelectorAll("li.toast .toast-title")) {
        if (!window.toastTitles.includes(title.textContent)) window.toastTitles.push(title.textContent);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

const rowWith = (page, text) => page.locator("tbody tr").filter({ hasText: text });

app.browserTest("payments: list, search, kind and status filters, totals, net revenue chart and CSV", async ({ page }) => {
  await logIn(page, "/admin/payments");
  await page.getByRole("link", { name: "Payments" }).waitFor();
  await page.getByText("No payments yet").waitFor();
  const mara = await buyPass(page, "mara@crypt.example", "Mara");
  await mara.donate(2000);
  await mara.donate(500);
  const zeke = await buyPass(page, "zeke@hollow.example", "Ezekiel");
  await zeke.donate(5000);
  await buyPass(page, "quill@crypt.example", "Quill");
  await page.reload();

  await page.getByText("6 payments").waitFor();
  await rowWith(page, "mara@crypt.example").first().waitFor();
  const totals = page.getByRole("region", { name: "Totals" });
  await totals.getByText("£78.00").first().waitFor();
  await totals.getByText("What buyers paid and got back, before Stripe's own fees (per payment, and per dispute).").waitFor();
  await page.getByRole("img", { name: /Sales and net revenue from .* payments in GBP peaked at 6 .* net revenue total £78\.00 \(GBP\)/ }).waitFor();

  assert.deepEqual(await page.getByRole("combobox", { name: "Kind" }).locator("option").allInnerTexts(), ["All kinds", "Access passes", "Donations"]);
  await page.getByRole("combobox", { name: "Kind" }).selectOption("donation");
  await page.getByText("3 of 6 payments").waitFor();
  assert.equal(await page.locator("tbody tr").filter({ hasText: "Access pass" }).count(), 0);
  await page.getByRole("combobox", { name: "Kind" }).selectOption("all");

  const search = page.getByRole("searchbox", { name: "Search payments" });
  await search.fill("CRYPT.EXAMPLE");
  await page.getByText("4 of 6 payments").waitFor();
  await search.fill("ezekiel");
  await page.getByText("2 of 6 payments").waitFor();
  await search.fill("");

  const csv = page.getByRole("link", { name: "Export CSV" });
  assert.equal(await csv.getAttribute("href"), "/api/admin/payments.csv");
  const response = await page.request.get("/api/admin/payments.csv");
  assert.match(await response.text(), /^payment_intent,kind,amount,currency,status,refunded,disputed,net,email,username,code,created_at,failed_refunds\r\n/);
  await screenshotScreen(page, "admin-payments");
  await assertAccessible(page, "/admin/payments");
});

app.browserTest("refunding a pass after its Confirm? revokes the code: the viewer is thrown out with 'Access Denied'", async ({ page, context }) => {
  await logIn(page, "/admin/payments");
  const raven = await buyPass(page, "raven@crypt.example");
  const viewer = await openViewer(context.browser(), app.url, DESKTOP);
  try {
    await enterStream(viewer.page, "Raven", raven.code);
    await page.reload();
    const row = rowWith(page, raven.code);
    await row.getByRole("button", { name: /^Refund / }).click();
    const dialog = page.getByRole("dialog", { name: "Refund this payment?" });
    await dialog.getByText(`Confirm? The buyer gets £1.00 back, and the access code ${raven.code} is revoked at once`).waitFor();
    await screenshotScreen(page, "admin-payments-refund-confirm");
    await dialog.getByRole("button", { name: "Refund and revoke" }).click();
    await toastWith(page, "Refund Issued").getByText(`${raven.code} no longer works.`).waitFor();
    await row.getByText("Refunded", { exact: true }).waitFor();
    assert.equal(await row.getByRole("button", { name: /^Refund / }).isDisabled(), true);

    await chatLine(viewer.page, "Your access pass has been refunded or disputed and no longer works.").waitFor();
    await viewer.page.reload();
    await toastWith(viewer.page, "Access Denied").getByText("Your access code has expired or is not valid.").waitFor();
    await waitForPath(viewer.page, "/access");
    await screenshotViewportWidths(viewer.page, "refunded-viewer-access-denied");
  } finally {
    await viewer.context.close();
  }

  const donor = await buyPass(page, "partial@crypt.example", "Partial");
  await donor.donate(1000);
  await page.reload();
  const donation = page.locator("tbody tr").filter({ hasText: "partial@crypt.example" }).filter({ hasText: "Donation" });
  await donation.getByRole("button", { name: /^Refund / }).click();
  const dialog = page.getByRole("dialog", { name: "Refund this payment?" });
  await dialog.getByLabel("Amount to refund (GBP)").fill("2.50");
  await dialog.getByRole("button", { name: "Refund £2.50" }).click();
  await toastWith(page, "Refund Issued").getByText("£2.50 refunded.").waitFor();
  await donation.getByText("Partly refunded").waitFor();
  await donation.getByText("−£2.50 refunded").waitFor();

  // A second refund while the dialog is open elsewhere (another admin, or a refund through Stripe): the
  // one from the dialog, made from what it showed, is refused, and the dialog shows what is left now.
  const refundButton = donation.getByRole("button", { name: /^Refund / });
  assert.equal(await refundButton.getAttribute("aria-label"), "Refund £10.00 donation of partial@crypt.example");
  const intentId = (await (await page.request.get("/api/admin/payments")).json()).find((p) => p.kind === "donation" && p.email === "partial@crypt.example").paymentIntentId;
  await refundButton.click();
  await dialog.getByText("Paid £10.00; £7.50 can still be refunded.").waitFor();
  const elsewhere = await page.request.post("/api/admin/payments/refund", { data: { paymentIntentId: intentId, amount: 100 }, headers: { origin: app.url } });
  assert.equal(elsewhere.status(), 200);
  await dialog.getByLabel("Amount to refund (GBP)").fill("2.50");
  await dialog.getByRole("button", { name: "Refund £2.50" }).click();
  await toastWith(page, "Error").getByText("This payment has changed since you opened it: £3.50 of it is refunded now. Check it before refunding again.").waitFor();
  await dialog.getByText("Paid £10.00; £6.50 can still be refunded.").waitFor();
  await dialog.getByRole("alert").getByText("This payment has changed since you opened it: £3.50 of it is refunded now.", { exact: false }).waitFor();
  await screenshotViewportWidths(page, "admin-payments-refund-changed");
  // On a phone, scrolled down a long list, the dialog is in view, not at the foot of the page.
  await page.setViewportSize(MOBILE);
  await page.waitForTimeout(300);
  const box = await dialog.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= MOBILE.height && box.x >= 0 && box.x + box.width <= MOBILE.width, `dialog at ${JSON.stringify(box)}`);
  assert.ok(await page.evaluate(() => scrollY > 0), "the page was scrolled down to the payment");
  await page.setViewportSize(DESKTOP);
  // Changing the amount clears the refusal.
  await dialog.getByLabel("Amount to refund (GBP)").fill("1.00");
  await dialog.getByRole("alert").waitFor({ state: "detached" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await donation.getByText("−£3.50 refunded").waitFor();
  await page.getByRole("combobox", { name: "Status" }).selectOption("partly_refunded");
  await page.getByText(/^1 of \d+ payments$/).waitFor();
});

app.browserTest("an admin bans a viewer and refunds their pass in one step from the chat, each step in a toast", async ({ page, context }) => {
  const victim = await buyPass(page, "doomed@crypt.example");
  const viewer = await openViewer(context.browser(), app.url, DESKTOP);
  try {
    await enterStream(viewer.page, "Doomed", victim.code);
    await logIn(page);
    await enterStream(page, "Warden");
    await say(viewer.page, "I will ask my bank for it back");
    const line = chatLine(page, "I will ask my bank for it back");
    await line.hover();
    await line.getByRole("button", { name: "Ban Doomed and refund their pass" }).click();
    await line.getByRole("group", { name: "Ban Doomed and refund their pass" }).getByText("Confirm?").waitFor();
    await screenshotViewportWidths(page, "chat-ban-and-refund-confirm");
    await recordToasts(page);
    await line.getByRole("button", { name: "Yes" }).click();
    await toastWith(page, "Pass Refunded").getByText(`£1.00 refunded to Doomed; ${victim.code} no longer works.`).waitFor();
    assert.deepEqual(await page.evaluate(() => window.toastTitles), ["User Banned", "Pass Refunded"]);
    // Clear of the chat's message box and buttons, and of the moderator's buttons on the lines.
    await assertToastCoversNothing(page);
    await screenshotViewportWidths(page, "chat-ban-and-refund-done");
    await viewer.page.getByText("You have been banned from this event.", { exact: true }).waitFor();

    const payments = await (await page.request.get("/api/admin/payments")).json();
    assert.equal(payments.find((p) => p.code === victim.code).status, "refunded");
    const bans = await (await page.request.get("/api/admin/banned-users")).json();
    assert.ok(bans.bannedUsers.some((b) => b.username === "Doomed"));

    // The refund call cut off on its way: the ban holds, the refund is reported as failed, the pass stays paid.
    const unlucky = await buyPass(page, "unlucky@crypt.example");
    const second = await openViewer(context.browser(), app.url, DESKTOP);
    const cutOff = (route) => route.abort();
    try {
      await enterStream(second.page, "Unlucky", unlucky.code);
      await say(second.page, "you will never touch my money");
      const next = chatLine(page, "you will never touch my money");
      await page.route("**/api/admin/payments/refund", cutOff);
      await next.hover();
      await next.getByRole("button", { name: "Ban Unlucky and refund their pass" }).click();
      await page.evaluate(() => (window.toastTitles = []));
      await next.getByRole("button", { name: "Yes" }).click();
      await toastWith(page, "Refund Failed").getByText("The pass of Unlucky could not be refunded.", { exact: true }).waitFor();
      assert.deepEqual(await page.evaluate(() => window.toastTitles), ["User Banned", "Refund Failed"]);
      await second.page.getByText("You have been banned from this event.", { exact: true }).waitFor();
      const after = await (await page.request.get("/api/admin/payments")).json();
      assert.equal(after.find((p) => p.code === unlucky.code).status, "succeeded", "nothing was refunded");
    } finally {
      await page.unroute("**/api/admin/payments/refund", cutOff);
      await second.context.close();
    }
  } finally {
    await viewer.context.close();
  }
});

app.browserTest("a price of €4.50 is set (confirming the change of currency after sales), shown on / and charged", async ({ page }) => {
  await logIn(page, "/admin/settings");
  await page.getByLabel("Currency").selectOption("eur");
  await page.getByLabel("Access price (EUR)").fill("0.2");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await page.getByText("Access price must be at least €0.50").waitFor();
  await page.getByLabel("Access price (EUR)").fill("4.50");
  await page.getByRole("button", { name: "Save Settings" }).click();
  const confirm = page.getByRole("dialog", { name: "Change the currency?" });
  await confirm.getByText(/Payments have already been taken in GBP/).waitFor();
  await screenshotScreen(page, "admin-settings-currency-confirm");
  await confirm.getByRole("button", { name: "Change currency" }).click();
  await toastWith(page, "Settings Saved").waitFor();
  // Clear of Save Settings and the other cards' buttons, at 1280 × 800 and on a phone.
  await assertToastCoversNothing(page);
  await page.getByLabel("Donation goal (EUR)").waitFor();
  await screenshotScreen(page, "admin-settings-price");

  await page.goto("/");
  const buy = page.getByRole("button", { name: /BUY NOW/ });
  await buy.getByText("€4.50").waitFor();
  await page.locator(".home-buy-price-amount").getByText("€4.50").waitFor();
  await screenshotScreen(page, "home-price-eur");
  await buy.click();
  const dialog = page.getByRole("dialog", { name: "Secure Your Access" });
  await dialog.getByText("€4.50").waitFor();
  await dialog.getByText("Please provide your payment details.").waitFor();
  await dialog.getByLabel("Card number").fill("4242 4242 4242 4242");
  await dialog.getByLabel("Expiry").fill("1234");
  await dialog.getByLabel("CVC").fill("123");
  await dialog.getByRole("button", { name: "Pay Now" }).click();
  await waitForPath(page, "/checkout-success", 15_000);

  await page.goto("/admin/payments");
  const euro = page.locator("tbody tr").filter({ hasText: "€4.50" });
  await euro.getByText("Access pass").waitFor();
  const totals = page.getByRole("region", { name: "Totals" });
  await totals.getByText("Gross EUR").waitFor();
  await totals.getByText("Gross GBP").waitFor();
  await euro.getByRole("button", { name: "Refund €4.50 access pass of a buyer with no e-mail" }).waitFor();

  // The chart adds up one currency and says so; the other is a click away.
  const all = await (await page.request.get("/api/admin/payments")).json();
  const inEuros = all.filter((p) => p.currency === "eur").length;
  const chart = page.getByRole("region", { name: "Net revenue chart" });
  await chart.getByText(`In EUR only: ${inEuros} of ${all.length} payments. Amounts paid in different currencies are never added up.`).waitFor();
  await chart.getByText("Payments in EUR", { exact: true }).waitFor();
  await chart.getByRole("img", { name: new RegExp(`payments in EUR peaked at ${inEuros} .*net revenue total €[\\d.,]+ \\(EUR\\)`) }).waitFor();
  const currencies = chart.getByRole("group", { name: "Chart currency" });
  assert.equal(await currencies.getByRole("button", { name: "EUR" }).getAttribute("aria-pressed"), "true");
  await screenshotScreen(page, "admin-payments-two-currencies");
  await currencies.getByRole("button", { name: "GBP" }).click();
  await chart.getByText(`In GBP only: ${all.length - inEuros} of ${all.length} payments.`, { exact: false }).waitFor();
  await chart.getByRole("img", { name: new RegExp(`payments in GBP peaked at ${all.length - inEuros} `) }).waitFor();
  await assertAccessible(page, "/admin/payments in two currencies");

  // A pass bought without an address, its code then sent to one: Payments shows the code's address.
  const quiet = await buyPass(page);
  const codes = await (await page.request.get("/api/admin/access-codes")).json();
  const sent = await page.request.post(`/api/admin/access-codes/${codes.find((c) => c.code === quiet.code).id}/send`, { data: { email: "sent-later@crypt.example" } });
  assert.equal(sent.status(), 200);
  await page.reload();
  await rowWith(page, quiet.code).getByText("sent-later@crypt.example").waitFor();

  // The dashboard gives the donations of each currency, labelled.
  const stats = await (await page.request.get("/api/admin/stats")).json();
  const pounds = stats.donationTotals.find((t) => t.currency === "gbp");
  assert.ok(pounds && pounds.amount > 0, JSON.stringify(stats.donationTotals));
  await page.goto("/admin/dashboard");
  const card = page.locator("article.dash-stat-card").filter({ has: page.getByRole("heading", { name: "Donation total", exact: true }) });
  await card.locator(".dash-stat-card-value").getByText("€0.00", { exact: true }).waitFor();
  await card.getByText("In EUR, less refunds.").waitFor();
  await card.getByText(`Also £${(pounds.amount / 100).toFixed(2)} in GBP`).waitFor();
  await page.getByText("Donations in EUR only; those paid in GBP are in the Donation total above.").waitFor();
  await page.locator("figure.stats-chart").getByText("Donations (EUR)").waitFor();
  await screenshotScreen(page, "admin-dashboard-two-currencies");
  await assertAccessible(page, "/admin/dashboard in two currencies");
});
