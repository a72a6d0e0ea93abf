import assert from "node:assert/strict";
import { screenshotWidths } from "./support/browser.mjs";
import { useApp } from "./support/e2e.mjs";

const app = useApp();

app.browserTest("an unknown path shows the not-found page inside the site shell", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  assert.equal(response?.status(), 404, "answered as not found, for crawlers and link previews");
  await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
  await page.getByText("Did you forget to add the page to the router?").waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).waitFor();
  await screenshotWidths(page, "not-found");
});

app.browserTest("an unknown /admin path shows the not-found page", async ({ page }) => {
  const response = await page.goto("/admin/no-such-page");
  assert.equal(response?.status(), 404);
  await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
  await page.getByText("Did you forget to add the page to the router?").waitFor();
  assert.equal(new URL(page.url()).pathname, "/admin/no-such-page");
  await screenshotWidths(page, "admin-not-found");
});

app.browserTest("the not-found page links back home", async ({ page }) => {
  await page.goto("/nothing/here");
  await page.getByRole("link", { name: "Back to the home page" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.getByRole("heading", { level: 1 }).waitFor();
});
