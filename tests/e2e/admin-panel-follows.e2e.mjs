import assert from "node:assert/strict";
import { MOBILE, screenshotWidths } from "./support/browser.mjs";
import { screenshotScreen } from "./support/admin-panel.mjs";
import { createOwner, enterPassword } from "./support/admin-team.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { assertToastClearOfHeading, assertToastCoversNothing } from "./support/toast-cover.mjs";
import { makeFingerprint } from "../support/fingerprint.mjs";

// One server for the file (at 127.0.0.1, an IP address): an owner, and members whose panels stay open while
// the owner changes their role, signs them out or removes them.
const app = useApp();
const OWNER = { username: "bonewarden", email: "warden@example.com", password: "catacomb-81" };
const PASSWORD = "lantern-dusk-5";

/** An API client with the owner's session (a browser context of its own, no page). */
async function ownerApi(context) {
  const browser = context.browser();
  assert.ok(browser);
  const owner = await browser.newContext({ baseURL: app.url });
  const login = await owner.request.post("/api/admin/login", { data: OWNER });
  assert.equal(login.status(), 200, await login.text());
  return owner;
}

/** Invites `username` as `role` with the owner's session and accepts it on `page` (its cookies sign them in); answers their id. */
async function join(owner, page, username, role) {
  const invite = await owner.request.post("/api/admin/team/invites", { data: { email: `${username}@example.com`, role } });
  assert.equal(invite.status(), 201, await invite.text());
  const token = new URL((await invite.json()).inviteUrl).pathname.split("/").pop();
  const accepted = await page.request.post(`/api/admin/invites/${token}/accept`, { data: { username, password: PASSWORD } });
  assert.equal(accepted.status(), 201, await accepted.text());
  const team = await (await owner.request.get("/api/admin/team")).json();
  return team.members.find((m) => m.username === username).id;
}

/** The panel's menu: the sidebar at 1280 px (the test reads it there). */
const menu = (page) => page.locator("aside.admin-sidebar").getByRole("navigation", { name: "Admin" });

app.browserTest(
  "a support member's open panel follows a new role at once (the server's event, else the first refused call): the toast says it, the menu and the page follow",
  async ({ page, context }) => {
    await createOwner(app.url, OWNER);
    const owner = await ownerApi(context);
    try {
      const id = await join(owner, page, "ledgerimp", "support");
      // First without the server's event stream (a proxy that buffers it, say): the first refused call is what tells.
      const isEvents = (/** @type {URL} */ url) => url.pathname === "/api/admin/events";
      await page.route(isEvents, (route) => route.abort());
      await page.goto("/admin/access-codes");
      await page.getByRole("heading", { level: 1, name: "Access Codes" }).waitFor();
      await menu(page).getByRole("link", { name: "Payments", exact: true }).waitFor();

      const changed = await owner.request.put(`/api/admin/team/${id}`, { data: { role: "moderator" } });
      assert.equal(changed.status(), 200, await changed.text());
      // The very next call the old role could make is refused: the panel reads the profile again at once.
      const asked = Date.now();
      await page.getByRole("button", { name: "Generate Code" }).first().click();
      await page.getByRole("dialog").getByRole("button", { name: "Generate", exact: true }).click();
      await toastWith(page, "An owner changed your role to Moderator.").waitFor({ timeout: 5_000 });
      assert.ok(Date.now() - asked < 5_000, "the panel followed the role before its next profile check");
      await page.getByRole("heading", { level: 1, name: "Off Limits" }).waitFor();
      await page.getByText("not open to the moderator role").waitFor();
      for (const name of ["Payments", "Access Codes"]) assert.equal(await menu(page).getByRole("link", { name, exact: true }).count(), 0, `${name} left the menu`);
      await menu(page).getByRole("link", { name: "Moderation", exact: true }).waitFor();
      await page.locator("aside.admin-sidebar").getByText("Moderator", { exact: true }).waitFor();
      // The toast hides neither the heading nor a control, at 1280 and at 390 px.
      await assertToastCoversNothing(page);
      await assertToastClearOfHeading(page);
      await screenshotWidths(page, "admin-role-changed");

      // With the event stream back and no call refused at all, the server tells the open panel at once.
      await page.keyboard.press("Escape");
      await menu(page).getByRole("link", { name: "Users", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Users" }).waitFor();
      const listening = page.waitForResponse((response) => isEvents(new URL(response.url())) && response.status() === 200, { timeout: 15_000 });
      await page.unroute(isEvents);
      await listening;
      const changedAt = Date.now();
      assert.equal((await owner.request.put(`/api/admin/team/${id}`, { data: { role: "support" } })).status(), 200);
      await toastWith(page, "An owner changed your role to Support.").waitFor({ timeout: 3_000 });
      assert.ok(Date.now() - changedAt < 3_000, "pushed, well before the next 10 s profile check");
      await menu(page).getByRole("link", { name: "Payments", exact: true }).waitFor();
      // Support can neither promote nor ban: the page's lead says what it is for instead.
      await page.getByText("Everyone who has entered the event, with their access code and whether their pass still lets them in.").waitFor();
      assert.equal(await page.getByText("Make a viewer a moderator, or ban them from the stream, here.").count(), 0);
      await screenshotScreen(page, "admin-users-support");
    } finally {
      await owner.close();
    }
  },
);

app.browserTest("a member signed out by an owner, then removed, is told each time on the login page", async ({ page, context }) => {
  const owner = await ownerApi(context);
  try {
    const id = await join(owner, page, "nightclerk", "operator");
    await page.goto("/admin/dashboard");
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    assert.equal((await owner.request.post(`/api/admin/team/${id}/end-sessions`)).status(), 200);
    // Told by the server's event stream, not at the next 10 s profile check.
    await waitForPath(page, "/admin/login", 5_000);
    await toastWith(page, "An owner signed you out of the panel. Sign in again to go on.").waitFor();
    await page.getByLabel("Username").waitFor();
    await assertToastCoversNothing(page);
    await assertToastClearOfHeading(page);
    await screenshotWidths(page, "admin-signed-out-by-owner");

    await enterPassword(page, { username: "nightclerk", password: PASSWORD });
    await waitForPath(page, "/admin/dashboard");
    assert.equal((await owner.request.delete(`/api/admin/team/${id}`)).status(), 200);
    await waitForPath(page, "/admin/login", 5_000);
    await toastWith(page, "An owner removed you from the team, so you were signed out.").waitFor();
    await screenshotWidths(page, "admin-removed-from-team");
  } finally {
    await owner.close();
  }
});

app.browserTest("the Users screen shows a refunded viewer's pass as refunded, not active", async ({ page, context }) => {
  const browser = context.browser();
  assert.ok(browser);
  const buyer = await browser.newContext({ baseURL: app.url });
  /** @type {string} */
  let intentId;
  try {
    const intent = await (await buyer.request.post("/api/create-payment-intent", { data: { amount: 100, product: "livestream-access", email: "pale@example.com" } })).json();
    intentId = intent.paymentIntentId;
    assert.equal((await buyer.request.post("/api/demo/confirm-payment", { data: { clientSecret: intent.clientSecret, cardNumber: "4242 4242 4242 4242" } })).status(), 200);
    const code = await (await buyer.request.post("/api/generate-access-code", { data: { paymentIntentId: intentId, deviceFingerprint: makeFingerprint() } })).json();
    const entered = await (
      await buyer.request.post("/api/validate-access", { data: { accessCode: code.accessCode, username: "PaleRider", deviceFingerprint: makeFingerprint() } })
    ).json();
    assert.equal(entered.valid, true);
  } finally {
    await buyer.close();
  }
  await enterPassword(page, OWNER);
  await waitForPath(page, "/admin/dashboard");
  const refund = await page.request.post("/api/admin/payments/refund", { data: { paymentIntentId: intentId, expectedRefunded: 0 } });
  assert.equal(refund.status(), 200, await refund.text());
  await page.goto("/admin/users");
  const row = page.getByRole("table", { name: "Users" }).locator("tr").filter({ hasText: "PaleRider" });
  await row.getByText("Refunded", { exact: true }).waitFor();
  assert.equal(await row.getByText("Active", { exact: true }).count(), 0);
  await screenshotScreen(page, "admin-users-refunded");
  await page.setViewportSize(MOBILE);
  await page.getByRole("list", { name: "Users" }).locator("li").filter({ hasText: "PaleRider" }).getByText("Refunded", { exact: true }).waitFor();
});

app.browserTest("every limited field of the settings carries its limit, and the refusal names it", async ({ page }) => {
  await enterPassword(page, OWNER);
  await waitForPath(page, "/admin/dashboard");
  await page.goto("/admin/settings");
  const title = page.getByLabel("Event title");
  await title.waitFor();
  assert.equal(await title.getAttribute("maxlength"), "200");
  assert.equal(await page.getByLabel("Organiser name").getAttribute("maxlength"), "200");
  assert.equal(await page.getByLabel("Contact e-mail").getAttribute("maxlength"), "254");
  assert.equal(await page.getByLabel("Terms of service link").getAttribute("maxlength"), "2000");
  // No text field of the screen is left without one.
  const unlimited = await page
    .locator("main")
    .evaluate((main) =>
      [
        .../** @type {NodeListOf<HTMLInputElement | HTMLTextAreaElement>} */ (
          main.querySelectorAll("input:not([type]), input[type=text], input[type=url], input[type=email], input[type=password], input[type=search], textarea")
        ),
      ]
        .filter((field) => !field.hasAttribute("maxlength") && !field.readOnly)
        .map((field) => field.labels?.[0]?.textContent?.trim() || field.getAttribute("name") || field.outerHTML.slice(0, 80)),
    );
  assert.deepEqual(unlimited, []);
  // A title typed past the limit stops at 200 characters.
  await title.fill("");
  await title.pressSequentially("x".repeat(205), { delay: 0 });
  assert.equal((await title.inputValue()).length, 200);
  // Were a longer one sent anyway (the field's limit taken off), the refusal says the limit.
  await title.evaluate((field) => field.removeAttribute("maxlength"));
  await title.fill("x".repeat(201));
  await page.getByRole("button", { name: "Save Settings" }).click();
  await page.getByText("Event title must be 200 characters or less").first().waitFor();
  await screenshotScreen(page, "admin-settings-title-limit");
});

app.browserTest("at an IP address, the Security screen says passkeys need a host name instead of offering Add Key", async ({ page }) => {
  await enterPassword(page, OWNER);
  await waitForPath(page, "/admin/dashboard");
  await page.goto("/admin/security");
  await page.getByRole("heading", { name: "Passkeys and security keys" }).waitFor();
  await page.getByText("Not available at this address").waitFor();
  await page.getByText("Passkeys need a host name: browsers refuse them on an IP address.", { exact: false }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Add Key" }).count(), 0);
  await screenshotScreen(page, "admin-security-passkeys-ip");
});
