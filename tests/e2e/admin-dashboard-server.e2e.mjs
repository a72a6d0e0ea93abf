import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MOBILE } from "./support/browser.mjs";
import { logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { until, useApp } from "./support/e2e.mjs";
import { repoRoot } from "./support/server.mjs";

// Backups every 2 s into a folder of the test's, under a passphrase in a file.
const work = mkdtempSync(join(tmpdir(), "dreadcast-e2e-backups-"));
const shelf = join(work, "shelf");
const passphrase = join(work, "passphrase");
writeFileSync(passphrase, "wormwood lantern cellar 1907\n", { mode: 0o600 });
const app = useApp({ args: ["--backup-every", "2s", "--backup-to", shelf, "--backup-keep", "2", "--backup-passphrase-file", passphrase] });

/** The newest migration's number: the schema the server brings its database to. */
const schema = Math.max(...readdirSync(join(repoRoot, "src/db/migrations")).map((name) => Number(/^(\d+)-/.exec(name)?.[1] ?? 0)));

app.browserTest("the dashboard names the server's version and schema and its last backup, then warns when the backups fail", async ({ page }) => {
  const { version } = await (await fetch(`${app.url}/readyz`)).json();
  assert.match(version, /\S/);
  await logIn(page);
  const server = page.getByRole("region", { name: "Server" });
  await server.getByRole("heading", { name: "Server" }).waitFor();
  assert.equal(await server.getByTestId("server-version").innerText(), version);
  assert.equal(await server.getByTestId("server-schema").innerText(), String(schema));
  // The first backup comes 2 s after the start; the stats are read every 10 s.
  await server.getByTestId("server-backup").getByText("less than a minute ago").waitFor({ timeout: 15_000 });
  await server.getByText("A backup every 2 s.", { exact: false }).waitFor();
  await server.getByText("Running", { exact: true }).waitFor();
  assert.equal(await page.getByTestId("warning-backups").count(), 0);
  await screenshotScreen(page, "admin-dashboard-server");
  await assertAccessible(page, "/admin/dashboard");

  // The backup folder is gone and a file is in its place: every backup after fails.
  rmSync(shelf, { recursive: true, force: true });
  writeFileSync(shelf, "not a folder");
  const warning = page.getByTestId("warning-backups");
  await warning.getByText("The last backup failed").waitFor({ timeout: 25_000 });
  await warning.getByText(/the server's log says why\. The last good one was taken less than a minute ago\./).waitFor();
  await server.getByText("Backups need you").waitFor();
  await screenshotScreen(page, "admin-dashboard-backup-failed");
  await assertAccessible(page, "/admin/dashboard (backups failing)");

  // Fixed: the next good backup clears the warning.
  rmSync(shelf, { force: true });
  mkdirSync(shelf, { mode: 0o700 });
  await until("the warning is gone", async () => (await warning.count()) === 0, 25_000);
  await server.getByText("Running", { exact: true }).waitFor();
});

app.browserTest(
  "on a phone the server's figures fit the screen",
  async ({ page }) => {
    await logIn(page);
    const server = page.getByRole("region", { name: "Server" });
    await server.getByTestId("server-version").waitFor();
    await server.scrollIntoViewIfNeeded();
    const box = await server.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= MOBILE.width, `within the screen: ${JSON.stringify(box)}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "no sideways scrolling");
  },
  { viewport: MOBILE },
);
