import assert from "node:assert/strict";
import { assertAccessible } from "./support/a11y.mjs";
import { screenshotScreen } from "./support/admin-panel.mjs";
import { addVirtualAuthenticator, ageProof, createOwner, enterPassword, freshCode, logOut, runSql, totp } from "./support/admin-team.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { freePort } from "../support/free-port.mjs";

// WebAuthn wants the page at the site's own origin, and "localhost" (not 127.0.0.1) as its host: the
// server's --public-url says so, and every page of this file is opened there.
const port = await freePort();
const ORIGIN = `http://localhost:${port}`;
const app = useApp({ args: ["--port", String(port), "--public-url", ORIGIN] });
const at = { contextOptions: { baseURL: ORIGIN } };

// The tests run in order on one server: the owner's factors carry from one to the next.
const OWNER = { username: "hollowqueen", email: "queen@example.com", password: "grave-dirt-77" };
const usedSteps = new Set();
let secret = "";
/** @type {string[]} */
let recoveryCodes = [];

/**
 * A code of a step not used yet that stays good for at least half a minute (the step after the current
 * one), for a code given twice a few seconds apart.
 */
async function codeForLater(secret, used) {
  for (;;) {
    const next = Math.floor(Date.now() / 30_000) + 1;
    if (!used.size || Math.max(...used) < next) {
      used.add(next);
      return totp(secret, next * 30_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 100));
  }
}

/** Signs in with the password and then a recovery code (no wait for a new TOTP step). */
async function signInWithRecoveryCode(page) {
  await enterPassword(page, OWNER);
  await page.getByRole("heading", { name: "Two-Factor Sign-In" }).waitFor();
  await page.getByRole("button", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Recovery code").fill(/** @type {string} */ (recoveryCodes.shift()));
  await page.getByRole("button", { name: "Verify" }).click();
  await waitForPath(page, "/admin/dashboard");
}

app.browserTest(
  "an owner sets up an authenticator app on the Security screen, then signs in again with a code from it",
  async ({ page }) => {
    await createOwner(app.url, OWNER);
    await enterPassword(page, OWNER);
    await waitForPath(page, "/admin/dashboard");
    // The header names the member and their role; Security is in the menu for everyone.
    const sidebar = page.locator("aside.admin-sidebar");
    await sidebar.getByText(OWNER.username, { exact: true }).waitFor();
    await sidebar.getByText("Owner", { exact: true }).waitFor();
    await sidebar.getByRole("link", { name: "Security" }).click();
    await waitForPath(page, "/admin/security");
    await page.getByRole("heading", { level: 1, name: "Security" }).waitFor();
    await page.getByText("Your password alone signs you in.").waitFor();
    await page.getByRole("heading", { name: "Where you're signed in" }).waitFor();
    await page.getByText("This device").first().waitFor();
    await screenshotScreen(page, "admin-security");
    await assertAccessible(page, "/admin/security");

    await page.getByRole("button", { name: "Set Up App" }).click();
    await page.getByRole("img", { name: "QR code to scan with your authenticator app" }).waitFor();
    secret = ((await page.getByLabel("Secret key").textContent()) ?? "").replace(/\s/g, "");
    assert.match(secret, /^[A-Z2-7]{32}$/);
    const codeField = page.getByLabel("Code from the app");
    assert.equal(await codeField.getAttribute("inputmode"), "numeric");
    assert.equal(await codeField.getAttribute("autocomplete"), "one-time-code");
    await screenshotScreen(page, "admin-security-app-setup");
    await assertAccessible(page, "/admin/security, setting up an app");

    // A code from another time is refused in place; the right one turns the app on.
    await codeField.fill(totp(secret, Date.now() + 10 * 60_000));
    await page.getByRole("button", { name: "Turn On" }).click();
    await page.getByRole("alert").filter({ hasText: "That code is not right" }).waitFor();
    await codeField.fill(await freshCode(secret, usedSteps));
    await page.getByRole("button", { name: "Turn On" }).click();
    await page.getByRole("heading", { name: "Save your recovery codes" }).waitFor();
    recoveryCodes = await page.getByRole("list", { name: "Recovery codes" }).locator("li").allTextContents();
    assert.equal(recoveryCodes.length, 10);
    for (const code of recoveryCodes) assert.match(code, /^[a-z0-9]{5}-[a-z0-9]{5}$/);
    await page.getByRole("button", { name: "Download" }).waitFor();
    await screenshotScreen(page, "admin-security-recovery-codes");
    await assertAccessible(page, "/admin/security, the recovery codes");
    await page.getByRole("button", { name: "I've Saved Them" }).click();
    await page.getByText("Signing in asks for your password and a second factor.").waitFor();
    await page.getByText("10 of 10 left.", { exact: false }).waitFor();

    await logOut(page);
    await enterPassword(page, OWNER);
    await page.getByRole("heading", { name: "Two-Factor Sign-In" }).waitFor();
    const signInCode = page.getByLabel("Authentication code");
    assert.equal(await signInCode.getAttribute("inputmode"), "numeric");
    assert.equal(await signInCode.getAttribute("autocomplete"), "one-time-code");
    await page.getByRole("button", { name: "Use a recovery code instead" }).waitFor();
    await screenshotScreen(page, "admin-login-second-factor");
    await assertAccessible(page, "/admin/login, the second factor");
    await signInCode.fill(totp(secret, Date.now() - 10 * 60_000));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.locator("form .alert-error").getByText("That code is not right").waitFor();
    assert.equal(new URL(page.url()).pathname, "/admin/login");
    await signInCode.fill(await freshCode(secret, usedSteps));
    await page.getByRole("button", { name: "Verify" }).click();
    await toastWith(page, "Login successful").waitFor();
    await waitForPath(page, "/admin/dashboard");
  },
  at,
);

app.browserTest(
  "a sign-in left waiting too long goes back to the password with the server's words; a recovery code then signs in once",
  async ({ page }) => {
    await enterPassword(page, OWNER);
    await page.getByRole("heading", { name: "Two-Factor Sign-In" }).waitFor();
    runSql(app.dataDir, "UPDATE admin_challenges SET expires_at = ?", Date.now() - 1);
    await page.getByLabel("Authentication code").fill("123456");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.locator("form .alert-error").getByText("Your sign-in has expired. Enter your password again.").waitFor();
    await page.getByLabel("Password").waitFor();
    assert.equal(await page.getByLabel("Username").inputValue(), OWNER.username);

    // An authenticator code signs in once; given again on the next sign-in, it is said to be used already.
    const code = await codeForLater(secret, usedSteps);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await page.getByLabel("Authentication code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await waitForPath(page, "/admin/dashboard");
    await logOut(page);
    await enterPassword(page, OWNER);
    await page.getByLabel("Authentication code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.locator("form .alert-error").getByText("That code was already used. Wait for the next one in your app.").waitFor();
    await screenshotScreen(page, "admin-login-code-used");

    const used = /** @type {string} */ (recoveryCodes[0]);
    await signInWithRecoveryCode(page);
    await logOut(page);
    await enterPassword(page, OWNER);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(used);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.locator("form .alert-error").getByText("That recovery code was already used. Each one works once: enter another.").waitFor();
    // Wrong codes: the fifth of this sign-in goes back to the password, saying why.
    for (let wrong = 2; wrong <= 4; wrong++) {
      await page.getByLabel("Recovery code").fill(`wrong-${wrong}aaaa`);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.locator("form .alert-error").getByText("That code is not right").waitFor();
    }
    await page.getByLabel("Recovery code").fill("wrong-5aaaa");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.locator("form .alert-error").getByText("Too many wrong codes. Enter your password again.").waitFor();
    await page.getByLabel("Password").waitFor();
    await screenshotScreen(page, "admin-login-too-many-codes");
  },
  at,
);

app.browserTest(
  "a passkey: added on the Security screen after confirming it's you, then it signs in (Chromium's virtual authenticator)",
  async ({ page }) => {
    const authenticator = await addVirtualAuthenticator(page);
    await signInWithRecoveryCode(page);
    await page.goto("/admin/security");
    await page.getByRole("heading", { name: "Passkeys and security keys" }).waitFor();

    // The last proof is old: adding a key first asks the member to confirm it's them, then goes on by itself.
    ageProof(app.dataDir, OWNER.username);
    await page.getByRole("button", { name: "Add Key" }).click();
    await page.getByLabel("Name").fill("Crypt laptop");
    await page.getByRole("button", { name: "Add Key" }).click();
    const confirm = page.getByRole("dialog", { name: "Confirm it's you" });
    await confirm.waitFor();
    await confirm.getByLabel("Authentication code").waitFor();
    await screenshotScreen(page, "admin-step-up-code");
    await assertAccessible(page, "the Confirm it's you dialog");
    await confirm.getByRole("button", { name: "Use a recovery code" }).click();
    await confirm.getByLabel("Recovery code").fill("wrong-codes");
    await confirm.getByRole("button", { name: "Confirm" }).click();
    await confirm.getByText("That code is not right").waitFor();
    await confirm.getByLabel("Recovery code").fill(/** @type {string} */ (recoveryCodes.shift()));
    await confirm.getByRole("button", { name: "Confirm" }).click();
    await confirm.waitFor({ state: "detached" });
    await toastWith(page, "Your key was added.").waitFor();
    const keys = page.getByRole("list", { name: "Passkeys and security keys" });
    await keys.getByText("Crypt laptop").waitFor();
    await keys.getByText("not used yet").waitFor();
    assert.equal((await authenticator.credentials()).length, 1);
    await screenshotScreen(page, "admin-security-passkey");

    await logOut(page);
    await enterPassword(page, OWNER);
    await page.getByRole("heading", { name: "Two-Factor Sign-In" }).waitFor();
    await page.getByRole("button", { name: "Use a security key or passkey" }).click();
    await page.getByRole("button", { name: "Use Security Key" }).click();
    await toastWith(page, "Login successful").waitFor();
    await waitForPath(page, "/admin/dashboard");
    await page.goto("/admin/security");
    await page.getByRole("list", { name: "Passkeys and security keys" }).getByText("last used").waitFor();
  },
  at,
);

app.browserTest(
  "sessions: all others ended at once, another browser listed and ended from here; a new password needs the current one",
  async ({ page, context }) => {
    await signInWithRecoveryCode(page);
    // The earlier tests' browsers are still signed in: end them all from here.
    await page.goto("/admin/security");
    await page.getByRole("button", { name: "End All Other Sessions" }).click();
    await page.getByRole("dialog", { name: "End all other sessions?" }).getByRole("button", { name: "End Others" }).click();
    await toastWith(page, "Signed out elsewhere").waitFor();
    await page.getByRole("button", { name: "End All Other Sessions" }).waitFor({ state: "detached" });
    const browser = context.browser();
    assert.ok(browser);
    const phone = await browser.newContext({
      baseURL: ORIGIN,
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
    });
    try {
      const phonePage = await phone.newPage();
      await signInWithRecoveryCode(phonePage);

      await page.reload();
      const table = page.getByRole("table", { name: "Your sessions" });
      await table.getByText("This device").waitFor();
      await table.locator("tbody tr").nth(1).waitFor();
      assert.equal(await table.locator("tbody tr").count(), 2);
      await screenshotScreen(page, "admin-security-sessions");
      await table.getByRole("button", { name: /^End the session in Safari/ }).click();
      await page.getByRole("dialog", { name: "End this session?" }).getByRole("button", { name: "End Session" }).click();
      await toastWith(page, "Session ended").waitFor();
      await table.locator("tbody tr").nth(1).waitFor({ state: "detached" });
      assert.equal((await phonePage.request.get("/api/admin/stats")).status(), 401);
    } finally {
      await phone.close();
    }

    const password = page.getByRole("form", { name: "Change password" });
    await password.getByLabel("Current password").fill("not-my-password");
    await password.getByLabel("New password").fill("moonless-night-99");
    await password.getByRole("button", { name: "Change Password" }).click();
    await password.getByText("That password is not right").waitFor();
    await password.getByLabel("Current password").fill(OWNER.password);
    await password.getByRole("button", { name: "Change Password" }).click();
    await toastWith(page, "Password changed").waitFor();
    OWNER.password = "moonless-night-99";
    assert.equal(await password.getByLabel("Current password").inputValue(), "");
  },
  at,
);

app.browserTest(
  "new recovery codes and turning two-factor off both ask for the password and a code",
  async ({ page }) => {
    await signInWithRecoveryCode(page);
    await page.goto("/admin/security");
    await page.getByRole("button", { name: "New Codes" }).click();
    const dialog = page.getByRole("dialog", { name: "Make new recovery codes?" });
    await dialog.getByLabel("Password").fill(OWNER.password);
    await dialog.getByLabel("Code from your app, or a recovery code").fill("12");
    await dialog.getByRole("button", { name: "Make New Codes" }).click();
    await dialog.getByText("Enter the 6-digit code from your authenticator app").waitFor();
    await dialog.getByLabel("Code from your app, or a recovery code").fill(/** @type {string} */ (recoveryCodes.shift()));
    await dialog.getByRole("button", { name: "Make New Codes" }).click();
    await page.getByRole("heading", { name: "Save your recovery codes" }).waitFor();
    recoveryCodes = await page.getByRole("list", { name: "Recovery codes" }).locator("li").allTextContents();
    await page.getByRole("button", { name: "I've Saved Them" }).click();

    await page.getByRole("button", { name: "Turn Off Two-Factor Sign-In" }).click();
    const off = page.getByRole("dialog", { name: "Turn off two-factor sign-in?" });
    await off.getByLabel("Password").fill(OWNER.password);
    await off.getByLabel("Code from your app, or a recovery code").fill(await freshCode(secret, usedSteps));
    await screenshotScreen(page, "admin-security-turn-off");
    await off.getByRole("button", { name: "Turn Off" }).click();
    await toastWith(page, "Two-factor sign-in is off").waitFor();
    await page.getByText("Your password alone signs you in.").waitFor();
    await logOut(page);
    await enterPassword(page, OWNER);
    await waitForPath(page, "/admin/dashboard");
  },
  at,
);
