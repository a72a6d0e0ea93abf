import assert from "node:assert/strict";
import { MOBILE, screenshot, screenshotWidths } from "./support/browser.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";

// One server for the file: the tests run in order and the first one creates the only admin.
const app = useApp();
const ADMIN = { username: "nightwarden", email: "warden@example.com", password: "correct-horse" };

/** Signs in through the login form and waits for the dashboard. */
async function logIn(page) {
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await waitForPath(page, "/admin/dashboard");
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
}

app.browserTest("/admin redirects to /admin/login", async ({ page }) => {
  await page.goto("/admin");
  await waitForPath(page, "/admin/login");
  await page.getByRole("heading", { name: "Admin Login" }).waitFor();
});

app.browserTest("first run: the login page offers to create the first admin, with every validation message", async ({ page }) => {
  await page.goto("/admin/login");
  await page.getByText("No admin account exists yet").waitFor();
  await screenshotWidths(page, "admin-login-first-run");
  await page.getByRole("link", { name: "Create First Admin" }).click();
  await waitForPath(page, "/admin/create-first-admin");
  await page.getByRole("heading", { name: "Create First Admin" }).waitFor();

  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await page.getByText("Username must be at least 3 characters").waitFor();
  await page.getByText("Please enter a valid email address").waitFor();
  await page.getByText("Password must be at least 6 characters").waitFor();
  assert.equal(await page.getByLabel("Username").getAttribute("aria-invalid"), "true");
  await screenshotWidths(page, "admin-create-first-admin-errors");

  await page.getByLabel("Username").fill("ab");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("12345");
  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await page.getByText("Username must be at least 3 characters").waitFor();
  await page.getByText("Please enter a valid email address").waitFor();
  await page.getByText("Password must be at least 6 characters").waitFor();

  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await toastWith(page, "Admin account created").waitFor();
  await waitForPath(page, "/admin/login");
  await page.getByLabel("Username").waitFor();
  assert.equal(await page.getByText("No admin account exists yet").count(), 0);
});

app.browserTest("once an admin exists, the first-admin page says so and points to the login", async ({ page }) => {
  await page.goto("/admin/create-first-admin");
  await page.getByText("An admin account already exists").waitFor();
  await page.getByRole("link", { name: "Go to Login" }).click();
  await waitForPath(page, "/admin/login");
});

app.browserTest("login: required fields, a wrong password toast, then success to the dashboard", async ({ page }) => {
  await page.goto("/admin/login");
  await page.getByRole("button", { name: "Log In" }).click();
  await page.getByText("Username is required").waitFor();
  await page.getByText("Password is required").waitFor();

  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Log In" }).click();
  const failed = toastWith(page, "Login failed");
  await failed.waitFor();
  await failed.getByText("Invalid username or password").waitFor();
  await page.locator("form .alert-error").getByText("Invalid username or password").waitFor();
  assert.equal(new URL(page.url()).pathname, "/admin/login");
  await screenshotWidths(page, "admin-login-failed");

  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await toastWith(page, "Login successful").waitFor();
  await waitForPath(page, "/admin/dashboard");
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
});

app.browserTest("the dashboard shell shows the sections, the admin's name with their role, and logs out", async ({ page }) => {
  await logIn(page);
  const sidebar = page.locator("aside.admin-sidebar");
  await sidebar.waitFor();
  const nav = sidebar.getByRole("navigation", { name: "Admin" });
  for (const name of ["Dashboard", "Users", "Access Codes", "Payments", "Banned Users", "Settings"]) await nav.getByRole("link", { name, exact: true }).waitFor();
  const livestream = nav.getByRole("link", { name: /View Livestream/ });
  assert.equal(await livestream.getAttribute("href"), "/livestream");
  assert.equal(await livestream.getAttribute("target"), "_blank");
  await sidebar.getByText(ADMIN.username, { exact: true }).waitFor();
  await sidebar.getByText("Owner", { exact: true }).waitFor();
  await screenshot(page, "admin-dashboard-1280");

  for (const [name, path, heading] of [
    ["Users", "/admin/users", "Users"],
    ["Access Codes", "/admin/access-codes", "Access Codes"],
    ["Banned Users", "/admin/banned-users", "Banned Users"],
    ["Settings", "/admin/settings", "Settings"],
    ["Dashboard", "/admin/dashboard", "Dashboard"],
  ]) {
    await nav.getByRole("link", { name, exact: true }).click();
    await waitForPath(page, path);
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
    assert.equal(await nav.getByRole("link", { name, exact: true }).getAttribute("aria-current"), "page");
  }
  await screenshotWidths(page, "admin-dashboard", [1280]);

  await sidebar.getByRole("button", { name: "Logout" }).click();
  await toastWith(page, "Logged out").waitFor();
  await waitForPath(page, "/admin/login");
  await page.getByLabel("Username").waitFor();
  await page.waitForTimeout(500);
  assert.equal(await toastWith(page, "Failed to fetch admin profile").count(), 0, "logging out is not a failed session");
  await toastWith(page, "Logged out").waitFor();

  await page.goto("/admin/dashboard");
  await toastWith(page, "Failed to fetch admin profile").waitFor();
  await waitForPath(page, "/admin/login");
});

app.browserTest("without a session the admin pages toast and go to the login page", async ({ page }) => {
  for (const path of ["/admin/dashboard", "/admin/users", "/admin/settings"]) {
    await page.goto(path);
    await toastWith(page, "Failed to fetch admin profile").waitFor();
    await waitForPath(page, "/admin/login");
  }
});

app.browserTest(
  "below 1024px the sidebar collapses into a menu button",
  async ({ page }) => {
    await logIn(page);
    assert.equal(await page.locator("aside.admin-sidebar").count(), 0);
    const menuButton = page.getByRole("button", { name: "Open menu" });
    await menuButton.waitFor();
    await screenshot(page, "admin-dashboard-390");

    await menuButton.click();
    const drawer = page.getByRole("dialog", { name: "Admin menu" });
    await drawer.waitFor();
    await drawer.getByText(ADMIN.username, { exact: true }).waitFor();
    await drawer.getByText("Owner", { exact: true }).waitFor();
    await drawer.getByRole("button", { name: "Logout" }).waitFor();
    await screenshot(page, "admin-menu-open-390");

    await drawer.getByRole("link", { name: "Access Codes", exact: true }).click();
    await waitForPath(page, "/admin/access-codes");
    await page.getByRole("heading", { level: 1, name: "Access Codes" }).waitFor();
    await drawer.waitFor({ state: "detached" });

    await page.setViewportSize({ width: 1023, height: 800 });
    await menuButton.waitFor();
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.locator("aside.admin-sidebar").waitFor();
    assert.equal(await menuButton.count(), 0);
  },
  { viewport: MOBILE },
);

app.browserTest(
  "logging out from the mobile menu",
  async ({ page }) => {
    await logIn(page);
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("dialog", { name: "Admin menu" }).getByRole("button", { name: "Logout" }).click();
    await toastWith(page, "Logged out").waitFor();
    await waitForPath(page, "/admin/login");
  },
  { viewport: MOBILE },
);
