import assert from "node:assert/strict";
import { useApp } from "./support/e2e.mjs";
import { measureAssets, recordAssets } from "./support/page-weight.mjs";

const app = useApp();
const BUDGET_BYTES = 130 * 1024;

app.browserTest("the home page loads at most 130 KiB of gzipped JS and CSS", async ({ page }) => {
  const assets = recordAssets(page);
  await page.goto("/");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await page.waitForLoadState("networkidle");
  const { total, report } = await measureAssets(assets);
  assert.ok(total <= BUDGET_BYTES, `/ loads ${(total / 1024).toFixed(1)} KiB gzipped (${report})`);
});
