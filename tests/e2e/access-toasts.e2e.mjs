import assert from "node:assert/strict";
import { MOBILE } from "./support/browser.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { adminApi, chatLine, connected, enterStream, say } from "./support/live.mjs";
import { assertToastCoversNothing } from "./support/toast-cover.mjs";
import { openBuyDialog, screenshotViewportWidths } from "./support/viewer-flows.mjs";

// Demo mode: test codes are on, payments go through the demo card form.
const app = useApp();
/** @type {Awaited<ReturnType<typeof adminApi>>} */
let admin;

async function theAdmin() {
  admin ??= await adminApi(app.url);
  return admin;
}

/** Stores a code and a chat name as the landing form would, from a page of the app. */
async function storeViewer(page, accessCode, username) {
  await page.goto("/design");
  await page.evaluate(
    ([c, u]) => {
      localStorage.setItem("accessCode", c);
      localStorage.setItem("username", u);
      // Each scenario starts a fresh /access ⇄ /livestream history, so the loop guard stays out of it.
      sessionStorage.removeItem("navHistory");
    },
    [accessCode, username],
  );
}

/** The 'Access Denied' toast with exactly this description. */
async function accessDenied(page, description) {
  const toast = toastWith(page, "Access Denied");
  await toast.getByText(description, { exact: true }).waitFor();
  assert.equal(await toast.getAttribute("data-variant"), "destructive");
  return toast;
}

app.browserTest("a fresh browser on /livestream is sent to /access with 'Access Required'", async ({ page }) => {
  await page.goto("/livestream");
  await waitForPath(page, "/access");
  const toast = toastWith(page, "Access Required");
  await toast.getByText("Please enter your access code to continue.", { exact: true }).waitFor();
  assert.equal(await toast.getAttribute("data-variant"), "destructive");
  await page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor();
  await assertToastCoversNothing(page);
  await screenshotViewportWidths(page, "toast-access-required");
});

app.browserTest("a stored regular code verified on the stream page says 'Access granted!', once per tab", async ({ page }) => {
  const code = await (await theAdmin()).generateCode("SKP");
  await storeViewer(page, code, "Latecomer");
  await page.goto("/livestream");
  const toast = toastWith(page, "Access granted!");
  await toast.getByText("Watching as Latecomer.", { exact: true }).waitFor();
  assert.equal(await toast.getAttribute("data-variant"), "default");
  await connected(page);
  // Clear of the chat's message box, Send and Donate at 1280 × 800, and of the player and chat on a phone.
  await assertToastCoversNothing(page);
  await screenshotViewportWidths(page, "toast-access-granted");

  await page.reload();
  await connected(page);
  assert.equal(await toastWith(page, "Access granted!").count(), 0, "a reload in the same tab is not announced again");
});

app.browserTest("a revoked code is refused on the stream page: 'Your access code has expired or is not valid.'", async ({ page }) => {
  const api = await theAdmin();
  const code = await api.generateCode("SKP");
  await enterStream(page, "Forsaken", code);
  await api.revokeCode(code);
  await page.goto("/livestream");
  await accessDenied(page, "Your access code has expired or is not valid.");
  await waitForPath(page, "/access");
  await screenshotViewportWidths(page, "toast-access-revoked");
});

app.browserTest("a refusal the page does not know is shown in the server's words, else a fallback line", async ({ page, context }) => {
  /** @type {{ status: number, contentType: string, body: string }} */
  let answer;
  await context.route("**/api/verify-stream-access", (route) => route.fulfill(answer));
  // Back on /access the silent check of the stored code says "not valid", so the form stays.
  await context.route("**/api/verify-existing-access", (route) => route.fulfill({ status: 200, json: { valid: false, message: "Invalid access code. Please try again." } }));
  const json = (status, body) => ({ status, contentType: "application/json", body: JSON.stringify(body) });

  /** @type {[{ status: number, contentType: string, body: string }, string][]} */
  const cases = [
    [json(200, { valid: false, message: "The doors are sealed until midnight." }), "The doors are sealed until midnight."],
    [json(403, { valid: false, message: "This pass was refunded.", error: "This pass was refunded." }), "This pass was refunded."],
    [json(200, { valid: false }), "Invalid access code."],
    [json(403, {}), "Failed to verify access."],
    [{ status: 200, contentType: "text/plain", body: "OK" }, "Failed to verify your access code"],
  ];
  for (const [index, [response, description]] of cases.entries()) {
    answer = response;
    await storeViewer(page, "SKP-WXYZ-WXYZ-WXYZ-WXYZ", "Questioner");
    await page.goto("/livestream");
    await accessDenied(page, description);
    await waitForPath(page, "/access");
    if (index === 0) await screenshotViewportWidths(page, "toast-access-denied-server-message");
  }
});

app.browserTest("a MOD- code is checked through verify-special-access; a refusal asks the viewer to contact support", async ({ page }) => {
  const api = await theAdmin();
  const code = await api.generateCode("MOD");
  await api.revokeCode(code);
  const calls = [];
  page.on("request", (request) => {
    if (/\/api\/verify-(special|stream)-access$/.test(request.url())) calls.push([new URL(request.url()).pathname, request.postDataJSON()]);
  });
  await storeViewer(page, code, "FallenWarden");
  await page.goto("/livestream");
  await accessDenied(page, "Your special access code could not be verified. Please contact support.");
  await waitForPath(page, "/access");
  assert.deepEqual(calls, [["/api/verify-special-access", { accessCode: code, username: "FallenWarden" }]]);
  await screenshotViewportWidths(page, "toast-special-access-refused");
});

app.browserTest("the landing form checks the code with verify-access before going on to /access", async ({ page }) => {
  const checks = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/verify-access")) checks.push(request.postDataJSON());
  });
  const enterFromLanding = async (code, username) => {
    await page.goto("/");
    await page.getByLabel("Access code").fill(code);
    await page.getByLabel("Chat username").fill(username);
    await page.getByRole("button", { name: "ENTER THE DARKNESS" }).click();
    await waitForPath(page, "/access");
    await page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor();
  };

  await enterFromLanding("skp-nope-nope-nope-nope", "Wanderer");
  await accessDenied(page, "Invalid access code. Please try again.");
  assert.equal(await page.getByLabel("Access code", { exact: true }).inputValue(), "SKP-NOPE-NOPE-NOPE-NOPE", "kept to be corrected");
  await screenshotViewportWidths(page, "toast-landing-refused");

  const code = await (await theAdmin()).generateCode("SKP");
  await enterFromLanding(code, "Pilgrim");
  await page.waitForTimeout(300);
  assert.equal(await toastWith(page, "Access Denied").count(), 0);
  assert.deepEqual(checks, [
    { accessCode: "SKP-NOPE-NOPE-NOPE-NOPE", username: "Wanderer" },
    { accessCode: code, username: "Pilgrim" },
  ]);
});

app.browserTest("without a stored chat name the stream page takes the viewer's own from GET /api/user-data", async ({ page }) => {
  await enterStream(page, "Whisperer");
  await page.evaluate(() => {
    localStorage.removeItem("username");
    sessionStorage.removeItem("username");
  });
  const asked = page.waitForResponse((response) => response.url().endsWith("/api/user-data") && response.status() === 200);
  await page.reload();
  await asked;
  await connected(page);
  await page.getByText("Whisperer").first().waitFor();
  assert.equal(await toastWith(page, "Username Required").count(), 0);
  assert.equal(await page.evaluate(() => localStorage.getItem("username")), "Whisperer", "kept for next time");
  await say(page, "still here");
  await chatLine(page, "still here").getByText("Whisperer").waitFor();
});

app.browserTest(
  "with local storage refusing every write, a viewer still buys, enters and chats",
  async ({ page, context }) => {
    await context.addInitScript(() => {
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key, value) {
        if (this === window.localStorage) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        return setItem.call(this, key, value);
      };
    });
    await page.goto("/");
    assert.equal(
      await page.evaluate(() => {
        try {
          localStorage.setItem("probe", "1");
          return "stored";
        } catch (error) {
          return /** @type {Error} */ (error).name;
        }
      }),
      "QuotaExceededError",
    );

    const dialog = await openBuyDialog(page);
    await dialog.getByText("Please provide your payment details.").waitFor();
    await dialog.getByLabel("Card number").fill("4242 4242 4242 4242");
    await dialog.getByLabel("Expiry").fill("1234");
    await dialog.getByLabel("CVC").fill("123");
    await dialog.getByRole("button", { name: "Pay Now" }).click();
    await waitForPath(page, "/checkout-success");
    const shown = page.locator(".checkout-code-reveal-value");
    await shown.waitFor();
    const code = (await shown.innerText()).trim();
    assert.match(code, /^SKP-/);

    await page.getByRole("button", { name: "CONTINUE NOW" }).click();
    await waitForPath(page, "/access");
    assert.equal(await page.getByLabel("Access code", { exact: true }).inputValue(), code, "the code is still known to the page");
    await page.getByLabel("Chat username", { exact: true }).fill("Unrecorded");
    await page.getByRole("button", { name: "ENTER THE STREAM" }).click();
    await toastWith(page, "Access Granted").waitFor();
    await waitForPath(page, "/livestream");
    await connected(page);
    await say(page, "nothing of me is kept");
    await chatLine(page, "nothing of me is kept").getByText("Unrecorded").waitFor();
    assert.equal(await page.evaluate(() => localStorage.length), 0, "nothing reached local storage");
  },
  { viewport: MOBILE },
);
