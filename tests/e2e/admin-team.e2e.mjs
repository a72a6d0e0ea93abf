import assert from "node:assert/strict";
import { assertAccessible } from "./support/a11y.mjs";
import { screenshotScreen } from "./support/admin-panel.mjs";
import { ageProof, createOwner, disableTwoFactor, enterPassword, logOut, turnOnApp } from "./support/admin-team.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";

// One server for the file: the tests run in order, each building on the team the last one left.
const app = useApp();
const OWNER = { username: "cryptkeeper", email: "crypt@example.com", password: "bone-yard-31" };
const GHOUL = { username: "ghoul", password: "night-shift-13" };
let ghoulInvite = "";

/** Signs the owner in (the first test makes them) and opens the Team screen. */
async function ownerOnTeam(page) {
  await enterPassword(page, OWNER);
  await waitForPath(page, "/admin/dashboard");
  await page.locator("aside.admin-sidebar").getByRole("link", { name: "Team" }).click();
  await waitForPath(page, "/admin/team");
  await page.getByRole("heading", { level: 1, name: "Team" }).waitFor();
}

/** The Team screen's row of `username`. */
function memberRow(page, username) {
  return page
    .getByRole("table", { name: "Team members" })
    .locator("tr")
    .filter({ has: page.getByText(username, { exact: true }) });
}

/** Opens the invite dialog, invites `email` as `role` and answers the link it shows. */
async function invite(page, email, role) {
  await page.getByRole("button", { name: "Invite Member" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a team member" });
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByRole("radio", { name: new RegExp(`^${role}`) }).check({ force: true });
  await dialog.getByRole("button", { name: "Send Invite" }).click();
  const sent = page.getByRole("dialog", { name: "Invite sent" });
  const link = await sent.getByLabel("Invite link").inputValue();
  await sent.getByRole("button", { name: "Done" }).click();
  return link;
}

/** A second browser (own cookies), on the app. */
async function otherBrowser(context) {
  const browser = context.browser();
  assert.ok(browser);
  return browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
}

app.browserTest("an owner invites a moderator; a failed send shows its error and the second try gives the link to copy", async ({ page }) => {
  await createOwner(app.url, OWNER);
  await ownerOnTeam(page);
  const me = memberRow(page, OWNER.username);
  await me.getByText("You", { exact: true }).waitFor();
  await me.getByText("Owner", { exact: true }).waitFor();
  await me.getByText("No 2FA").waitFor();
  await page.getByRole("switch", { name: "Require two-factor sign-in for the whole team" }).waitFor();
  await page.getByText("No open invites").waitFor();
  await screenshotScreen(page, "admin-team");
  await assertAccessible(page, "/admin/team");

  await page.getByRole("button", { name: "Invite Member" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a team member" });
  await dialog.getByRole("button", { name: "Send Invite" }).click();
  await dialog.getByText("Please enter a valid email address").waitFor();
  await dialog.getByLabel("E-mail").fill("ghoul@example.com");
  await dialog.getByRole("radio", { name: /^Moderator/ }).check({ force: true });
  await screenshotScreen(page, "admin-team-invite");
  await assertAccessible(page, "the invite dialog");

  // The first send fails on the way; the dialog says so and keeps what was typed.
  let failed = 0;
  await page.route("**/api/admin/team/invites", (route) => {
    if (route.request().method() !== "POST" || failed > 0) return route.fallback();
    failed++;
    return route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "Simulated failure" }) });
  });
  await dialog.getByRole("button", { name: "Send Invite" }).click();
  await dialog.getByRole("alert").filter({ hasText: "Simulated failure" }).waitFor();
  assert.equal(await dialog.getByLabel("E-mail").inputValue(), "ghoul@example.com");
  await dialog.getByRole("button", { name: "Send Invite" }).click();
  const sent = page.getByRole("dialog", { name: "Invite sent" });
  await sent.getByText("ghoul@example.com was e-mailed a link to join as moderator.").waitFor();
  ghoulInvite = await sent.getByLabel("Invite link").inputValue();
  assert.match(ghoulInvite, /\/admin\/invite\/[0-9a-f]{48}$/);
  assert.equal(failed, 1);
  await screenshotScreen(page, "admin-team-invite-sent");
  await sent.getByRole("button", { name: "Done" }).click();

  const invites = page.getByRole("list", { name: "Open invites" });
  await invites.getByText("ghoul@example.com").waitFor();
  await invites.getByText("Moderator").waitFor();
});

app.browserTest("the invitee opens the link in another browser, joins, and sees only a moderator's screens", async ({ page }) => {
  await page.goto(new URL(ghoulInvite).pathname);
  await page.getByRole("heading", { name: "Join the Team" }).waitFor();
  await page.getByText("ghoul@example.com").waitFor();
  await page.getByText("Moderator", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Join the Team" }).click();
  await page.getByText("Username must be at least 3 characters").waitFor();
  await page.getByText("Password must be at least 6 characters").waitFor();
  await screenshotScreen(page, "admin-invite");
  await assertAccessible(page, "/admin/invite/…");
  await page.getByLabel("Username").fill(GHOUL.username);
  await page.getByLabel("Password").fill(GHOUL.password);
  await page.getByRole("button", { name: "Join the Team" }).click();
  await toastWith(page, "Welcome to the team").waitFor();
  await waitForPath(page, "/admin/dashboard");

  const sidebar = page.locator("aside.admin-sidebar");
  const nav = sidebar.getByRole("navigation", { name: "Admin" });
  for (const name of ["Dashboard", "Users", "Banned Users", "Moderation", "Security"]) await nav.getByRole("link", { name, exact: true }).waitFor();
  for (const name of ["Payments", "Settings", "Access Codes", "Team", "Audit Log"])
    assert.equal(await nav.getByRole("link", { name, exact: true }).count(), 0, `${name} is hidden`);
  await sidebar.getByText(GHOUL.username, { exact: true }).waitFor();
  await sidebar.getByText("Moderator", { exact: true }).waitFor();
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  await screenshotScreen(page, "admin-moderator-dashboard");

  // What the role may not do is not offered: no export of e-mail addresses, no chat rules.
  await nav.getByRole("link", { name: "Users", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Users" }).waitFor();
  assert.equal(await page.getByRole("link", { name: "Export CSV" }).count(), 0);
  await nav.getByRole("link", { name: "Moderation", exact: true }).click();
  await page.getByRole("heading", { name: "Moderation log" }).waitFor();
  assert.equal(await page.getByText("Loading chat rules…").count(), 0);
  assert.equal(await page.getByRole("heading", { name: "Chat rules" }).count(), 0);

  // A page typed in by hand says the role does not allow it, and loads nothing.
  await page.goto("/admin/payments");
  await page.getByText("Your role does not allow this").waitFor();
  await page.getByText("not open to the moderator role").waitFor();
  await screenshotScreen(page, "admin-role-refused");
  await assertAccessible(page, "a screen the role may not use");

  // The link worked once.
  const again = await page.context().browser()?.newContext({ baseURL: app.url });
  assert.ok(again);
  try {
    const second = await again.newPage();
    await second.goto(new URL(ghoulInvite).pathname);
    await second.getByText("Invite not valid").waitFor();
    await second.getByRole("link", { name: "Go to Login" }).waitFor();
  } finally {
    await again.close();
  }
});

app.browserTest("the owner changes a member's role; the team's last owner cannot step down", async ({ page }) => {
  await ownerOnTeam(page);
  const ghoul = memberRow(page, GHOUL.username);
  await ghoul.getByText("Moderator", { exact: true }).waitFor();
  await ghoul.getByRole("button", { name: "Change role: ghoul" }).click();
  const dialog = page.getByRole("dialog", { name: "Change ghoul's role" });
  await dialog.getByRole("radio", { name: /^Support/ }).check({ force: true });
  await dialog.getByRole("button", { name: "Save Role" }).click();
  await toastWith(page, "ghoul is now support.").waitFor();
  await ghoul.getByText("Support", { exact: true }).waitFor();

  await memberRow(page, OWNER.username)
    .getByRole("button", { name: `Change role: ${OWNER.username}` })
    .click();
  const mine = page.getByRole("dialog", { name: "Change your role" });
  await mine.getByRole("radio", { name: /^Operator/ }).check({ force: true });
  await mine.getByRole("button", { name: "Save Role" }).click();
  await mine.getByRole("alert").filter({ hasText: "The team needs at least one owner" }).waitFor();
  await screenshotScreen(page, "admin-team-last-owner");
  await mine.getByRole("button", { name: "Cancel" }).click();
  await memberRow(page, OWNER.username).getByText("Owner", { exact: true }).waitFor();
});

app.browserTest("step-up: with an old proof, revoking an invite asks for the password, then goes through by itself", async ({ page }) => {
  await ownerOnTeam(page);
  await invite(page, "bat@example.com", "Support");
  const invites = page.getByRole("list", { name: "Open invites" });
  await invites.getByText("bat@example.com").waitFor();

  ageProof(app.dataDir, OWNER.username);
  await invites.getByRole("button", { name: "Revoke the invite for bat@example.com" }).click();
  await page.getByRole("dialog", { name: "Revoke this invite?" }).getByRole("button", { name: "Revoke Invite" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it's you" });
  await confirm.getByText("Enter your password to go on.").waitFor();
  await confirm.getByLabel("Password").fill("not-the-password");
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await confirm.getByText("That password is not right").waitFor();
  await screenshotScreen(page, "admin-step-up-password");
  await confirm.getByLabel("Password").fill(OWNER.password);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await confirm.waitFor({ state: "detached" });
  await toastWith(page, "Invite revoked").waitFor();
  await invites.getByText("bat@example.com").waitFor({ state: "detached" });

  // Given up: the action is not done, and says why.
  await invite(page, "owl@example.com", "Operator");
  ageProof(app.dataDir, OWNER.username);
  await invites.getByRole("button", { name: "Revoke the invite for owl@example.com" }).click();
  await page.getByRole("dialog", { name: "Revoke this invite?" }).getByRole("button", { name: "Revoke Invite" }).click();
  await page.getByRole("dialog", { name: "Confirm it's you" }).getByRole("button", { name: "Cancel" }).click();
  await toastWith(page, "Confirm it's you to continue").waitFor();
  await page.getByRole("dialog", { name: "Revoke this invite?" }).getByRole("button", { name: "Cancel" }).click();
  await invites.getByText("owl@example.com").waitFor();
});

app.browserTest("with two factors required, a new member must set up an app before anything else, then gets their role's screens", async ({ page, context }) => {
  await ownerOnTeam(page);
  // The rule holds at once for everyone, the owner too: one without a second factor sets theirs up first.
  const rule = page.getByRole("switch", { name: "Require two-factor sign-in for the whole team" });
  await rule.click();
  await toastWith(page, "Set up two-factor sign-in for yourself first").waitFor();
  assert.equal(await rule.getAttribute("aria-checked"), "false");
  await page.locator("aside.admin-sidebar").getByRole("link", { name: "Security" }).click();
  await turnOnApp(page);
  await page.getByRole("button", { name: "I've Saved Them" }).click();
  await page.locator("aside.admin-sidebar").getByRole("link", { name: "Team" }).click();
  await page.getByRole("switch", { name: "Require two-factor sign-in for the whole team" }).click();
  await toastWith(page, "Two-factor sign-in required").waitFor();
  assert.equal(await page.getByRole("switch", { name: "Require two-factor sign-in for the whole team" }).getAttribute("aria-checked"), "true");
  const link = await invite(page, "wraith@example.com", "Operator");

  const other = await otherBrowser(context);
  try {
    const newcomer = await other.newPage();
    await newcomer.goto(new URL(link).pathname);
    await newcomer.getByLabel("Username").fill("wraith");
    await newcomer.getByLabel("Password").fill("pale-lantern-4");
    await newcomer.getByRole("button", { name: "Join the Team" }).click();
    await waitForPath(newcomer, "/admin/security");
    await newcomer.getByText("Your team requires two-factor sign-in").waitFor();
    await newcomer.getByRole("heading", { name: "Set up two-factor sign-in" }).waitFor();
    const nav = newcomer.locator("aside.admin-sidebar").getByRole("navigation", { name: "Admin" });
    await nav.getByRole("link", { name: "Security" }).waitFor();
    for (const name of ["Dashboard", "Users", "Settings"]) assert.equal(await nav.getByRole("link", { name, exact: true }).count(), 0, `${name} waits for enrolment`);
    assert.equal(await newcomer.getByRole("heading", { name: "Where you're signed in" }).count(), 0);
    await screenshotScreen(newcomer, "admin-security-enrol");
    await assertAccessible(newcomer, "/admin/security while enrolling");
    await newcomer.goto("/admin/dashboard");
    await waitForPath(newcomer, "/admin/security");

    await turnOnApp(newcomer);
    await newcomer.getByRole("button", { name: "Saved: Go to the Panel" }).click();
    await toastWith(newcomer, "You're all set").waitFor();
    await waitForPath(newcomer, "/admin/dashboard");
    await nav.getByRole("link", { name: "Settings", exact: true }).waitFor();
    assert.equal(await nav.getByRole("link", { name: "Payments", exact: true }).count(), 0);
    await newcomer.locator("aside.admin-sidebar").getByText("Operator", { exact: true }).waitFor();

    // Settings: the price and currency are shown, not offered (they are the owners'); the rest saves.
    await nav.getByRole("link", { name: "Settings", exact: true }).click();
    await newcomer.getByRole("heading", { name: "Price & donations" }).waitFor();
    const price = newcomer.getByLabel(/^Access price/);
    assert.equal(await price.getAttribute("readonly"), "");
    const currency = newcomer.getByLabel("Currency");
    assert.equal(await currency.evaluate((element) => element.tagName), "INPUT");
    assert.equal(await currency.getAttribute("readonly"), "");
    assert.equal(await newcomer.getByText("Only an owner can change the price or currency.").count(), 2);
    await screenshotScreen(newcomer, "admin-settings-operator");
    await newcomer.getByLabel(/^Donation goal/).fill("66.6");
    await newcomer.getByRole("button", { name: "Save Settings" }).click();
    await toastWith(newcomer, "Settings Saved").waitFor();
  } finally {
    await other.close();
  }

  await page.reload();
  await memberRow(page, "wraith").getByText("2FA on").waitFor();
  await page.getByRole("switch", { name: "Require two-factor sign-in for the whole team" }).click();
  await toastWith(page, "Two-factor sign-in optional").waitFor();
  // The tests after this one sign the owner in with the password alone, as an owner whose phone is lost would be after the command line.
  disableTwoFactor(app.dataDir, OWNER.username);
});

app.browserTest("the owner ends a member's sessions, then removes them; the member is signed out", async ({ page, context }) => {
  const other = await otherBrowser(context);
  try {
    const ghoul = await other.newPage();
    await enterPassword(ghoul, GHOUL);
    await waitForPath(ghoul, "/admin/dashboard");

    await ownerOnTeam(page);
    await memberRow(page, GHOUL.username).getByRole("button", { name: "End sessions: ghoul" }).click();
    await page.getByRole("dialog", { name: "End ghoul's sessions?" }).getByRole("button", { name: "End Sessions" }).click();
    await toastWith(page, "Sessions ended").waitFor();
    assert.equal((await ghoul.request.get("/api/admin/stats")).status(), 401);

    await memberRow(page, GHOUL.username).getByRole("button", { name: "Remove: ghoul" }).click();
    await page.getByRole("dialog", { name: "Remove ghoul?" }).getByRole("button", { name: "Remove Member" }).click();
    await toastWith(page, "Member removed").waitFor();
    await memberRow(page, GHOUL.username).waitFor({ state: "detached" });
    await enterPassword(ghoul, GHOUL);
    await ghoul.locator("form .alert-error").getByText("Invalid username or password").waitFor();
  } finally {
    await other.close();
  }
});

app.browserTest("the audit log lists what the team did, with filters, pages of 50 and a CSV export", async ({ page }) => {
  await enterPassword(page, OWNER);
  await waitForPath(page, "/admin/dashboard");
  // Enough entries for a second page: each access code made is recorded.
  for (let i = 0; i < 50; i++) assert.equal((await page.request.post("/api/admin/generate-access-code", { data: {} })).status(), 201);

  await page.locator("aside.admin-sidebar").getByRole("link", { name: "Audit Log" }).click();
  await waitForPath(page, "/admin/audit");
  await page.getByRole("heading", { level: 1, name: "Audit Log" }).waitFor();
  const table = page.getByRole("table", { name: "Audit entries" });
  await table.locator("tbody tr").nth(49).waitFor();
  assert.equal(await table.locator("tbody tr").count(), 50);
  const pager = page.getByRole("navigation", { name: "Pages of entries" });
  await pager.getByText("1–50").waitFor();
  await pager.getByRole("button", { name: "Next" }).click();
  await pager.getByText(/^51–/).waitFor();

  const action = page.getByLabel("Action", { exact: true });
  await action.selectOption("team");
  await pager.waitFor({ state: "detached" });
  const actions = await table.locator("tbody tr td:nth-child(3)").allTextContents();
  assert.ok(actions.length > 0 && actions.every((a) => a.startsWith("team.")), actions.join(", "));
  for (const done of ["team.invite", "team.join", "team.role", "team.remove", "team.invite-revoke", "team.require-2fa"]) assert.ok(actions.includes(done), `${done} is listed`);
  const roleChange = table.locator("tr").filter({ hasText: "team.role" });
  await roleChange.getByText("role: moderator").waitFor();
  await roleChange.getByText("role: support").waitFor();
  await screenshotScreen(page, "admin-audit");
  await assertAccessible(page, "/admin/audit");

  await page.getByLabel("Member", { exact: true }).fill("ghoul");
  await table.locator("tbody tr").first().getByText("team.join").waitFor();
  assert.deepEqual([...new Set(await table.locator("tbody tr td:nth-child(2)").allTextContents())], ["ghoul"]);
  const csv = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  assert.equal(csv, "/api/admin/audit-log.csv?actor=ghoul&action=team");
  const exported = await page.request.get(/** @type {string} */ (csv));
  const lines = (await exported.text()).trim().split(/\r?\n/);
  assert.equal(lines[0], "time,member,action,target,before,after,address");
  assert.ok(lines.slice(1).every((line) => line.includes(",ghoul,team.")));

  await page.getByLabel("From", { exact: true }).fill("2099-01-01T00:00");
  await page.getByText("Nothing matches these filters").waitFor();
  await page.getByRole("button", { name: "Clear Filters" }).click();
  await table.locator("tbody tr").nth(49).waitFor();
  await logOut(page);
});
