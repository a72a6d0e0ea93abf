import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { DESKTOP, MOBILE, screenshotWidths } from "./support/browser.mjs";
import { accessibilityViolations } from "./support/a11y.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { buyCodeViaApi } from "./support/viewer-flows.mjs";

// Demo mode, where SCP- test codes (and the forced-access code) are issued.
const app = useApp();

const FORCED_ACCESS_CODE = "SCP-FORCED-ENTRY";
const WRONG_DEVICE = "Your access code cannot be used on this device. Each code is limited to one device.";

const codeField = (page) => page.getByLabel("Access code", { exact: true });
const usernameField = (page) => page.getByLabel("Chat username", { exact: true });
const emailField = (page) => page.getByLabel("Email (optional)", { exact: true });
const submit = (page) => page.getByRole("button", { name: "ENTER THE STREAM" });

/** Records the page's requests for the plain-JS SHA-256, which only a page without crypto.subtle needs. */
function recordSha256Chunk(page) {
  const requests = [];
  page.on("request", (request) => {
    if (/^\/assets\/sha256-sync-\w+\.js$/.test(new URL(request.url()).pathname)) requests.push(request.url());
  });
  return requests;
}

/**
 * @param {import("playwright-core").Page} page
 * @param {{ code: string, username: string, email?: string }} entry
 */
async function enter(page, { code, username, email }) {
  await page.goto("/access");
  await page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor();
  await codeField(page).fill(code);
  await usernameField(page).fill(username);
  if (email !== undefined) await emailField(page).fill(email);
  await submit(page).click();
}

app.browserTest("/access shows each validation message: code, name length, Guest, e-mail", async ({ page }) => {
  await page.goto("/access");
  await page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor();
  await submit(page).click();
  await page.getByText("Access code must be at least 8 characters").waitFor();
  await page.getByText("Username must be at least 3 characters").waitFor();
  assert.deepEqual(await accessibilityViolations(page), [], "/access with errors");
  await screenshotWidths(page, "access-errors");

  await codeField(page).fill("SKP-1234");
  await usernameField(page).fill("a".repeat(21));
  await submit(page).click();
  await page.getByText("Username must be at most 20 characters").waitFor();
  assert.equal(await page.getByText("Access code must be at least 8 characters").count(), 0);

  for (const guest of ["Guest", "guest"]) {
    await usernameField(page).fill(guest);
    await submit(page).click();
    await page.getByText("Username cannot be 'Guest'").waitFor();
  }

  await usernameField(page).fill("Lantern");
  await emailField(page).fill("not-an-email");
  await submit(page).click();
  await page.getByText("Please enter a valid email address").waitFor();
  assert.equal(new URL(page.url()).pathname, "/access");
});

app.browserTest("an unknown code is refused inline with 'Invalid access code. Please try again.'", async ({ page }) => {
  await enter(page, { code: "SKP-ZZZZ-ZZZZ-ZZZZ-ZZZZ", username: "Lost Soul" });
  await page.getByRole("alert").getByText("Invalid access code. Please try again.").waitFor();
  assert.equal(new URL(page.url()).pathname, "/access");
  await screenshotWidths(page, "access-invalid-code");
});

app.browserTest("a network failure shows the inline error and the 'Error' toast", async ({ page }) => {
  await page.route("**/api/validate-access", (route) => route.abort("connectionreset"));
  await enter(page, { code: "SKP-ZZZZ-ZZZZ-ZZZZ-ZZZZ", username: "Offline" });
  await page.getByText("An error occurred while validating your access code. Please try again.").waitFor();
  const toast = toastWith(page, "Failed to validate access code. Please try again.");
  await toast.waitFor();
  await toast.getByText("Error", { exact: true }).waitFor();
});

app.browserTest(
  "a bought code lets this device in, stores the code, name, e-mail and device token, and is restored silently on return",
  async ({ page, url }) => {
    const code = await buyCodeViaApi(url);
    const sha256Chunk = recordSha256Chunk(page);
    // The WebGL contexts each page load makes (the fingerprint reads the graphics names from one).
    await page.addInitScript(() => {
      window["webglContexts"] = 0;
      const getContext = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = /** @type {any} */ (
        function (kind, ...rest) {
          if (/webgl/.test(String(kind))) window["webglContexts"]++;
          return getContext.call(this, kind, ...rest);
        }
      );
    });
    await page.goto("/access");
    await page.evaluate((c) => localStorage.setItem("accessCode", c), code);
    await page.reload();
    assert.equal(await codeField(page).inputValue(), code, "pre-filled from storage");
    await usernameField(page).fill("Gravedigger");
    await emailField(page).fill("digger@example.com");
    await screenshotWidths(page, "access");
    await submit(page).click();
    await toastWith(page, "Access Granted").waitFor();
    await waitForPath(page, "/livestream");

    const stored = await page.evaluate(() => ({
      local: ["accessCode", "username", "email", "device_token"].map((k) => localStorage.getItem(k)),
      session: ["accessVerified", "verificationMethod", "username", "device_token"].map((k) => sessionStorage.getItem(k)),
      timestamp: Number(sessionStorage.getItem("verificationTimestamp")),
      fingerprint: JSON.parse(localStorage.getItem("device_fingerprint") ?? "null"),
    }));
    assert.deepEqual(stored.local.slice(0, 3), [code, "Gravedigger", "digger@example.com"]);
    assert.match(stored.local[3], /^[0-9a-f]{48}$/);
    assert.deepEqual(stored.session.slice(0, 3), ["true", "access-code", "Gravedigger"]);
    assert.equal(stored.session[3], stored.local[3], "the device token is kept in both storages");
    assert.ok(Date.now() - stored.timestamp < 60_000);
    assert.match(stored.fingerprint.fingerprint, /^[0-9a-f]{64}$/);
    assert.equal(stored.fingerprint.deviceToken, stored.local[3]);
    for (const key of ["userAgent", "screenResolution", "colorDepth", "timezone", "language", "platform", "webglVendor", "webglRenderer", "createdAt"]) {
      assert.ok(stored.fingerprint[key] !== undefined && stored.fingerprint[key] !== "", `fingerprint has ${key}`);
    }

    assert.equal(sha256Chunk.length, 0, "the browser hashes the fingerprint itself: the plain-JS SHA-256 is not loaded");
    // The form's check and the stream screen's each took the fingerprint; the graphics names were read once.
    await page.locator(".stream-title").waitFor();
    await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("/api/verify-stream-access")), null, { timeout: 15_000 });
    assert.equal(await page.evaluate(() => window["webglContexts"]), 1);

    // Back on /access later: the stored code, name and fingerprint are checked silently.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto("/access");
    await toastWith(page, "Access Restored").waitFor();
    await waitForPath(page, "/livestream");
  },
  { viewport: MOBILE },
);

app.browserTest("the same code on another device (another fingerprint) is refused with the one-device message", async ({ page, url }) => {
  const code = await buyCodeViaApi(url);
  await enter(page, { code, username: "FirstOwner" });
  await waitForPath(page, "/livestream");

  const other = await page
    .context()
    .browser()
    .newContext({
      baseURL: url,
      viewport: MOBILE,
      screen: { width: 412, height: 915 },
      locale: "de-DE",
      timezoneId: "Asia/Tokyo",
    });
  try {
    const second = await other.newPage();
    await enter(second, { code, username: "SecondOwner" });
    await second.getByRole("alert").getByText(WRONG_DEVICE).waitFor();
    assert.equal(new URL(second.url()).pathname, "/access");
    await screenshotWidths(second, "access-wrong-device");
  } finally {
    await other.close();
  }
});

app.browserTest("a page without crypto.subtle (plain http at a LAN address) loads the plain-JS SHA-256 when it hashes, and lets the viewer in", async ({ page, url }) => {
  await page.context().addInitScript(() => Object.defineProperty(Crypto.prototype, "subtle", { get: () => undefined }));
  const sha256Chunk = recordSha256Chunk(page);
  const code = await buyCodeViaApi(url);
  await page.goto("/access");
  await page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor();
  assert.equal(await page.evaluate(() => crypto.subtle), undefined);
  assert.equal(sha256Chunk.length, 0, "not loaded before a fingerprint is made");
  await enter(page, { code, username: "LanLurker" });
  await toastWith(page, "Access Granted").waitFor();
  await waitForPath(page, "/livestream");
  assert.ok(sha256Chunk.length >= 1, "the plain-JS SHA-256 was loaded to hash the fingerprint");
  const fp = await page.evaluate(() => JSON.parse(localStorage.getItem("device_fingerprint") ?? "null"));
  const input = JSON.stringify(
    ["userAgent", "screenResolution", "colorDepth", "timezone", "language", "platform", "webglVendor", "webglRenderer", "deviceToken", "createdAt"].map((k) => fp[k]),
  );
  assert.equal(fp.fingerprint, createHash("sha256").update(input).digest("hex"), "the same digest as the standard SHA-256");
});

app.browserTest("a stored code that no longer works is not restored: the form stays, filled in", async ({ page }) => {
  // A first, refused try leaves this device's fingerprint stored.
  await enter(page, { code: "SKP-ZZZZ-ZZZZ-ZZZZ-ZZZZ", username: "Revenant" });
  await page.getByText("Invalid access code. Please try again.").waitFor();
  await page.evaluate(() => {
    localStorage.setItem("accessCode", "SKP-ZZZZ-ZZZZ-ZZZZ-ZZZZ");
    localStorage.setItem("username", "Revenant");
  });
  const checked = page.waitForResponse((r) => r.url().endsWith("/api/verify-existing-access"));
  await page.reload();
  await checked;
  await page.waitForTimeout(300);
  assert.equal(new URL(page.url()).pathname, "/access");
  assert.equal(await page.locator("li.toast").count(), 0, "silent: no toast");
  assert.equal(await usernameField(page).inputValue(), "Revenant");
});

app.browserTest("the forced-access code sets the forced flags, an SCP-Admin name and the test e-mail, then the livestream", async ({ page }) => {
  await page.goto("/access");
  await codeField(page).fill(FORCED_ACCESS_CODE);
  await submit(page).click();
  await waitForPath(page, "/livestream");
  const state = await page.evaluate(() => ({
    forced: sessionStorage.getItem("forcedAccess"),
    method: sessionStorage.getItem("verificationMethod"),
    username: localStorage.getItem("username"),
    email: localStorage.getItem("email"),
    code: localStorage.getItem("accessCode"),
  }));
  assert.equal(state.forced, "true");
  assert.equal(state.method, "forced-access");
  assert.match(state.username ?? "", /^SCP-Admin-\d{4}$/);
  assert.equal(state.email, "test@dreadcast.invalid");
  assert.equal(state.code, FORCED_ACCESS_CODE);
});

app.browserTest("/test-access shows a generated test code, pre-fills it, and lets the tester in", async ({ page }) => {
  await page.goto("/test-access");
  const shown = page.locator(".test-access-code-value");
  await shown.waitFor();
  const code = (await shown.innerText()).trim();
  assert.match(code, /^SCP-/);
  assert.equal(await page.getByLabel("Access code", { exact: true }).inputValue(), code);

  await page.getByLabel("Access code", { exact: true }).fill("");
  await page.getByRole("button", { name: "Enter the test stream" }).click();
  await page.getByText("Access code is required").waitFor();
  await page.getByText("Username must be at least 3 characters").waitFor();
  assert.deepEqual(await accessibilityViolations(page), [], "/test-access with errors");

  await page.getByLabel("Access code", { exact: true }).fill(code);
  await page.getByLabel("Username", { exact: true }).fill("Tester One");
  await screenshotWidths(page, "test-access");
  await page.getByRole("button", { name: "Enter the test stream" }).click();
  await toastWith(page, "Access Granted").waitFor();
  await waitForPath(page, "/livestream");
  assert.equal(await page.evaluate(() => sessionStorage.getItem("verificationMethod")), "test-code");
});

app.browserTest("another SCP- code on /access needs no username: one is made up", async ({ page, url }) => {
  const { accessCode } = await (await fetch(`${url}/api/test/generate-access-code`)).json();
  await page.goto("/access");
  await codeField(page).fill(accessCode);
  await submit(page).click();
  await waitForPath(page, "/livestream");
  assert.match((await page.evaluate(() => localStorage.getItem("username"))) ?? "", /^Tester-\d{4}$/);
});

/** Five visits alternating between the two pages, ending on the livestream (4 hops). */
async function seedBouncingHistory(page) {
  await page.evaluate(() => {
    const now = Date.now();
    const pages = ["livestream", "access", "livestream", "access", "livestream"];
    sessionStorage.setItem("navHistory", JSON.stringify(pages.map((p, i) => ({ page: p, at: now - (5 - i) * 500 }))));
  });
}

app.browserTest("the loop guard: a regular code bounced 5 times is cleared and the viewer goes home after 1 s", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => {
    localStorage.setItem("accessCode", "SKP-AAAA-BBBB-CCCC-DDDD");
    localStorage.setItem("username", "Bouncer");
  });
  await seedBouncingHistory(page);
  await page.goto("/access");
  const toast = toastWith(page, "Navigation Error Detected");
  await toast.waitFor();
  assert.equal(await toast.getAttribute("data-variant"), "destructive");
  const cleared = await page.evaluate(() => [localStorage.getItem("accessCode"), localStorage.getItem("username"), sessionStorage.getItem("navHistory")]);
  assert.deepEqual(cleared, [null, null, null]);
  assert.ok(Number(await page.evaluate(() => localStorage.getItem("loopPreventionTimestamp"))) > 0);
  await waitForPath(page, "/", 3000);
});

app.browserTest("the loop guard: a test code bounced 5 times goes to the livestream with a generated username", async ({ page, url }) => {
  const { accessCode } = await (await fetch(`${url}/api/test/generate-access-code`)).json();
  assert.match(accessCode, /^SCP-/);
  await page.goto("/");
  await page.evaluate((code) => localStorage.setItem("accessCode", code), accessCode);
  await seedBouncingHistory(page);
  await page.goto("/access");
  const toast = toastWith(page, "Navigation Error Detected");
  await toast.waitFor();
  await waitForPath(page, "/livestream");
  assert.match((await page.evaluate(() => localStorage.getItem("username"))) ?? "", /^Viewer-\d{4}$/);
  // Once the stream has let the code in, the guard's toast is still the one on screen (not replaced by a greeting).
  await page.waitForFunction(() => sessionStorage.getItem("accessVerified") === "true");
  assert.ok(await toast.isVisible());
});

app.browserTest("'Lost your code?' sends the codes of an e-mail address and answers neutrally", async ({ page }) => {
  await page.goto("/access");
  const toggle = page.getByRole("button", { name: "Lost your code?" });
  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-expanded"), "true");
  await page.getByLabel("Your e-mail").fill("nobody@example.com");
  await page.getByRole("button", { name: "Send my code" }).click();
  await page.getByText("If that e-mail address has an access code, we have sent it there. Check your inbox.").waitFor();
  await screenshotWidths(page, "access-lost-code");
});

app.browserTest("the access pages have no accessibility violations at phone and desktop widths", async ({ page }) => {
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto("/access");
    await page.getByRole("button", { name: "Lost your code?" }).click();
    await page.getByLabel("Your e-mail").waitFor();
    assert.deepEqual(await accessibilityViolations(page), [], `/access at ${viewport.width}`);
    await page.goto("/test-access");
    await page.locator(".test-access-code-value").waitFor();
    assert.deepEqual(await accessibilityViolations(page), [], `/test-access at ${viewport.width}`);
  }
});
