/**
 * The panel's guarded keys in the browser: the stream key revealed on demand through "Confirm it's you"
 * while the live state shows without it, and two factors required of the whole team reaching a member's
 * open panel (sent to set it up, asked to sign in again since a password is no step-up for them).
 */
import assert from "node:assert/strict";
import { assertAccessible } from "./support/a11y.mjs";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DESKTOP, MOBILE, fontsSettled, screenshotDir } from "./support/browser.mjs";
import { ADMIN, dismissToasts, logIn, screenshotScreen } from "./support/admin-panel.mjs";
import { ageProof, enterPassword, totp, turnOnApp } from "./support/admin-team.mjs";
import { toastWith, useApp, waitForPath } from "./support/e2e.mjs";
import { makeFingerprint } from "../support/fingerprint.mjs";

// --rtmp-port 0: the RTMP port is picked when the source becomes Built-in (OBS).
const app = useApp({ args: ["--rtmp-port", "0"] });

/** The page at 390 and 1280 px as it is now (a dialog open stays open): <name>-390.png and <name>-1280.png. */
async function screenshotBoth(page, name, locator = null) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.mouse.move(0, 0);
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await fontsSettled(page);
    await page.waitForTimeout(300);
    const path = join(screenshotDir, `${name}-${viewport.width}.png`);
    await (locator ? locator.screenshot({ path }) : page.screenshot({ path }));
  }
  await page.setViewportSize(DESKTOP);
}

/** A pass bought in demo mode with the test card, from outside the browser. */
async function buyPass(url) {
  const post = async (path, body) => {
    const response = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: url }, body: JSON.stringify(body) });
    assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
    return response.json();
  };
  const intent = await post("/api/create-payment-intent", { amount: 100, product: "livestream-access", email: "buyer@example.com" });
  await post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: "4242 4242 4242 4242" });
  await post("/api/generate-access-code", { paymentIntentId: intent.paymentIntentId, deviceFingerprint: makeFingerprint() });
}

app.browserTest("the stream key is fetched only when revealed, through Confirm it's you when the proof is old; the live state needs no proof", async ({ page }) => {
  const asked = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/admin/ingest/reveal-key") asked.push(request.url());
  });
  await logIn(page);
  const saved = await page.request.put("/api/admin/stream-source", { data: { kind: "ingest" } });
  assert.equal(saved.status(), 200, await saved.text());
  ageProof(app.dataDir, ADMIN.username);
  await page.goto("/admin/settings");
  const card = page.getByRole("form", { name: "Stream source" });
  const panel = card.getByTestId("ingest-panel");
  // What OBS sends (here: nothing yet) shows and refreshes with an old proof.
  await panel.getByText("Offline", { exact: true }).waitFor();
  await panel.getByText("Waiting for OBS").waitFor();
  const key = panel.getByTestId("stream-key");
  assert.equal(await key.getAttribute("type"), "password");
  assert.match(await key.inputValue(), /^•+$/, "the page holds dots, not the key");
  assert.equal(asked.length, 0, "the key is not asked for until it is revealed");

  await panel.getByRole("button", { name: "Reveal" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm it's you" });
  await dialog.getByText("Enter your password to go on.").waitFor();
  await dialog.getByLabel("Password").fill(ADMIN.password);
  await page.addStyleTag({ content: ".admin-topbar { position: static !important; }" });
  await screenshotBoth(page, "admin-stream-key-confirm");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await dialog.waitFor({ state: "detached" });
  await panel.getByRole("button", { name: "Hide" }).waitFor();
  assert.equal(await key.getAttribute("type"), "text");
  const shown = await key.inputValue();
  assert.match(shown, /^[0-9a-f]{40}$/);
  await card.scrollIntoViewIfNeeded();
  await dismissToasts(page);
  await screenshotBoth(page, "admin-stream-key-revealed", panel);
  await assertAccessible(page, "/admin/settings with the stream key revealed");

  const log = await (await page.request.get("/api/admin/audit-log?action=ingest.reveal-key")).json();
  assert.equal(log.entries.length, 1, "the reveal is logged once");
  assert.equal(log.entries[0].actor, ADMIN.username);
  assert.ok(!JSON.stringify(log).includes(shown), "the log never holds the key");

  // Hidden again, and given up at the dialog: the key stays hidden and the page says why.
  await panel.getByRole("button", { name: "Hide" }).click();
  assert.equal(await key.getAttribute("type"), "password");
  assert.notEqual(await key.inputValue(), shown);
});

app.browserTest("two factors required reach a support member's open panel: sent to set it up, then asked to sign in again, not for their password", async ({ page, context }) => {
  // The owner (with an app of their own) invites a support member, who joins in a browser of their own.
  await logIn(page, "/admin/security");
  const setup = await (await page.request.post("/api/admin/2fa/totp/setup")).json();
  const enabled = await page.request.post("/api/admin/2fa/totp/enable", { data: { code: totp(setup.secret) } });
  assert.equal(enabled.status(), 200, await enabled.text());
  const invite = await (await page.request.post("/api/admin/team/invites", { data: { email: "desk@example.com", role: "support" } })).json();
  await buyPass(app.url);
  const browser = context.browser();
  assert.ok(browser);
  const other = await browser.newContext({ baseURL: app.url, viewport: DESKTOP, reducedMotion: "reduce" });
  try {
    const desk = await other.newPage();
    const member = { username: "night-desk", password: "lantern-wick-7" };
    await desk.goto(new URL(invite.inviteUrl).pathname);
    await desk.getByLabel("Username").fill(member.username);
    await desk.getByLabel("Password").fill(member.password);
    await desk.getByRole("button", { name: "Join the Team" }).click();
    await waitForPath(desk, "/admin/dashboard");
    await desk.locator("aside.admin-sidebar").getByRole("link", { name: "Payments", exact: true }).click();
    await waitForPath(desk, "/admin/payments");

    await desk
      .getByRole("button", { name: /^Refund / })
      .first()
      .waitFor();

    // The owner turns the rule on; the member's open panel is told at once (the panel's event stream) and
    // goes to the set-up; a refund asked with the password as the only proof is refused.
    const rule = await page.request.put("/api/admin/team/require-2fa", { data: { required: true } });
    assert.equal(rule.status(), 200, await rule.text());
    ageProof(app.dataDir, member.username);
    await waitForPath(desk, "/admin/security");
    const [sold] = await (await page.request.get("/api/admin/payments")).json();
    const refused = await desk.request.post("/api/admin/payments/refund", { data: { paymentIntentId: sold.paymentIntentId } });
    assert.equal(refused.status(), 403, await refused.text());
    await desk.getByText("Your team requires two-factor sign-in").first().waitFor();
    await desk.getByRole("heading", { name: "Set up two-factor sign-in" }).waitFor();
    const nav = desk.locator("aside.admin-sidebar").getByRole("navigation", { name: "Admin" });
    assert.equal(await nav.getByRole("link", { name: "Payments", exact: true }).count(), 0, "nothing but enrolling is offered");
    const [payment] = await (await page.request.get("/api/admin/payments")).json();
    assert.equal(payment.refundedAmount, 0, "nothing was refunded");
    await screenshotScreen(desk, "admin-enrol-open-session");

    // Their proof is old, and a password is no step-up for them: the dialog asks them to sign in again.
    await desk.getByRole("button", { name: "Set Up App" }).click();
    const dialog = desk.getByRole("dialog", { name: "Confirm it's you" });
    await dialog.getByText("Sign in again to set up two-factor sign-in").waitFor();
    assert.equal(await dialog.getByLabel("Password").count(), 0, "no password field");
    await desk.addStyleTag({ content: ".admin-topbar { position: static !important; }" });
    await dismissToasts(desk);
    await screenshotBoth(desk, "admin-enrol-sign-in-again");
    await assertAccessible(desk, "the step-up dialog asking to sign in again");
    await dialog.getByRole("button", { name: "Sign In Again" }).click();
    await waitForPath(desk, "/admin/login");

    // Signed in again, the set-up opens at once; once done, the panel is theirs again.
    await enterPassword(desk, member);
    await waitForPath(desk, "/admin/security");
    await turnOnApp(desk);
    await desk.getByRole("button", { name: "Saved: Go to the Panel" }).click();
    await toastWith(desk, "You're all set").waitFor();
    await waitForPath(desk, "/admin/dashboard");
    await nav.getByRole("link", { name: "Payments", exact: true }).waitFor();
  } finally {
    await other.close();
    await page.request.put("/api/admin/team/require-2fa", { data: { required: false } });
  }
});
