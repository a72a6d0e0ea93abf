import assert from "node:assert/strict";
import { MOBILE } from "./support/browser.mjs";
import { enterAsViewer, failRoute, generateCode, logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { toastWith, useApp } from "./support/e2e.mjs";

const app = useApp();
const PATH = "/admin/access-codes";

/** The table row of a code. */
const rowOf = (page, code) => page.locator(`tr[data-code="${code}"]`);

/**
 * @param {import("playwright-core").Page} page
 * @param {{ email?: string, moderator?: boolean }} [options]
 */
async function generateInDialog(page, { email, moderator = false } = {}) {
  await page.getByRole("button", { name: "Generate Code" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate access code" });
  await dialog.waitFor();
  if (moderator) await dialog.getByText("Moderator", { exact: true }).click();
  if (email) await dialog.getByLabel("E-mail (optional)").fill(email);
  await dialog.getByRole("button", { name: "Generate", exact: true }).click();
  const done = page.getByRole("dialog", { name: "Access code generated" });
  const code = await done.getByTestId("generated-code").innerText();
  return { code, dialog: done };
}

app.browserTest("generate regular and moderator codes, search them, copy one and export the CSV", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await logIn(page, PATH);
  await page.getByText("No access codes yet").waitFor();
  await screenshotScreen(page, "admin-access-codes-empty");

  const regular = await generateInDialog(page);
  assert.match(regular.code, /^SKP-[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
  await regular.dialog.getByText("Copy it and give it to its owner").waitFor();
  await screenshotScreen(page, "admin-access-codes-generated");
  await regular.dialog.getByRole("button", { name: "Done" }).click();
  await rowOf(page, regular.code).getByText("Regular").waitFor();

  const mod = await generateInDialog(page, { email: "warden@example.com", moderator: true });
  assert.match(mod.code, /^MOD-/);
  await mod.dialog.getByText("It is on its way to warden@example.com").waitFor();
  await mod.dialog.getByRole("button", { name: "Done" }).click();
  const modRow = rowOf(page, mod.code);
  await modRow.getByText("Moderator").waitFor();
  await modRow.getByText("warden@example.com").waitFor();
  await modRow.getByText("Unused").waitFor();
  await modRow.getByRole("cell", { name: "No", exact: true }).waitFor();

  // A bad e-mail in the dialog is refused before anything is sent.
  await page.getByRole("button", { name: "Generate Code" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate access code" });
  await dialog.getByLabel("E-mail (optional)").fill("not-an-email");
  await dialog.getByRole("button", { name: "Generate", exact: true }).click();
  await dialog.getByText("Please enter a valid email address").waitFor();
  await screenshotScreen(page, "admin-access-codes-generate-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });

  // Case-insensitive substring search on the code.
  const search = page.getByRole("searchbox", { name: "Search codes" });
  await search.fill(regular.code.slice(5, 12).toLowerCase());
  await rowOf(page, regular.code).waitFor();
  assert.equal(await rowOf(page, mod.code).count(), 0);
  await page.getByText("1 of 2 codes").waitFor();
  await search.fill("mod-");
  await rowOf(page, mod.code).waitFor();
  assert.equal(await rowOf(page, regular.code).count(), 0);
  await search.fill("no-such-code");
  await page.getByText("No codes match your search").waitFor();
  await search.fill("");
  await page.getByText("2 codes").waitFor();

  await rowOf(page, regular.code)
    .getByRole("button", { name: `Copy ${regular.code}` })
    .click();
  await toastWith(page, "Copied!").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), regular.code);

  const csvLink = page.getByRole("link", { name: "Export CSV" });
  assert.equal(await csvLink.getAttribute("href"), "/api/admin/access-codes.csv");
  const [download] = await Promise.all([page.waitForEvent("download"), csvLink.click()]);
  assert.match(download.suggestedFilename(), /^access-codes-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await page.request.get("/api/admin/access-codes.csv");
  const text = await csv.text();
  assert.match(text, new RegExp(regular.code));
  assert.match(text, new RegExp(`${mod.code},MOD`));

  await screenshotScreen(page, "admin-access-codes");
  await assertAccessible(page, PATH);
});

app.browserTest("send by e-mail asks for the address, pre-filled with the code's own", async ({ page }) => {
  await logIn(page);
  const withEmail = await generateCode(page, { email: "owner@example.com" });
  const without = await generateCode(page);
  await page.goto(PATH);

  await rowOf(page, withEmail.code)
    .getByRole("button", { name: `Send ${withEmail.code}` })
    .click();
  let dialog = page.getByRole("dialog", { name: "Send access code" });
  assert.equal(await dialog.getByLabel("E-mail address").inputValue(), "owner@example.com");
  await dialog.getByRole("button", { name: "Send" }).click();
  await toastWith(page, "Email Sent").getByText(`${withEmail.code} was sent to owner@example.com.`).waitFor();
  await dialog.waitFor({ state: "detached" });

  await rowOf(page, without.code)
    .getByRole("button", { name: `Send ${without.code}` })
    .click();
  dialog = page.getByRole("dialog", { name: "Send access code" });
  assert.equal(await dialog.getByLabel("E-mail address").inputValue(), "");
  await dialog.getByRole("button", { name: "Send" }).click();
  await dialog.getByText("Please enter a valid email address").waitFor();
  await dialog.getByLabel("E-mail address").fill("new.owner@example.com");
  await screenshotScreen(page, "admin-access-codes-send-dialog");
  await dialog.getByRole("button", { name: "Send" }).click();
  await toastWith(page, "Email Sent").waitFor();
  await rowOf(page, without.code).getByText("new.owner@example.com").waitFor();
});

app.browserTest("reset a device binding, revoke a code and restore it, each after a confirmation", async ({ page }) => {
  await logIn(page);
  const { code } = await generateCode(page);
  await enterAsViewer(page, code, "Harrow");
  await page.goto(PATH);
  const row = rowOf(page, code);
  await row.getByText("Used", { exact: true }).waitFor();
  await row.getByText("Harrow").waitFor();
  await row.getByRole("cell", { name: "Yes", exact: true }).waitFor();

  await row.getByRole("button", { name: `Reset device ${code}` }).click();
  let confirm = page.getByRole("dialog", { name: "Reset device binding?" });
  await confirm.getByText(code).waitFor();
  await screenshotScreen(page, "admin-access-codes-confirm-reset");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await row.getByRole("cell", { name: "Yes", exact: true }).waitFor();
  await row.getByRole("button", { name: `Reset device ${code}` }).click();
  confirm = page.getByRole("dialog", { name: "Reset device binding?" });
  await confirm.getByRole("button", { name: "Reset device" }).click();
  await toastWith(page, "Device Reset").waitFor();
  await row.getByRole("cell", { name: "No", exact: true }).waitFor();
  assert.equal(await row.getByRole("button", { name: `Reset device ${code}` }).isDisabled(), true);

  await row.getByRole("button", { name: `Revoke ${code}` }).click();
  confirm = page.getByRole("dialog", { name: "Revoke this access code?" });
  await confirm.getByText("You can restore it later.", { exact: false }).waitFor();
  await confirm.getByRole("button", { name: "Revoke code" }).click();
  await toastWith(page, "Code Revoked").waitFor();
  await row.getByText("Revoked").waitFor();
  assert.equal(await row.getByRole("button", { name: `Revoke ${code}` }).count(), 0, "a revoked code offers Restore instead");
  assert.equal(await row.getByRole("button", { name: `Send ${code}` }).isDisabled(), true);

  let list = await (await page.request.get("/api/admin/access-codes")).json();
  let record = list.find((c) => c.code === code);
  assert.equal(record.revoked, true);
  assert.equal(record.deviceBound, false);

  // Revoked by mistake: restored, it works again.
  await row.getByRole("button", { name: `Restore ${code}` }).click();
  confirm = page.getByRole("dialog", { name: "Restore this access code?" });
  await confirm.getByText(`${code} will work again: its holder can enter it and watch.`, { exact: false }).waitFor();
  await screenshotScreen(page, "admin-access-codes-confirm-restore");
  await confirm.getByRole("button", { name: "Restore code" }).click();
  await toastWith(page, "Code Restored").getByText(`${code} works again.`).waitFor();
  await row.getByRole("button", { name: `Revoke ${code}` }).waitFor();
  assert.equal(await row.getByText("Revoked").count(), 0);
  assert.equal(await row.getByRole("button", { name: `Send ${code}` }).isDisabled(), false);
  list = await (await page.request.get("/api/admin/access-codes")).json();
  record = list.find((c) => c.code === code);
  assert.equal(record.revoked, false);
});

app.browserTest("failures: loading, generating and sending each show their toast", async ({ page }) => {
  await logIn(page);
  const { code } = await generateCode(page, { email: "x@example.com" });

  const restoreList = await failRoute(page, "/api/admin/access-codes");
  await page.goto(PATH);
  await toastWith(page, "Failed to fetch access codes.").waitFor();
  await page.getByText("The access codes could not be loaded").waitFor();
  await restoreList();
  await page.getByRole("button", { name: "Try again" }).click();
  await rowOf(page, code).waitFor();

  await failRoute(page, "/api/admin/generate-access-code");
  await page.getByRole("button", { name: "Generate Code" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate access code" });
  await dialog.getByRole("button", { name: "Generate", exact: true }).click();
  await toastWith(page, "Failed to generate access code.").waitFor();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await failRoute(page, `/api/admin/access-codes/${(await (await page.request.get("/api/admin/access-codes")).json())[0].id}/send`);
  await rowOf(page, code)
    .getByRole("button", { name: `Send ${code}` })
    .click();
  await page.getByRole("dialog", { name: "Send access code" }).getByRole("button", { name: "Send" }).click();
  await toastWith(page, "Failed to send access code.").waitFor();
});

app.browserTest(
  "on a phone the table becomes cards with labelled actions",
  async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await logIn(page);
    const regular = await generateCode(page, { email: "phone@example.com" });
    await generateCode(page, { kind: "MOD" });
    await page.goto(PATH);
    const card = page.locator(`li.record-card[data-code="${regular.code}"]`);
    await card.waitFor();
    assert.equal(await page.locator("table.data-table").count(), 0);
    await card.getByText("phone@example.com").waitFor();
    await card.getByText("Device bound").waitFor();
    await card.getByRole("button", { name: `Copy ${regular.code}` }).click();
    await toastWith(page, "Copied!").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "no sideways scrolling");
    await screenshotScreen(page, "admin-access-codes-cards");
  },
  { viewport: MOBILE },
);
