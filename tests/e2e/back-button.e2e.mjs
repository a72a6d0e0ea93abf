import assert from "node:assert/strict";
import { join } from "node:path";
import { DESKTOP, MOBILE, screenshot, screenshotDir } from "./support/browser.mjs";
import { useApp, waitForPath } from "./support/e2e.mjs";
import { openBuyDialog } from "./support/viewer-flows.mjs";

// Demo mode: the dialog shows the demo card form.
const app = useApp();

const path = (page) => new URL(page.url()).pathname;

async function payWithDemoCard(dialog) {
  await dialog.getByText("Please provide your payment details.").waitFor();
  await dialog.getByLabel("Card number").fill("4242 4242 4242 4242");
  await dialog.getByLabel("Expiry").fill("1234");
  await dialog.getByLabel("CVC").fill("123");
  await dialog.getByRole("button", { name: "Pay Now" }).click();
}

for (const viewport of [MOBILE, DESKTOP]) {
  const at = `(${viewport.width} px)`;

  app.browserTest(
    `Back with the payment dialog open closes the dialog and stays on the landing page ${at}`,
    async ({ page }) => {
      await page.goto("/design");
      await page.goto("/");
      const dialog = await openBuyDialog(page);
      await dialog.getByText("Please provide your payment details.").waitFor();
      await page.evaluate(() => document.fonts.ready);
      // The viewport only: a full-page shot cannot show a modal over a scroll-locked page.
      if (process.env.DREADCAST_E2E_SCREENSHOTS !== "0") await page.screenshot({ path: join(screenshotDir, `back-button-dialog-open-${viewport.width}.png`) });

      await page.goBack();
      await dialog.waitFor({ state: "detached" });
      assert.equal(path(page), "/");
      await page.getByRole("button", { name: /BUY NOW/ }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.evaluate(() => document.fonts.ready);
      await screenshot(page, `back-button-dialog-closed-${viewport.width}`);

      // Closed with Cancel, it leaves no entry behind: Back leaves the page as it would have.
      const again = await openBuyDialog(page);
      await again.getByRole("button", { name: "Cancel" }).click();
      await again.waitFor({ state: "detached" });
      await page.waitForTimeout(200);
      await page.goBack();
      await waitForPath(page, "/design");
    },
    { viewport },
  );

  app.browserTest(
    `after a purchase, Back from /access leads to the landing page, not to the success page again ${at}`,
    async ({ page }) => {
      await page.goto("/");
      const dialog = await openBuyDialog(page);
      // The buyer scrolled down to BUY NOW; the code's page opens at its top, its header over nothing.
      const scrolledTo = await page.evaluate(() => window.scrollY);
      await payWithDemoCard(dialog);
      await waitForPath(page, "/checkout-success");
      await page.getByRole("heading", { name: "Your Access Code" }).waitFor();
      assert.ok(scrolledTo > 0, "the landing page was scrolled to BUY NOW");
      assert.equal(await page.evaluate(() => window.scrollY), 0, "the code's page opens at its top");
      await page.getByRole("button", { name: "CONTINUE NOW" }).click();
      await waitForPath(page, "/access");
      await page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor();
      assert.equal(await page.evaluate(() => window.scrollY), 0, "and so does the access page");

      await page.goBack();
      await waitForPath(page, "/");
      await page.getByRole("button", { name: /BUY NOW/ }).waitFor();
      assert.equal(await page.getByRole("dialog").count(), 0);
      // Nothing sends the buyer on from here.
      await page.waitForTimeout(1500);
      assert.equal(path(page), "/");
    },
    { viewport },
  );
}
