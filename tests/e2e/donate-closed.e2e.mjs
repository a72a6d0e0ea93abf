import assert from "node:assert/strict";
import { MOBILE, screenshotWidths } from "./support/browser.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { useApp } from "./support/e2e.mjs";
import { adminApi, enterStream, openViewer } from "./support/live.mjs";

const app = useApp();
/** @type {Awaited<ReturnType<typeof adminApi>>} */
let admin;
const theAdmin = async () => (admin ??= await adminApi(app.url));

/** A pass bought with the demo card in the page, as the payment dialog does: its code and payment. */
async function buyInPage(page) {
  await page.goto("/design");
  return page.evaluate(async () => {
    const post = (path, body) => fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
    const intent = await post("/api/create-payment-intent", { amount: 100, product: "livestream-access", email: "shut-out@example.com" });
    await post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: "4242 4242 4242 4242" });
    const fingerprint = JSON.parse(localStorage.getItem("device_fingerprint") ?? "null");
    const code = await post("/api/generate-access-code", { paymentIntentId: intent.paymentIntentId, deviceFingerprint: fingerprint ?? undefined });
    return { accessCode: code.accessCode, paymentIntentId: intent.paymentIntentId };
  });
}

const donate = (page) => page.getByRole("button", { name: "Donate" });

app.browserTest("a viewer banned while watching finds Donate closed with the reason, and an open donation dialog closes", async ({ context }) => {
  const viewer = await openViewer(context.browser(), app.url, MOBILE);
  try {
    const { accessCode } = await buyInPage(viewer.page);
    await enterStream(viewer.page, "Banished", accessCode);
    await donate(viewer.page).click();
    await viewer.page.getByRole("heading", { name: "MAKE A DONATION" }).waitFor();

    await (await theAdmin()).banUser("Banished");
    const reason = viewer.page.getByRole("status").filter({ hasText: "Donations closed." });
    await reason.getByText("You have been banned from this event.").waitFor();
    await viewer.page.getByRole("heading", { name: "MAKE A DONATION" }).waitFor({ state: "detached" });
    assert.equal(await donate(viewer.page).isDisabled(), true, "Donate is closed");
    assert.equal(await donate(viewer.page).getAttribute("aria-describedby"), "donations-closed");
    await screenshotWidths(viewer.page, "donate-closed-banned");
    await assertAccessible(viewer.page, "/livestream after a ban");
  } finally {
    await viewer.context.close();
  }
});

app.browserTest("a viewer whose pass is refunded while watching finds Donate closed with the reason", async ({ context }) => {
  const viewer = await openViewer(context.browser(), app.url, MOBILE);
  try {
    const { accessCode, paymentIntentId } = await buyInPage(viewer.page);
    await enterStream(viewer.page, "Refunded", accessCode);
    assert.equal(await donate(viewer.page).isDisabled(), false, "Donate works while the pass does");

    await (await theAdmin()).refund(paymentIntentId);
    await viewer.page.getByRole("status").filter({ hasText: "Donations closed." }).getByText("Your access pass has been refunded or disputed and no longer works.").waitFor();
    assert.equal(await donate(viewer.page).isDisabled(), true);
    await screenshotWidths(viewer.page, "donate-closed-refunded");
  } finally {
    await viewer.context.close();
  }
});
