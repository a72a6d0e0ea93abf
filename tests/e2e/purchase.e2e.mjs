import assert from "node:assert/strict";
import { DESKTOP, MOBILE, screenshotWidths } from "./support/browser.mjs";
import { accessibilityViolations } from "./support/a11y.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { assertToastCoversNothing, controlsUnderToast, settleToast } from "./support/toast-cover.mjs";
import { openBuyDialog, screenshotViewportWidths } from "./support/viewer-flows.mjs";
import { countdownValues, countingDown } from "./support/countdown.mjs";

// Demo mode: no Stripe keys, so the dialog shows the demo card form.
const app = useApp();

const DAY = 86_400_000;

const INLINE_SETTINGS = /(<script type="application\/json" id="dreadcast-settings">)([\s\S]*?)(<\/script>)/;

/** Serves the settings with some fields changed: /api/livestream-settings, and those the landing page's HTML carries. */
async function routeSettings(page, changes) {
  await page.route("**/api/livestream-settings", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), ...changes } });
  });
  await page.route(
    (url) => url.pathname === "/",
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        INLINE_SETTINGS,
        (_, open, json, close) => `${open}${JSON.stringify({ ...JSON.parse(json), ...changes }).replace(/</g, "\\u003c")}${close}`,
      );
      await route.fulfill({ response, body: html });
    },
  );
}

async function payWithDemoCard(dialog, card, email) {
  await dialog.getByText("Please provide your payment details.").waitFor();
  if (email) await dialog.getByLabel("Email (optional)").fill(email);
  await dialog.getByLabel("Card number").fill(card);
  await dialog.getByLabel("Expiry").fill("1234");
  await dialog.getByLabel("CVC").fill("123");
  await dialog.getByRole("button", { name: "Pay Now" }).click();
}

app.browserTest("the landing page shows the price, the countdown, the OR divider and the entry form", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("heading", { name: "EVENT BEGINS IN" }).waitFor();
  const buy = page.getByRole("button", { name: /BUY NOW/ });
  await buy.waitFor();
  assert.match(await buy.innerText(), /BUY NOW\s*£1\.00/);
  await page.getByRole("separator", { name: "or" }).getByText("OR", { exact: true }).waitFor();
  await page.getByRole("button", { name: "ENTER THE DARKNESS" }).waitFor();
  // The boxes read "--" until the settings arrive, which on a busy machine can be after the price.
  await countingDown(page);
  const values = await countdownValues(page);
  assert.deepEqual(Object.keys(values), ["Days", "Hours", "Minutes", "Seconds"]);
  for (const value of Object.values(values)) assert.match(value, /^\d{2,}$/);
  assert.deepEqual(await accessibilityViolations(page), []);
  await screenshotWidths(page, "purchase-home");
});

app.browserTest("the countdown refreshes every second; once the event has started and the stream is on the air the page says it is live instead", async ({ page }) => {
  await routeSettings(page, { startDate: new Date(Date.now() + 3 * DAY + 90_000).toISOString() });
  await page.goto("/");
  await page.waitForFunction(() => document.querySelector(".countdown-value")?.textContent === "03");
  const first = (await countdownValues(page)).Seconds;
  await page.waitForFunction((before) => document.querySelectorAll(".countdown-value")[3]?.textContent !== before, first, { timeout: 2500 });

  await page.unrouteAll();
  const started = new Date(Date.now() - 60_000).toISOString();
  await routeSettings(page, {
    startDate: started,
    phase: "live",
    night: { onAir: true, openedAt: null, wentLiveAt: started, endedAt: null, latestEnd: null, onSale: true, cancelledAt: null, cancelNote: "" },
  });
  await page.reload();
  await page.getByRole("heading", { name: "The event is live" }).waitFor();
  assert.equal(await page.locator(".countdown-value").count(), 0);
});

/** Serves the landing page without the settings its HTML carries, as if the server could not read them. */
async function withoutInlineSettings(page) {
  await page.route(
    (url) => url.pathname === "/",
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(INLINE_SETTINGS, "");
      await route.fulfill({ response, body: html });
    },
  );
}

app.browserTest("when the settings cannot be loaded the event is taken to start 5 days ahead", async ({ page }) => {
  await withoutInlineSettings(page);
  await page.route("**/api/livestream-settings", (route) => route.fulfill({ status: 500, body: "down" }));
  await page.goto("/");
  await countingDown(page);
  const values = await countdownValues(page);
  const shown = ((Number(values.Days) * 24 + Number(values.Hours)) * 60 + Number(values.Minutes)) * 60 + Number(values.Seconds);
  assert.ok(shown <= 5 * 86_400 && shown >= 5 * 86_400 - 10, `${JSON.stringify(values)} is 5 days ahead`);
});

app.browserTest("the banner falls back to the default thumbnail when the event's image fails to load", async ({ page }) => {
  await routeSettings(page, { displayThumbnail: "/uploads/missing.jpg", thumbnailUrl: "/uploads/missing.jpg" });
  await page.goto("/");
  const banner = page.getByRole("img", { name: /event banner/ });
  await page.waitForFunction(() => document.querySelector(".home-banner-img")?.getAttribute("src") === "/assets/default-thumbnail.jpg");
  assert.equal(await banner.getAttribute("src"), "/assets/default-thumbnail.jpg");
});

app.browserTest("the landing form's messages, then the code and name are stored and the browser goes to /access", async ({ page }) => {
  await page.goto("/");
  const submit = page.getByRole("button", { name: "ENTER THE DARKNESS" });
  await submit.click();
  await page.getByText("Access code is required").waitFor();
  await page.getByText("Username must be at least 3 characters").waitFor();
  await screenshotWidths(page, "purchase-home-form-errors");

  await page.getByLabel("Access code").fill("SKP-AAAA-BBBB-CCCC-DDDD");
  await page.getByLabel("Chat username").fill("x".repeat(21));
  await submit.click();
  await page.getByText("Username must be 20 characters or less").waitFor();
  assert.equal(await page.getByText("Access code is required").count(), 0);
  assert.equal(new URL(page.url()).pathname, "/");

  await page.getByLabel("Chat username").fill("Nightwalker");
  await submit.click();
  await waitForPath(page, "/access");
  assert.deepEqual(await page.evaluate(() => [localStorage.getItem("accessCode"), localStorage.getItem("username")]), ["SKP-AAAA-BBBB-CCCC-DDDD", "Nightwalker"]);
  assert.equal(await page.getByLabel("Access code", { exact: true }).inputValue(), "SKP-AAAA-BBBB-CCCC-DDDD");
});

app.browserTest(
  "demo purchase: BUY NOW, test card, code on /checkout-success, CONTINUE NOW, username, livestream",
  async ({ page }) => {
    const stripeScripts = [];
    page.on("request", (request) => request.url().includes("js.stripe.com") && stripeScripts.push(request.url()));
    // The page's clock runs as usual, and is held while the success page is photographed (its countdown would leave it).
    await page.clock.install();
    await page.goto("/");
    const dialog = await openBuyDialog(page);
    await dialog.getByText("Complete your purchase securely").waitFor();
    await dialog.getByText("Demo mode — no real payment").waitFor();
    await dialog.getByText("Please provide your payment details.").waitFor();
    assert.deepEqual(await accessibilityViolations(page), [], "the open payment dialog");
    await screenshotViewportWidths(page, "purchase-dialog");

    await payWithDemoCard(dialog, "4242 4242 4242 4242", "buyer@example.com");
    await toastWith(page, "Payment Successful").waitFor();
    await dialog.getByText("Payment succeeded!").waitFor();
    await waitForPath(page, "/checkout-success");
    // The dialog ("Payment succeeded! One moment…") goes with the landing page, once the code page's files are in.
    await page.getByRole("dialog").waitFor({ state: "detached", timeout: 5_000 });
    const code = page.locator(".checkout-code-reveal-value");
    await code.waitFor();
    const accessCode = (await code.innerText()).trim();
    assert.match(accessCode, /^SKP-[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    await page.getByText("Keep this code safe. It can only be used on one device").waitFor();
    await toastWith(page, "Your access code has been sent to your email!").waitFor();
    // The toast leaves the code, Copy code and CONTINUE NOW in sight.
    await assertToastCoversNothing(page, [MOBILE, { width: 390, height: 664 }, DESKTOP]);
    const stored = await page.evaluate(() => ({ code: localStorage.getItem("accessCode"), intent: localStorage.getItem("paymentIntentId"), email: localStorage.getItem("email") }));
    assert.equal(stored.code, accessCode);
    assert.match(stored.intent ?? "", /^pi_demo_/);
    assert.equal(stored.email, "buyer@example.com");
    await page.getByText(/Taking you to the access page in/).waitFor();
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 500));
    await screenshotWidths(page, "purchase-checkout-success");

    await page.clock.resume();
    await page.getByRole("button", { name: "CONTINUE NOW" }).click();
    await waitForPath(page, "/access");
    assert.equal(await page.getByLabel("Access code", { exact: true }).inputValue(), accessCode);
    await page.getByLabel("Chat username").fill("FirstBlood");
    await page.getByRole("button", { name: "ENTER THE STREAM" }).click();
    await toastWith(page, "Access Granted").waitFor();
    await waitForPath(page, "/livestream");
    const session = await page.evaluate(() => ({
      verified: sessionStorage.getItem("accessVerified"),
      method: sessionStorage.getItem("verificationMethod"),
      username: localStorage.getItem("username"),
    }));
    assert.deepEqual(session, { verified: "true", method: "access-code", username: "FirstBlood" });
    assert.deepEqual(stripeScripts, [], "demo mode never loads Stripe.js");
  },
  { viewport: MOBILE },
);

app.browserTest("the success page counts down 5 seconds and then goes to /access on its own", async ({ page }) => {
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await payWithDemoCard(dialog, "4242424242424242");
  await waitForPath(page, "/checkout-success");
  await toastWith(page, "Purchase Successful!").waitFor();
  await toastWith(page, "Your access code has been generated.").waitFor();
  await page.locator(".checkout-seconds", { hasText: "5" }).waitFor();
  const shownAt = Date.now();
  await waitForPath(page, "/access", 8000);
  const waited = Date.now() - shownAt;
  assert.ok(waited >= 3500 && waited <= 7000, `redirected after ${waited} ms`);
});

/** Whether `locator` is inside the window (not scrolled out of its dialog). */
async function inView(page, locator) {
  const box = await locator.boundingBox();
  const { height } = page.viewportSize();
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

app.browserTest("a declined card gives 'Payment Failed' with the card's message, says so in the dialog and keeps it open", async ({ page }) => {
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await payWithDemoCard(dialog, "4000 0000 0000 0002");
  const failed = toastWith(page, "Payment Failed");
  await failed.waitFor();
  await failed.getByText("Your card was declined.").waitFor();
  // Said in the dialog too, beside the buttons, and the toast hides none of the dialog's controls.
  const notice = dialog.getByRole("alert").filter({ hasText: "Nothing was taken from your card." });
  await notice.getByText("Your card was declined.").waitFor();
  const payNow = dialog.getByRole("button", { name: "Pay Now" });
  await payNow.waitFor();
  assert.ok(await inView(page, payNow), "Pay Now is in view under the notice");
  assert.equal(new URL(page.url()).pathname, "/");
  assert.equal(await page.evaluate(() => localStorage.getItem("paymentIntentId")), null);
  await assertToastCoversNothing(page);
  assert.deepEqual(await accessibilityViolations(page), [], "the dialog after a declined card");
  await screenshotViewportWidths(page, "purchase-dialog-declined");

  // Paying again clears the notice; the test card then goes through.
  await dialog.getByRole("button", { name: "Fill in the test card" }).click();
  await payNow.click();
  await waitForPath(page, "/checkout-success", 15_000);
});

app.browserTest(
  "the same declined card on a phone: the toast keeps off the dialog's close button and buttons",
  async ({ page }) => {
    await page.goto("/");
    const dialog = await openBuyDialog(page);
    await payWithDemoCard(dialog, "4000 0000 0000 0002");
    await toastWith(page, "Payment Failed").waitFor();
    await dialog.getByRole("alert").getByText("Your card was declined.").waitFor();
    await settleToast(page);
    assert.deepEqual(await controlsUnderToast(page), []);
    assert.ok(await inView(page, dialog.getByRole("button", { name: "Pay Now" })), "Pay Now is in view under the notice");

    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
  },
  { viewport: MOBILE },
);

app.browserTest("the dialog shows 'Processing...' while paying, and a card form error before asking the server", async ({ page }) => {
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await dialog.getByText("Please provide your payment details.").waitFor();
  await dialog.getByRole("button", { name: "Pay Now" }).click();
  await dialog.getByText("Please enter your card number.").waitFor();
  await dialog.getByLabel("Email (optional)").fill("not-an-email");
  await dialog.getByRole("button", { name: "Fill in the test card" }).click();
  await dialog.getByRole("button", { name: "Pay Now" }).click();
  await dialog.getByText("Please enter a valid email address").waitFor();
  await dialog.getByLabel("Email (optional)").fill("");

  /** @type {(value?: unknown) => void} */
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route("**/api/demo/confirm-payment", async (route) => {
    await held;
    await route.continue();
  });
  await dialog.getByRole("button", { name: "Pay Now" }).click();
  await dialog.getByRole("button", { name: "Processing..." }).waitFor();
  // While paying nothing closes the dialog: not Escape, not a click beside it, not its X (disabled), not Back.
  await page.keyboard.press("Escape");
  await page.mouse.click(20, 400);
  const close = dialog.getByRole("button", { name: "Close" });
  assert.equal(await close.isDisabled(), true, "the X is disabled while paying");
  await page.goBack();
  await page.waitForTimeout(300);
  assert.equal(await dialog.isVisible(), true, "the dialog is still open");
  await dialog.getByRole("button", { name: "Processing..." }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/");
  release();
  await dialog.getByText("Payment succeeded!").waitFor();
  await page.keyboard.press("Escape");
  assert.equal(await dialog.isVisible(), true, "the dialog stays while it moves on");
  await waitForPath(page, "/checkout-success");
  await page.locator(".checkout-code-reveal-value").waitFor();
});

app.browserTest("a failed payment setup shows 'Failed to initialize payment. Please try again.' with Cancel and Try again", async ({ page }) => {
  /** @type {(value?: unknown) => void} */
  let release;
  const held = new Promise((resolve) => (release = resolve));
  let failing = true;
  await page.route("**/api/create-payment-intent", async (route) => {
    await held;
    if (failing) await route.fulfill({ status: 502, body: "bad gateway" });
    else await route.continue();
  });
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await dialog.getByText("Initializing payment...").waitFor();
  release();
  await dialog.getByText("Failed to initialize payment. Please try again.").waitFor();
  await dialog.getByRole("button", { name: "Cancel" }).waitFor();
  await screenshotViewportWidths(page, "purchase-dialog-setup-failed");

  // Try again while it still fails, then once it works: the card form, and the payment goes through.
  await dialog.getByRole("button", { name: "Try again" }).click();
  await dialog.getByText("Failed to initialize payment. Please try again.").waitFor();
  failing = false;
  await dialog.getByRole("button", { name: "Try again" }).click();
  await payWithDemoCard(dialog, "4242 4242 4242 4242");
  await waitForPath(page, "/checkout-success");
  await page.locator(".checkout-code-reveal-value").waitFor();
});

app.browserTest("Cancel after a failed payment setup closes the dialog", async ({ page }) => {
  await page.route("**/api/create-payment-intent", (route) => route.fulfill({ status: 502, body: "bad gateway" }));
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  await dialog.getByText("Failed to initialize payment. Please try again.").waitFor();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("dialog").waitFor({ state: "detached" });
});

app.browserTest("the payment form's code cut off on its way: BUY NOW says so and the page stays; the next tap opens the form", async ({ page }) => {
  let failing = true;
  let cut = 0;
  await page.route(/\/assets\/payment-dialog-[^/]+\.js$/, (route) => {
    if (!failing) return route.fallback();
    cut++;
    return route.abort("connectionreset");
  });
  await page.goto("/");
  await page.getByRole("button", { name: /BUY NOW/ }).click();
  const notice = toastWith(page, "The payment form could not be loaded. Check your connection, then try again.");
  await notice.waitFor();
  assert.ok(cut >= 1, "the form's file was cut off");
  assert.equal(await toastWith(page, "Could Not Open").count(), 1);
  assert.equal(await page.getByRole("dialog", { name: "Secure Your Access" }).count(), 0, "no dialog opened");
  assert.equal(await page.getByText("Something went wrong").count(), 0, "the landing page stayed");
  await screenshotViewportWidths(page, "purchase-dialog-code-failed");

  failing = false;
  const dialog = await openBuyDialog(page);
  await payWithDemoCard(dialog, "4242 4242 4242 4242");
  await waitForPath(page, "/checkout-success");
});

app.browserTest("an answer lost after the card was charged: the dialog says it may have gone through, checks, and goes on to the code", async ({ page }) => {
  await page.goto("/");
  const dialog = await openBuyDialog(page);
  // First the request never reaches the server: checking finds nothing charged.
  await page.route("**/api/demo/confirm-payment", (route) => route.abort("connectionreset"));
  await payWithDemoCard(dialog, "4242 4242 4242 4242", "lost@example.com");
  await toastWith(page, "Payment Failed").getByText("An unexpected error occurred.").waitFor();
  const notice = dialog.getByRole("alert").filter({ hasText: "Your payment may have gone through" });
  await notice.getByText("Check it before paying again", { exact: false }).waitFor();
  await notice.getByRole("button", { name: "Check my payment" }).click();
  await dialog.getByRole("status").getByText("Nothing was taken from your card. You can press Pay Now again.").waitFor();

  // Then the server charges the card but the answer is lost on the way back.
  await page.unroute("**/api/demo/confirm-payment");
  await page.route("**/api/demo/confirm-payment", async (route) => {
    await route.fetch();
    await route.abort("connectionreset");
  });
  await dialog.getByRole("button", { name: "Pay Now" }).click();
  await notice.getByRole("button", { name: "Check my payment" }).waitFor();
  assert.equal(await dialog.getByText("Nothing was taken from your card").count(), 0, "the earlier word is gone");
  assert.equal(new URL(page.url()).pathname, "/");
  assert.deepEqual(await accessibilityViolations(page), [], "the dialog after a lost answer");
  await screenshotViewportWidths(page, "purchase-dialog-answer-lost");

  // Checking while still offline says so; once the server answers, the paid intent goes on to the code.
  await page.route("**/api/demo/payment-intent*", (route) => route.abort("internetdisconnected"));
  await notice.getByRole("button", { name: "Check my payment" }).click();
  await notice.getByText("Still no answer. Check your connection, then try again.").waitFor();
  await page.unroute("**/api/demo/payment-intent*");
  await notice.getByRole("button", { name: "Check my payment" }).click();
  await toastWith(page, "Payment Successful").waitFor();
  await dialog.getByText("Payment succeeded!").waitFor();
  await waitForPath(page, "/checkout-success");
  await page.locator(".checkout-code-reveal-value").waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("email")), "lost@example.com");
});

app.browserTest(
  "an answer lost after the card was charged: pressing Pay Now again goes on to the code without paying twice",
  async ({ page }) => {
    const setups = [];
    page.on("request", (request) => request.url().includes("/api/create-payment-intent") && setups.push(request.url()));
    await page.goto("/");
    const dialog = await openBuyDialog(page);
    let lose = true;
    await page.route("**/api/demo/confirm-payment", async (route) => {
      const response = await route.fetch();
      if (lose) {
        lose = false;
        await route.abort("connectionreset");
      } else await route.fulfill({ response });
    });
    await payWithDemoCard(dialog, "4242 4242 4242 4242");
    await dialog.getByRole("alert").getByText("Your payment may have gone through").waitFor();
    await dialog.getByRole("button", { name: "Pay Now" }).click();
    await waitForPath(page, "/checkout-success");
    await page.locator(".checkout-code-reveal-value").waitFor();
    // The second Pay Now confirmed the same, already paid intent: one payment, not two.
    assert.equal(setups.length, 1);
    assert.match((await page.evaluate(() => localStorage.getItem("paymentIntentId"))) ?? "", /^pi_demo_/);
  },
  { viewport: MOBILE },
);
