import assert from "node:assert/strict";
import { MOBILE } from "./support/browser.mjs";
import { enterAsViewer, failRoute, generateCode, logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";

const app = useApp();

/** The figure of the stat card labelled `label`. */
const statValue = (page, label) =>
  page
    .locator("article.dash-stat-card")
    .filter({ has: page.getByRole("heading", { name: label, exact: true }) })
    .locator(".dash-stat-card-value");

app.browserTest("the dashboard shows every stat, the goal meter, fake viewers, the chart and the demo and outbox warnings", async ({ page }) => {
  await logIn(page);
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  assert.equal(await statValue(page, "Users").innerText(), "0");
  assert.equal(await statValue(page, "Access codes").innerText(), "0");
  assert.equal(await statValue(page, "Donation total").innerText(), "£0.00");
  assert.equal(await statValue(page, "Viewers").innerText(), "0");

  const meter = page.getByRole("meter", { name: "Current donation toward the goal" });
  assert.equal(await meter.getAttribute("aria-valuemax"), "5000");
  assert.equal(await meter.getAttribute("aria-valuenow"), "0");
  await page.getByText("£0.00", { exact: true }).first().waitFor();
  await page.getByText("of £50.00").waitFor();

  const fake = page.locator("article").filter({ has: page.getByRole("heading", { name: "Fake viewers" }) });
  await fake.getByText("Off", { exact: true }).waitFor();
  await fake.getByText("Disabled").waitFor();
  await fake.getByRole("link", { name: "Change in Settings" }).waitFor();

  await page.getByText("Demo mode: no real payments").waitFor();
  await page.getByText("No SMTP server: e-mail is not delivered").waitFor();
  // Demo mode sells without legal links: the checklist lists what is left, with no closed sale.
  const ready = page.getByRole("region", { name: "Ready to sell" });
  await ready.getByText("Payments in demo mode").waitFor();
  await ready.getByText("0 of 6 done").waitFor();
  assert.equal(await ready.getByText("Passes are not on sale", { exact: true }).count(), 0);

  const chart = page.locator("figure.stats-chart");
  await chart.getByText("Viewers & donations").waitFor();
  const svg = chart.getByRole("img");
  assert.match((await svg.getAttribute("aria-labelledby")) ?? "", /.+/);
  assert.equal(await chart.locator("path.series-viewers").count(), 1);
  assert.equal(await chart.locator("path.series-donations").count(), 1);
  assert.ok((await chart.locator("text.axis-label").count()) >= 8, "axis labels on both sides and along the time axis");
  assert.match(await chart.locator("p.sr-only").innerText(), /viewers peaked at 0/);
  await svg.scrollIntoViewIfNeeded();
  const box = await svg.boundingBox();
  await page.mouse.move(box.x + box.width - 70, box.y + box.height / 2);
  await chart
    .locator(".stats-chart-tooltip")
    .getByText(/viewers$/)
    .waitFor();

  await screenshotScreen(page, "admin-dashboard-stats");
  await assertAccessible(page, "/admin/dashboard");
});

app.browserTest("the stats refresh every 10 seconds without a reload", async ({ page }) => {
  const times = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/admin/stats") times.push(Date.now());
  });
  await logIn(page);
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  const codesBefore = Number(await statValue(page, "Access codes").innerText());
  const usersBefore = Number(await statValue(page, "Users").innerText());
  const { code } = await generateCode(page);
  await enterAsViewer(page, code, "Lurker");
  const deadline = Date.now() + 13_000;
  while (times.length < 2 && Date.now() < deadline) await page.waitForTimeout(200);
  assert.equal(times.length, 2, "the dashboard loads the stats, then again 10 s later");
  const gap = times[1] - times[0];
  assert.ok(gap > 9_000 && gap < 11_500, `polled after ${gap} ms`);
  await page.waitForFunction(([before]) => document.querySelectorAll("article.dash-stat-card .dash-stat-card-value")[2]?.textContent === String(before + 1), [codesBefore]);
  assert.equal(await statValue(page, "Users").innerText(), String(usersBefore + 1));
});

app.browserTest("a failed stats call shows 'Failed to fetch dashboard stats.'", async ({ page }) => {
  await logIn(page);
  await failRoute(page, "/api/admin/stats");
  await page.reload();
  await toastWith(page, "Failed to fetch dashboard stats.").waitFor();
  await page.getByText("The stats could not be loaded").waitFor();
});

app.browserTest(
  "on a phone the stats stack in two columns and the chart fits the screen",
  async ({ page }) => {
    await logIn(page);
    const chart = page.locator("figure.stats-chart svg");
    await chart.waitFor();
    const box = await chart.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= MOBILE.width, `chart within the screen: ${JSON.stringify(box)}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "no sideways scrolling");
  },
  { viewport: MOBILE },
);
