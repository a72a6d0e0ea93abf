import assert from "node:assert/strict";
import { screenshotWidths } from "./support/browser.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { useApp } from "./support/e2e.mjs";

const app = useApp();

app.browserTest("/layout-test is the offline mock: sample counts, a 25 of 50 fear meter and a closed chat", async ({ page }) => {
  await page.goto("/layout-test");
  await page.getByText("Stream Offline").waitFor();
  await page.getByText("The event will begin soon...").waitFor();
  await page.getByRole("heading", { name: "FEAR METER" }).waitFor();
  const meter = page.getByRole("progressbar");
  assert.equal(await meter.getAttribute("aria-valuenow"), "25");
  assert.equal(await meter.getAttribute("aria-valuemax"), "50");
  await page.getByText("£25.00", { exact: true }).waitFor();
  await page.getByText("/ £50.00 goal").waitFor();
  await page.getByText("2,500", { exact: true }).waitFor();
  await page.getByText("1,250", { exact: true }).waitFor();
  await page.getByText("Chat will be active during the stream", { exact: true }).waitFor();
  assert.equal(await page.getByRole("textbox", { name: "Chat message" }).isDisabled(), true);
  assert.equal(await page.getByRole("button", { name: "Send message" }).isDisabled(), true);
  // A mock: it opens no chat connection.
  assert.equal(await page.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.includes("/ws"))), false);
  await screenshotWidths(page, "layout-test");
  await assertAccessible(page, "/layout-test");
});

app.browserTest("/design shows the colours, type, buttons, fields, chat tiers, meter and countdown", async ({ page }) => {
  await page.goto("/design");
  await page.getByRole("heading", { level: 1, name: "Design" }).waitFor();
  for (const section of ["Colours", "Type", "Buttons", "Form fields", "Chat messages", "Meter and counts", "Countdown"]) {
    await page.getByRole("heading", { level: 2, name: section }).waitFor();
  }
  await page.getByText("Blood", { exact: true }).waitFor();
  await page.getByText("Enter The Nightmare").waitFor();
  await page.getByLabel("Access code").waitFor();
  await page.getByText("Access code is required").waitFor();

  // Chat tiers: a user line, a system line in italics, and donation lines from each tier.
  const chat = page.locator(".design-chat");
  await chat.getByText("did anyone else hear that from the cellar?").waitFor();
  const system = chat.locator(".stream-chat-line-system");
  assert.equal(await system.evaluate((el) => getComputedStyle(el).fontStyle), "italic");
  const tiers = await chat.locator(".stream-chat-line-donation").evaluateAll((lines) => lines.map((l) => l.getAttribute("data-tier")));
  assert.deepEqual(tiers, ["0", "10", "20", "50"]);
  const bar = await chat.locator('.stream-chat-line-donation[data-tier="20"]').evaluate((el) => getComputedStyle(el, "::before").width);
  assert.equal(bar, "4px", "£20 and up have the accent bar");

  assert.equal(await page.getByRole("progressbar").getAttribute("aria-valuetext"), "£25.00 of £50.00");
  await page.getByRole("heading", { name: "EVENT BEGINS IN" }).waitFor();
  for (const unit of ["Days", "Hours", "Minutes", "Seconds"]) await page.locator(".countdown-label", { hasText: unit }).waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll(".countdown-value")].every((v) => /^\d\d$/.test(v.textContent ?? "")));
  await screenshotWidths(page, "design");
  await assertAccessible(page, "/design");
  await page.getByRole("button", { name: "Show a toast" }).click();
  await page.locator("li.toast").filter({ hasText: "Access Granted" }).waitFor();
});
