import assert from "node:assert/strict";
import { DESKTOP, MOBILE } from "./support/browser.mjs";
import { accessibilityViolations } from "./support/a11y.mjs";
import { useApp, waitForPath } from "./support/e2e.mjs";

const app = useApp();
const ADMIN = { username: "keeper", email: "keeper@example.com", password: "graveyard-shift" };

/** Checks the page at phone and desktop widths. */
async function assertAccessible(page, what) {
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(100);
    assert.deepEqual(await accessibilityViolations(page), [], `${what} at ${viewport.width}px`);
  }
}

app.browserTest("the viewer pages pass axe (WCAG 2.1 A/AA and best practices)", async ({ page }) => {
  /** @type {[string, () => Promise<void>][]} */
  const pages = [
    ["/", () => page.getByRole("img", { name: /event banner/ }).waitFor()],
    ["/access", () => page.getByRole("heading", { name: "Enter The Nightmare" }).waitFor()],
    ["/checkout-success", () => page.getByText("No payment information found").waitFor()],
    ["/test-access", () => page.getByRole("heading", { name: "Test Access" }).waitFor()],
    ["/no-such-page", () => page.getByRole("heading", { name: "404 Page Not Found" }).waitFor()],
    ["/design", () => page.getByRole("heading", { level: 1, name: "Design" }).waitFor()],
    ["/layout-test", () => page.getByText("FEAR METER").waitFor()],
  ];
  for (const [path, ready] of pages) {
    await page.goto(path);
    await ready();
    await assertAccessible(page, path);
  }
  await page.evaluate(async (username) => {
    // A real test code and a name: the stream screen verifies them and sends anything else back to /access.
    const { accessCode } = await (await fetch("/api/test/generate-access-code")).json();
    localStorage.setItem("accessCode", accessCode);
    localStorage.setItem("username", username);
  }, "AxeViewer");
  await page.goto("/livestream");
  await page.getByText("Chat messages will appear here").waitFor();
  await assertAccessible(page, "/livestream");
});

app.browserTest("the admin pages pass axe (WCAG 2.1 A/AA and best practices)", async ({ page }) => {
  await page.goto("/admin/no-such-page");
  await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
  await assertAccessible(page, "/admin/no-such-page");

  await page.goto("/admin/login");
  await page.getByText("No admin account exists yet").waitFor();
  await assertAccessible(page, "/admin/login (first run)");

  await page.goto("/admin/create-first-admin");
  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await page.getByText("Password must be at least 6 characters").waitFor();
  await assertAccessible(page, "/admin/create-first-admin with errors");

  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await waitForPath(page, "/admin/login");
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await waitForPath(page, "/admin/dashboard");
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  await assertAccessible(page, "/admin/dashboard");

  await page.setViewportSize(MOBILE);
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog", { name: "Admin menu" }).waitFor();
  assert.deepEqual(await accessibilityViolations(page), [], "the open admin menu");
});
