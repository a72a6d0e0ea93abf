/**
 * Helpers of the admin team browser tests: TOTP codes worked out here (RFC 6238, not with the server's
 * library), a session's proof made old in the server's own SQLite file, and Chromium's virtual
 * authenticator for passkeys.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { join } from "node:path";
import { executablePath, repoRoot } from "./server.mjs";

/**
 * The TOTP code of `base32` secret (SHA-1, 6 digits, 30 s steps) for the step `at` falls in.
 * @param {string} base32
 * @param {number} [at]
 */
export function totp(base32, at = Date.now()) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of base32.replace(/[\s=]+/g, "").toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = /** @type {number} */ (mac[mac.length - 1]) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/**
 * A code for a time step not used yet. The server takes a code of the step before or after the current one
 * too, and each account's steps only in rising order, so up to three codes follow at once (the step before,
 * while it has a few seconds left, then the current one, then the next); a fourth waits for the next step.
 * @param {string} secret
 * @param {Set<number>} used the steps this account has used
 */
export async function freshCode(secret, used) {
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / 30_000);
    const last = used.size ? Math.max(...used) : -Infinity;
    // The step before is good only until the current step ends: skipped when that is less than 5 s away.
    const first = now % 30_000 < 25_000 ? current - 1 : current;
    const step = Math.max(first, last + 1);
    if (step <= current + 1) {
      used.add(step);
      return totp(secret, step * 30_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 30_000 - (now % 30_000) + 100));
  }
}

/**
 * Runs one SQL statement on the server's SQLite file from a second process (Bun's bun:sqlite: Node 20 has
 * none of its own), for what a browser test cannot wait for: a proof or a sign-in grown old. Answers the
 * rows it changed.
 * @param {string} dataDir
 * @param {string} statement
 * @param {(string | number)[]} params
 */
export function runSql(dataDir, statement, ...params) {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(process.env.DB_FILE);
    db.exec("PRAGMA busy_timeout = 5000");
    console.log(db.query(process.env.STATEMENT).run(...JSON.parse(process.env.PARAMS)).changes);
  `;
  const result = spawnSync(join(repoRoot, "node_modules/.bin/bun"), ["-e", script], {
    env: { ...process.env, DB_FILE: join(dataDir, "dreadcast.db"), STATEMENT: statement, PARAMS: JSON.stringify(params) },
    encoding: "utf8",
  });
  assert.equal(result.status, 0, result.stderr);
  return Number(result.stdout.trim());
}

/**
 * Makes `username`'s sessions look as if they last gave a password or code 11 minutes ago, so the next
 * action that moves money or keys asks them to confirm it's them.
 * @param {string} dataDir
 * @param {string} username
 */
export function ageProof(dataDir, username) {
  const changed = runSql(dataDir, "UPDATE admin_sessions SET verified_at = ? WHERE admin_id = (SELECT id FROM admins WHERE username = ?)", Date.now() - 11 * 60_000, username);
  assert.ok(changed > 0, `no session of ${username} to age`);
}

/**
 * On the Security screen: sets up an authenticator app (the key read off the page, a code worked out here)
 * and waits for the recovery codes. Answers the app's secret.
 * @param {import("playwright-core").Page} page
 */
export async function turnOnApp(page) {
  await page.getByRole("button", { name: "Set Up App" }).click();
  const secret = ((await page.getByLabel("Secret key").textContent()) ?? "").replace(/\s/g, "");
  await page.getByLabel("Code from the app").fill(await freshCode(secret, new Set()));
  await page.getByRole("button", { name: "Turn On" }).click();
  await page.getByRole("heading", { name: "Save your recovery codes" }).waitFor();
  return secret;
}

/**
 * Turns every second factor of `username` off with the command line (`dreadcast admin disable-2fa`), as an
 * operator does for a member whose phone is lost.
 * @param {string} dataDir
 * @param {string} username
 */
export function disableTwoFactor(dataDir, username) {
  const result = spawnSync(executablePath(), ["admin", "disable-2fa", "--username", username, "--data-dir", dataDir], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
}

/**
 * Fills the login form's password step and sends it.
 * @param {import("playwright-core").Page} page
 * @param {{ username: string, password: string }} who
 */
export async function enterPassword(page, who) {
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(who.username);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Log In" }).click();
}

/**
 * Creates the first admin (the owner) through the API, at the server's own address.
 * @param {string} baseURL
 * @param {{ username: string, email: string, password: string }} who
 */
export async function createOwner(baseURL, who) {
  const response = await fetch(`${baseURL}/api/admin/create-first`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(who) });
  assert.equal(response.status, 201, await response.text());
}

/**
 * Logs out from the sidebar and waits for the login page.
 * @param {import("playwright-core").Page} page
 */
export async function logOut(page) {
  await page.locator("aside.admin-sidebar").getByRole("button", { name: "Logout" }).click();
  await page.waitForURL((url) => url.pathname === "/admin/login");
  await page.getByLabel("Username").waitFor();
}

/**
 * A virtual platform authenticator (a passkey with user verification, like Touch ID) on the page,
 * through the Chrome DevTools Protocol.
 * @param {import("playwright-core").Page} page
 */
export async function addVirtualAuthenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    async credentials() {
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      return credentials;
    },
  };
}
