import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { DESKTOP, MOBILE, screenshot, screenshotWidths } from "./support/browser.mjs";
import { repoRoot } from "./support/server.mjs";
import { logIn } from "./support/admin-panel.mjs";
import { runSql } from "./support/admin-team.mjs";
import { assertAccessible } from "./support/a11y.mjs";
import { until, useApp } from "./support/e2e.mjs";
import { makeFingerprint } from "../support/fingerprint.mjs";

const app = useApp();

const ORGANISER = {
  organizerName: "Night Owl Events",
  contactEmail: "help@nightowl.example",
  privacyUrl: "https://nightowl.example/privacy",
  termsUrl: "https://nightowl.example/terms",
};

/** The queued mails to an address, oldest first, as the server wrote them (subject, text and HTML). */
function mailsTo(dataDir, to) {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(process.env.DB_FILE, { readonly: true });
    db.exec("PRAGMA busy_timeout = 5000");
    console.log(JSON.stringify(db.query("SELECT subject, text_body AS text, html_body AS html FROM email_queue WHERE to_address = ? ORDER BY id").all(process.env.TO)));
  `;
  const result = spawnSync(join(repoRoot, "node_modules/.bin/bun"), ["-e", script], { env: { ...process.env, DB_FILE: join(dataDir, "dreadcast.db"), TO: to }, encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** A page of its own (a mail, the unsubscribe page: none loads the site's fonts) at a phone's width and a desktop's. */
async function screenshotOwnPage(page, name) {
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    await screenshot(page, `${name}-${viewport.width}`);
  }
}

/** A mail's HTML part opened as a mail program shows it, at a phone's width and a desktop's. */
async function screenshotMail(page, html, name) {
  await page.setContent(html);
  await screenshotOwnPage(page, name);
}

/** A pass bought with the demo card through the API, as the payment dialog does. */
async function buyPass(page, email) {
  return page.evaluate(
    async ([address, fingerprint]) => {
      const post = (path, body) => fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
      const intent = await post("/api/create-payment-intent", { amount: 100, product: "livestream-access", email: address });
      await post("/api/demo/confirm-payment", { clientSecret: intent.clientSecret, cardNumber: "4242 4242 4242 4242" });
      const code = await post("/api/generate-access-code", { paymentIntentId: intent.paymentIntentId, deviceFingerprint: fingerprint });
      return { accessCode: code.accessCode, paymentIntentId: intent.paymentIntentId };
    },
    [email, makeFingerprint()],
  );
}

app.browserTest("the purchase and partial-refund mails name the seller, their contact and legal pages, and what was paid and returned", async ({ page, context }) => {
  await logIn(page);
  assert.equal((await page.request.put("/api/admin/livestream-settings", { data: { ...ORGANISER, accessPrice: 750 } })).status(), 200);
  const { accessCode, paymentIntentId } = await buyPass(page, "inbox@example.com");
  const [bought] = await until("the purchase mail", () => mailsTo(app.dataDir, "inbox@example.com")[0] && mailsTo(app.dataDir, "inbox@example.com"));
  assert.equal(bought.subject, "Your DREADCAST access code");
  assert.match(bought.text, /Paid: £7\.50 on \d+ \w+ \d{4}/);
  assert.match(
    bought.text,
    /Sold by: Night Owl Events\nContact: help@nightowl\.example\nPrivacy policy: https:\/\/nightowl\.example\/privacy\nTerms of service: https:\/\/nightowl\.example\/terms/,
  );

  const refunded = await page.request.post("/api/admin/payments/refund", { data: { paymentIntentId, amount: 300, expectedRefunded: 0 } });
  assert.equal(refunded.status(), 200, await refunded.text());
  const [, partial] = await until("the refund mail", () => mailsTo(app.dataDir, "inbox@example.com")[1] && mailsTo(app.dataDir, "inbox@example.com"));
  assert.equal(partial.subject, "Part of your DREADCAST access pass has been refunded");

  const mail = await context.newPage();
  await screenshotMail(mail, bought.html, "mail-purchase");
  for (const [name, href] of [
    ["help@nightowl.example", "mailto:help@nightowl.example"],
    ["Privacy policy", ORGANISER.privacyUrl],
    ["Terms of service", ORGANISER.termsUrl],
  ]) {
    // The seller's block at the end (the code mail's contact line above it links the address too).
    assert.equal(await mail.getByRole("link", { name, exact: true }).last().getAttribute("href"), href);
  }
  await mail.getByText(accessCode).waitFor();
  await screenshotMail(mail, partial.html, "mail-partial-refund");
  await mail.getByText("Left paid:").waitFor();
  assert.match(await mail.locator("body").innerText(), /Paid: £7\.50\s+Refunded now: £3\.00\s+Left paid: £4\.50/);
  await mail.close();
});

app.browserTest("the unsubscribe page leads back to the site and the organiser, and says the reminders are off when opened again", async ({ page }) => {
  await logIn(page);
  assert.equal((await page.request.put("/api/admin/livestream-settings", { data: { ...ORGANISER, eventTitle: "Hollow Farm" } })).status(), 200);
  const { accessCode } = await buyPass(page, "unsubscriber@example.com");
  const token = "Tq3xLq0m0v1mXh2cS0a7eB9rD4nF6kZ1";
  assert.equal(runSql(app.dataDir, "UPDATE access_codes SET reminder_token = ? WHERE code = ?", token, accessCode), 1);

  const viewer = await page.context().browser().newPage({ viewport: MOBILE });
  try {
    await viewer.goto(`${app.url}/unsubscribe?token=${token}`);
    await viewer.getByRole("heading", { name: "Stop the reminders?" }).waitFor();
    await viewer.getByRole("link", { name: "Back to Hollow Farm" }).waitFor();
    assert.equal(await viewer.getByRole("link", { name: "help@nightowl.example" }).getAttribute("href"), "mailto:help@nightowl.example");
    await screenshotOwnPage(viewer, "unsubscribe-ask");
    await assertAccessible(viewer, "/unsubscribe");
    await viewer.getByRole("button", { name: "STOP REMINDERS" }).click();
    await viewer.getByRole("heading", { name: "Reminders are off" }).waitFor();

    await viewer.goto(`${app.url}/unsubscribe?token=${token}`);
    await viewer.getByRole("heading", { name: "Reminders were already off" }).waitFor();
    assert.equal(await viewer.getByRole("button", { name: "STOP REMINDERS" }).count(), 0, "nothing left to confirm");
    await screenshotOwnPage(viewer, "unsubscribe-already-off");
    await viewer.getByRole("link", { name: "Back to Hollow Farm" }).click();
    await viewer.getByRole("button", { name: /BUY NOW/ }).waitFor();
  } finally {
    await viewer.close();
  }
});

app.browserTest("a used invite link says once to ask an owner for a new one", async ({ page }) => {
  await logIn(page);
  const invite = await page.request.post("/api/admin/team/invites", { data: { email: "once@example.com", role: "moderator" } });
  assert.equal(invite.status(), 201, await invite.text());
  const { inviteUrl } = await invite.json();
  const token = inviteUrl.split("/").pop();
  const accepted = await fetch(`${app.url}/api/admin/invites/${token}/accept`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ username: "oncer", password: "oncer-pass-13" }),
  });
  assert.ok(accepted.ok, await accepted.text());

  const guest = await page.context().browser().newPage({ viewport: MOBILE });
  try {
    await guest.goto(`${app.url}/admin/invite/${token}`);
    await guest.getByText("Invite not valid").waitFor();
    await guest.getByText("This invite link has expired or has already been used. Ask an owner for a new one.").waitFor();
    assert.equal((await guest.locator("main").innerText()).match(/ask an owner/gi)?.length, 1, "said once");
    await screenshotWidths(guest, "invite-used");

    // The invite itself: the event named, and a link to open in its HTML part.
    const [mail] = mailsTo(app.dataDir, "once@example.com");
    assert.match(mail.subject, /^You are invited to the admin team of /);
    await screenshotMail(guest, mail.html, "mail-invite");
    assert.equal(await guest.getByRole("link", { name: "JOIN THE TEAM" }).getAttribute("href"), inviteUrl);
  } finally {
    await guest.close();
  }
});
