import assert from "node:assert/strict";
import { after } from "node:test";
import { screenshotWidths } from "./support/browser.mjs";
import { logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";
import { fakeStripeFlags, startFakeStripe as startFakeStripeApi } from "../support/fake-stripe.mjs";

// Live-key mode against a local fake of Stripe's API, before the organiser has linked any legal page.
const fakeStripe = await startFakeStripeApi();
after(() => fakeStripe.close());
const app = useApp({ args: [...fakeStripeFlags(fakeStripe.url), "--public-url", "http://shop.dreadcast.test"] });

const checklist = (page) => page.getByRole("region", { name: "Ready to sell" });
const item = (page, key) => checklist(page).locator(`li[data-key="${key}"]`);

app.browserTest("with live payments, BUY NOW stays closed until the legal links exist; the dashboard's checklist says why and ticks them off", async ({ page, context }) => {
  const home = await context.newPage();
  await home.goto("/");
  const buy = home.getByRole("button", { name: /BUY NOW/ });
  await buy.waitFor();
  assert.equal(await buy.isDisabled(), true, "BUY NOW is closed");
  await home.getByRole("status").getByText("Passes are not on sale yet. Check back soon.").waitFor();
  await screenshotWidths(home, "home-sales-closed");

  await logIn(page);
  const panel = checklist(page);
  await panel.getByText("Passes are not on sale", { exact: true }).waitFor();
  await panel.getByText("BUY NOW stays closed until the privacy policy and terms of service links are set in Settings: real card payments need them published first.").waitFor();
  await panel.getByText("1 of 6 done").waitFor();
  await item(page, "payments").getByText("Payments live").waitFor();
  await item(page, "organizer").getByText("(to do)").waitFor();
  await item(page, "privacy").getByRole("link", { name: "Open Settings" }).waitFor();
  await item(page, "testPurchase").getByRole("link", { name: "Open the site" }).waitFor();
  await screenshotScreen(page, "dashboard-ready-to-sell-closed");
  await assertAccessible(page, "/admin/dashboard with the sale closed");

  // The organiser fills in their details in Settings.
  await item(page, "privacy").getByRole("link", { name: "Open Settings" }).click();
  await page.getByLabel("Organiser name").fill("Night Owl Events");
  await page.getByLabel("Contact e-mail").fill("help@nightowl.example");
  await page.getByLabel("Privacy policy link").fill("https://nightowl.example/privacy");
  await page.getByLabel("Terms of service link").fill("https://nightowl.example/terms");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await toastWith(page, "Settings Saved").waitFor();

  await page.goto("/admin/dashboard");
  await item(page, "terms").getByText("https://nightowl.example/terms").waitFor();
  assert.equal(await checklist(page).getByText("Passes are not on sale", { exact: true }).count(), 0, "the sale is open");
  await checklist(page).getByText("4 of 6 done").waitFor();
  await item(page, "organizer").getByText("Night Owl Events · help@nightowl.example").waitFor();
  await screenshotScreen(page, "dashboard-ready-to-sell-open");

  await home.reload();
  await buy.waitFor();
  assert.equal(await buy.isDisabled(), false, "BUY NOW sells now");
  assert.equal(await home.getByText("Passes are not on sale yet. Check back soon.").count(), 0);
  await home.close();
});
