/** Helpers of the admin panel browser tests: an admin account, logging in, codes, viewers and bans. */
import assert from "node:assert/strict";
import { deflateSync } from "node:zlib";
import { DESKTOP, fontsSettled, MOBILE, screenshot } from "./browser.mjs";
import { waitForPath } from "./e2e.mjs";
import { makeFingerprint } from "../../support/fingerprint.mjs";

export const ADMIN = { username: "gravekeeper", email: "keeper@example.com", password: "hollow-moon-13" };

const adminsMade = new Map();

/** Creates the first admin through the API, once per server. */
function ensureAdmin(origin) {
  if (!adminsMade.has(origin)) adminsMade.set(origin, createAdmin(origin));
  return adminsMade.get(origin);
}

async function createAdmin(baseURL) {
  const response = await fetch(`${baseURL}/api/admin/create-first`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!response.ok) throw new Error(`create-first: ${response.status} ${await response.text()}`);
}

/** The organiser's legal pages a Stripe-mode server is given before its browser tests, so that its passes are on sale. */
export const LEGAL_LINKS = { privacyUrl: "https://organiser.example/privacy", termsUrl: "https://organiser.example/terms" };

/** Sets the organiser's privacy policy and terms links through the API as the admin (made first if needed). */
export async function publishLegalLinks(origin) {
  await ensureAdmin(origin);
  const headers = { "content-type": "application/json", origin };
  const login = await fetch(`${origin}/api/admin/login`, { method: "POST", headers, body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }) });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const saved = await fetch(`${origin}/api/admin/livestream-settings`, { method: "PUT", headers: { ...headers, cookie }, body: JSON.stringify(LEGAL_LINKS) });
  if (!saved.ok) throw new Error(`settings: ${saved.status} ${await saved.text()}`);
}

/** Signs in through the login form (making the admin first if needed); lands on the dashboard, then goes to `path`. */
export async function logIn(page, path) {
  await page.goto("/admin/login");
  await ensureAdmin(new URL(page.url()).origin);
  await page.reload();
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await waitForPath(page, "/admin/dashboard");
  if (path) await page.goto(path);
}

/** Generates a code with the page's admin session. */
export async function generateCode(page, body = {}) {
  const response = await page.request.post("/api/admin/generate-access-code", { data: body });
  assert.equal(response.status(), 201, await response.text());
  return response.json();
}

/**
 * Lets a viewer in with `code` from a separate browser context (own cookies), so the code becomes used
 * and bound to that device, and a user row exists.
 */
export async function enterAsViewer(page, code, username, email) {
  const context = await page
    .context()
    .browser()
    .newContext({ baseURL: new URL(page.url()).origin });
  try {
    const response = await context.request.post("/api/validate-access", {
      data: { accessCode: code, username, deviceFingerprint: makeFingerprint(), ...(email ? { email } : {}) },
    });
    const body = await response.json();
    assert.equal(body.valid, true, `validate-access for ${username}: ${JSON.stringify(body)}`);
  } finally {
    await context.close();
  }
}

/** Bans `username` from the chat through the page's own /ws connection (the admin moderates as themself). */
export async function banThroughChat(page, username, reason) {
  const result = await page.evaluate(
    ({ target, reason }) =>
      new Promise((resolve) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws`);
        const timer = setTimeout(() => resolve("timeout"), 5000);
        ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "ban_user", username: target, ...(reason ? { reason } : {}) })));
        ws.addEventListener("message", (event) => {
          const frame = JSON.parse(event.data);
          if (frame.type === "user_banned" && frame.username.toLowerCase() === target.toLowerCase()) {
            clearTimeout(timer);
            ws.close();
            resolve("banned");
          } else if (frame.type === "error") {
            clearTimeout(timer);
            ws.close();
            resolve(`error: ${frame.message}`);
          }
        });
        ws.addEventListener("error", () => resolve("socket error"));
      }),
    { target: username, reason },
  );
  assert.equal(result, "banned", `banning ${username}`);
}

/** Answers every request to `path` (exact pathname, optional method) with a 500 until the returned function is called. */
export async function failRoute(page, path, method) {
  const matcher = (url) => url.pathname === path;
  const handler = (route) => {
    if (method && route.request().method() !== method) return route.fallback();
    return route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "Simulated failure" }) });
  };
  await page.route(matcher, handler);
  return () => page.unroute(matcher, handler);
}

/** A small real PNG (a red-to-black gradient), made without any image library. */
export function makePng(width = 160, height = 90) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = Math.round(230 * (1 - x / width)) + 20;
      row[2 + x * 3] = Math.round(20 * (y / height));
      row[3 + x * 3] = 24;
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * Closes the toasts on screen and waits (briefly) for them to go, so they cover nothing in a screenshot.
 * Each is closed from inside the page: with a dialog open its overlay takes the pointer, and a real click
 * would wait its whole timeout for it.
 * @param {import("playwright-core").Page} page
 */
export async function dismissToasts(page) {
  for (const close of await page.locator("li.toast button[aria-label='Close']").all()) {
    await close.evaluate((button) => button instanceof HTMLElement && button.click()).catch(() => {});
  }
  await page
    .locator("li.toast")
    .first()
    .waitFor({ state: "detached", timeout: 3000 })
    .catch(() => {});
}

/** Screenshots <name>-390.png and <name>-1280.png from the top of the page, without toasts or a hover in the way. */
export async function screenshotScreen(page, name) {
  const original = page.viewportSize();
  await page.mouse.move(0, 0);
  // A focused field is scrolled into view while a full page is captured, shifting the picture.
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await dismissToasts(page);
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await fontsSettled(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(400);
    await screenshot(page, `${name}-${viewport.width}`);
  }
  if (original) await page.setViewportSize(original);
}
