/** Helpers of the livestream and chat browser tests: viewers, the admin API and a stand-in stream player. */
import { DESKTOP, openPage } from "./browser.mjs";

export const PLAYER_ORIGIN = "https://player.dreadcast.test";
export const PLAYER_URL = `${PLAYER_ORIGIN}/embed/night-one`;

/** A stand-in for the third-party player: a dark "camera" scene that records the messages it is sent. */
const PLAYER_HTML = `<!doctype html><html><head><meta charset="utf-8"><style>
html,body{margin:0;height:100%;background:#050203;color:#f3ece4;font:600 14px/1.4 system-ui,sans-serif;overflow:hidden}
.scene{position:absolute;inset:0;background:radial-gradient(ellipse 40% 30% at 70% 28%,rgba(255,240,230,.28),transparent 70%),radial-gradient(ellipse 80% 60% at 50% 100%,rgba(125,12,20,.55),transparent 70%),linear-gradient(180deg,#160a0d,#050203 70%)}
.trees{position:absolute;inset:auto 0 0;height:55%;background:repeating-linear-gradient(90deg,transparent 0 7%,rgba(0,0,0,.85) 7% 8.5%,transparent 8.5% 15%);mask:linear-gradient(0deg,#000 40%,transparent)}
.figure{position:absolute;left:46%;bottom:12%;width:3.2%;height:34%;border-radius:40% 40% 8% 8%;background:#000;box-shadow:0 0 40px rgba(0,0,0,.9)}
.rec{position:absolute;top:4%;left:3%;letter-spacing:.2em;font-size:12px}.rec:before{content:"";display:inline-block;width:9px;height:9px;margin-right:7px;border-radius:50%;background:#e01e2b}
.cam{position:absolute;bottom:4%;right:3%;letter-spacing:.2em;font-size:11px;opacity:.7}
</style></head><body><div class="scene"></div><div class="trees"></div><div class="figure"></div>
<div class="rec">REC · CAM 03</div><div class="cam">NIGHT VISION · 03:13:07</div>
<script>window.received=[];addEventListener("message",function(e){window.received.push(e.data)});</script></body></html>`;

/** Serves the stand-in player for this context at these origins (the real ones would be on the internet). */
export async function routePlayer(context, origins = [PLAYER_ORIGIN]) {
  for (const origin of origins) await context.route(`${origin}/**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: PLAYER_HTML }));
}

/** A fresh SCP- test code (demo mode issues them). */
export async function testCode(page) {
  return page.evaluate(async () => (await (await fetch("/api/test/generate-access-code")).json()).accessCode);
}

/** Stores a code and username as the landing form would, then opens the livestream and waits for the chat. */
export async function enterStream(page, username, code) {
  await page.goto("/design");
  const accessCode = code ?? (await testCode(page));
  await page.evaluate(
    ([c, u]) => {
      localStorage.setItem("accessCode", c);
      localStorage.setItem("username", u);
    },
    [accessCode, username],
  );
  await page.goto("/livestream");
  await connected(page);
  return accessCode;
}

/** Waits until the chat shows it is connected. */
export function connected(page, timeout = 15_000) {
  return page.locator(".stream-chat-status-connected").waitFor({ timeout });
}

/** Another viewer: a new context (own cookies, storage and device) on the same browser. */
export async function openViewer(browser, url, viewport = DESKTOP) {
  const viewer = await openPage(browser, url, viewport);
  await routePlayer(viewer.context);
  return viewer;
}

/** Sends a chat line through the composer. */
export async function say(page, text) {
  await page.getByRole("textbox", { name: "Chat message" }).fill(text);
  await page.getByRole("button", { name: "Send message" }).click();
}

/** The chat line (list item) containing this text. */
export function chatLine(page, text) {
  return page.getByRole("log", { name: "Chat messages" }).locator("li").filter({ hasText: text });
}

/** The admin API from Node: creates the first admin, logs in and keeps the session cookie. */
export async function adminApi(url, admin = { username: "cryptkeeper", email: "keeper@example.com", password: "graveyard-shift" }) {
  const base = { "content-type": "application/json", origin: url };
  await fetch(`${url}/api/admin/create-first`, { method: "POST", headers: base, body: JSON.stringify(admin) });
  const login = await fetch(`${url}/api/admin/login`, { method: "POST", headers: base, body: JSON.stringify({ username: admin.username, password: admin.password }) });
  if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const headers = { ...base, cookie };
  const call = async (method, path, body) => {
    const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  return {
    /** A new access code of that kind ('MOD' or 'SKP'). */
    generateCode: async (kind) => (await call("POST", "/api/admin/generate-access-code", { kind })).code,
    /** Revokes a code, as the panel's Revoke action does. */
    revokeCode: async (code) => {
      const record = (await call("GET", "/api/admin/access-codes")).find((c) => c.code === code);
      if (!record) throw new Error(`no access code ${code}`);
      return call("POST", `/api/admin/access-codes/${record.id}/revoke`);
    },
    /** Bans a viewer who entered, from the Users screen's action. */
    banUser: async (username) => {
      const user = (await call("GET", "/api/admin/users")).find((u) => u.username === username);
      if (!user) throw new Error(`no user ${username}`);
      return call("POST", `/api/admin/users/${user.id}/ban`, {});
    },
    /** Refunds a payment in full (or `amount` of it), as the Payments screen does. */
    refund: (paymentIntentId, amount) => call("POST", "/api/admin/payments/refund", { paymentIntentId, ...(amount ? { amount } : {}) }),
    /** The bans, newest first, with who banned and why. */
    bannedUsers: async () => (await call("GET", "/api/admin/banned-users")).bannedUsers,
    /** Saves the chat rules (slow mode, blocked terms, block or mask, links). */
    saveChatRules: (rules) => call("PUT", "/api/admin/chat-rules", { slowModeSeconds: 0, blockedTerms: [], filterAction: "block", blockLinks: false, ...rules }),
    /** Chooses the stream source (PUT /api/admin/stream-source). */
    setStreamSource: (body) => call("PUT", "/api/admin/stream-source", body),
    /** The built-in ingest: server address, whether OBS is live and what it sends (GET /api/admin/ingest). */
    ingestView: () => call("GET", "/api/admin/ingest"),
    /** The same with the stream key, revealed as the panel does (POST /api/admin/ingest/reveal-key). */
    ingest: async () => ({ ...(await call("GET", "/api/admin/ingest")), ...(await call("POST", "/api/admin/ingest/reveal-key")) }),
    /** The night's actions, as the panel's night card takes them: "open" (the doors) or "end" (the night). */
    night: (action) => call("POST", `/api/admin/event/${action}`, {}),
    /** Saves these settings fields alone (the night's latest end, selling the replay, the replay's window…). */
    saveSettings: (body) => call("PUT", "/api/admin/livestream-settings", body),
    /** The public settings with the night's phase, as any page reads them. */
    publicSettings: async () => (await fetch(`${url}/api/livestream-settings`)).json(),
    /** Saves the stream settings with these fields changed. */
    updateSettings: async (patch) => {
      const current = await call("GET", "/api/admin/livestream-settings");
      const { eventTitle, thumbnailUrl, embedUrl, donationGoal, isActive, startDate } = { ...current, ...patch };
      return call("PUT", "/api/admin/livestream-settings", { eventTitle, thumbnailUrl, embedUrl, donationGoal, isActive, startDate });
    },
  };
}

/** A donation paid with the demo test card straight through the API, as the payment dialog does. */
export async function donateByApi(page, pence) {
  return page.evaluate(async (amount) => {
    const post = (path, body) => fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
    const setup = await post("/api/create-donation-intent", { amount });
    const confirmed = await post("/api/demo/confirm-payment", { clientSecret: setup.clientSecret, cardNumber: "4242424242424242" });
    return confirmed.paymentIntent;
  }, pence);
}

/**
 * How far the stream page's video plays behind the newest media it holds: the median of five readings over
 * two seconds (one reading can land on a part just appended, or on a moment of catching up), and the readings.
 * @param {import("playwright-core").Page} page
 */
export async function behindNewest(page) {
  const readings = [];
  for (let i = 0; i < 5; i++) {
    if (i > 0) await page.waitForTimeout(500);
    readings.push(
      await page.evaluate(() => {
        const video = /** @type {HTMLVideoElement} */ (document.querySelector("video.stream-video"));
        return video.buffered.end(video.buffered.length - 1) - video.currentTime;
      }),
    );
  }
  return { median: [...readings].sort((a, b) => a - b)[2], readings: readings.map((r) => r.toFixed(2)).join(", ") };
}

/**
 * Sets the stream page's video `seconds` behind the newest media it holds, as a pause or a phone that froze leaves it.
 * @param {import("playwright-core").Page} page @param {number} seconds
 */
export function setBack(page, seconds) {
  return page.evaluate((s) => {
    const video = /** @type {HTMLVideoElement} */ (document.querySelector("video.stream-video"));
    video.currentTime = video.buffered.end(video.buffered.length - 1) - s;
  }, seconds);
}
