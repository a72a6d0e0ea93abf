import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { logIn } from "./support/admin-panel.mjs";

const app = useApp();

app.browserTest("a signed-in admin who opens the login page is taken to the dashboard", async ({ page }) => {
  await logIn(page);
  await page.goto("/admin/login");
  await waitForPath(page, "/admin/dashboard");
  await page.locator("aside.admin-sidebar").getByText("Owner", { exact: true }).waitFor();
});

app.browserTest("when the session ends behind the panel's back, the next admin call leads back to the login", async ({ page }) => {
  await logIn(page, "/admin/users");
  await page.getByRole("heading", { name: "Users" }).first().waitFor();
  // Another tab logs out: the cookie this page holds is no longer a session.
  await page.evaluate(() => fetch("/api/admin/logout", { method: "POST", credentials: "include" }));
  await page.getByRole("link", { name: "Access Codes" }).first().click();
  await toastWith(page, "Error").getByText("Failed to fetch admin profile").waitFor();
  await waitForPath(page, "/admin/login");
});
