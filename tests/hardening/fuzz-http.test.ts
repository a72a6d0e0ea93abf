import { afterAll, beforeAll, expect, test } from "bun:test";
import Stripe from "stripe";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.mjs";
import { adminSession, STAND_IN_PAGE, startTestApp, type TestApp } from "../support/app.ts";
import { makeFingerprint, viewerSession } from "../support/viewer.ts";
import { startHlsOrigin, type HlsOrigin } from "../support/hls-origin.mjs";
import { hostileCookie, hostileForwardedFor, hostilePathSegment, hostileString, hostileValue, mutateBody } from "./fuzz-values.ts";
import { prng, runSeed, type Rng } from "../support/hardening.ts";
import { keepFailure, keptFailures } from "../support/fuzz-corpus.ts";

/**
 * A generated fuzz of every HTTP route. Each case is one request built from a seeded PRNG (seed and case
 * number are printed with any failure; HARDENING_SEED=n replays a run). The server must answer every one
 * with 2xx/3xx/4xx — API answers of 4xx with a JSON `{ error }` — never a 5xx, log no unhandled error,
 * stay up, and leave a database that passes `PRAGMA integrity_check`.
 */

const SEED = runSeed(20261122);
const CASES_DEMO = Number(process.env.HARDENING_HTTP_CASES ?? 4200);
const CASES_STRIPE = Math.round(CASES_DEMO / 4);
const CONCURRENCY = 8;

type Auth = "none" | "viewer" | "admin";
type BodyKind = "json" | "multipart" | "raw" | "none";

interface RouteSpec {
  method: string;
  /** The route as the app lists it; `:id` and `:name` are filled per case. */
  path: string;
  auth: Auth;
  body: BodyKind;
  /** A valid body (or query) to mutate from. */
  valid?: (s: State) => Record<string, unknown>;
  /** Relative weight in the case mix (slow routes such as login lower). */
  weight?: number;
}

interface State {
  codes: string[];
  intents: string[];
  secrets: string[];
  codeIds: number[];
}

const fingerprint = () => makeFingerprint() as unknown as Record<string, unknown>;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

/** Every route of the app, with what a well-formed call looks like. The test fails if the app grows a route missing here. */
const ROUTES: RouteSpec[] = [
  { method: "GET", path: "/healthz", auth: "none", body: "none" },
  { method: "GET", path: "/readyz", auth: "none", body: "none" },
  { method: "GET", path: "/metrics", auth: "none", body: "none" },
  { method: "GET", path: "/api/admin/check-first-admin", auth: "none", body: "none" },
  { method: "POST", path: "/api/admin/create-first", auth: "none", body: "json", valid: () => ({ username: "second", email: "s@example.com", password: "secret-pass" }) },
  { method: "POST", path: "/api/admin/login", auth: "none", body: "json", valid: () => ({ username: "warden", password: "wrong-pass" }), weight: 0.3 },
  { method: "POST", path: "/api/admin/logout", auth: "admin", body: "none" },
  { method: "GET", path: "/api/admin/profile", auth: "admin", body: "none" },
  { method: "GET", path: "/api/admin/stats", auth: "admin", body: "none" },
  { method: "GET", path: "/api/admin/stats/history", auth: "admin", body: "none" },
  { method: "POST", path: "/api/admin/fake-viewers", auth: "admin", body: "json", valid: () => ({ enabled: false, targetViewers: 10 }) },
  { method: "GET", path: "/api/admin/access-codes", auth: "admin", body: "none", weight: 0.5 },
  { method: "GET", path: "/api/admin/access-codes.csv", auth: "admin", body: "none", weight: 0.5 },
  { method: "POST", path: "/api/admin/generate-access-code", auth: "admin", body: "json", valid: () => ({ kind: "SKP", email: "fan@example.com" }) },
  { method: "POST", path: "/api/admin/access-codes/:id/send", auth: "admin", body: "json", valid: () => ({ email: "fan@example.com" }) },
  { method: "POST", path: "/api/admin/access-codes/:id/revoke", auth: "admin", body: "none", weight: 0.5 },
  { method: "POST", path: "/api/admin/access-codes/:id/restore", auth: "admin", body: "none" },
  { method: "POST", path: "/api/admin/access-codes/:id/reset-device", auth: "admin", body: "none" },
  { method: "GET", path: "/api/admin/users", auth: "admin", body: "none", weight: 0.5 },
  { method: "GET", path: "/api/admin/users.csv", auth: "admin", body: "none", weight: 0.5 },
  { method: "GET", path: "/api/admin/payments", auth: "admin", body: "none", weight: 0.5 },
  { method: "GET", path: "/api/admin/payments.csv", auth: "admin", body: "none", weight: 0.5 },
  { method: "POST", path: "/api/admin/payments/refund", auth: "admin", body: "json", valid: (s) => ({ paymentIntentId: s.intents.at(-1) ?? "pi_none", amount: 50 }) },
  { method: "GET", path: "/api/admin/banned-users", auth: "admin", body: "none" },
  { method: "POST", path: "/api/admin/unban-user", auth: "admin", body: "json", valid: () => ({ username: "someone" }) },
  { method: "GET", path: "/api/admin/livestream-settings", auth: "admin", body: "none" },
  { method: "GET", path: "/api/admin/chat-rules", auth: "admin", body: "none" },
  {
    method: "PUT",
    path: "/api/admin/chat-rules",
    auth: "admin",
    body: "json",
    valid: () => ({ slowModeSeconds: 0, blockedTerms: ["hate", "kill yourself"], filterAction: "mask", blockLinks: false }),
  },
  { method: "GET", path: "/api/admin/moderation-log", auth: "admin", body: "none", valid: () => ({ action: "ban", q: "someone", limit: 20 }) },
  { method: "GET", path: "/api/admin/moderation-log.csv", auth: "admin", body: "none", valid: () => ({ action: "filtered" }), weight: 0.5 },
  { method: "GET", path: "/api/admin/timeouts", auth: "admin", body: "none" },
  { method: "POST", path: "/api/admin/lift-timeout", auth: "admin", body: "json", valid: () => ({ username: "someone" }) },
  { method: "POST", path: "/api/admin/users/:id/moderator", auth: "admin", body: "json", valid: () => ({ isModerator: true }) },
  { method: "POST", path: "/api/admin/users/:id/ban", auth: "admin", body: "json", valid: () => ({ reason: "spam" }), weight: 0.5 },
  { method: "GET", path: "/api/admin/chat-export.json", auth: "admin", body: "none", weight: 0.5 },
  { method: "GET", path: "/api/admin/chat-export.csv", auth: "admin", body: "none", weight: 0.5 },
  {
    method: "PUT",
    path: "/api/admin/livestream-settings",
    auth: "admin",
    body: "json",
    valid: () => ({
      eventTitle: "Night",
      thumbnailUrl: "/assets/default-thumbnail.jpg",
      embedUrl: "https://player.example.com/embed/1",
      donationGoal: 5000,
      isActive: true,
      startDate: new Date().toISOString(),
      accessPrice: 100,
      currency: "gbp",
      confirmCurrencyChange: false,
    }),
  },
  { method: "POST", path: "/api/admin/upload-thumbnail", auth: "admin", body: "multipart", weight: 1.5 },
  { method: "GET", path: "/uploads/:name", auth: "none", body: "none" },
  { method: "GET", path: "/event.ics", auth: "none", body: "none" },
  { method: "HEAD", path: "/event.ics", auth: "none", body: "none" },
  { method: "GET", path: "/unsubscribe", auth: "none", body: "none", valid: () => ({ token: "A".repeat(32) }) },
  { method: "POST", path: "/unsubscribe", auth: "none", body: "none" },
  {
    method: "POST",
    path: "/api/validate-access",
    auth: "none",
    body: "json",
    valid: (s) => ({ accessCode: pickCode(s), username: "fuzzer", email: "", deviceFingerprint: fingerprint(), isTestCode: false }),
    weight: 2,
  },
  {
    method: "POST",
    path: "/api/verify-existing-access",
    auth: "viewer",
    body: "json",
    valid: (s) => ({ accessCode: pickCode(s), username: "fuzzer", deviceFingerprint: fingerprint() }),
  },
  {
    method: "POST",
    path: "/api/verify-stream-access",
    auth: "viewer",
    body: "json",
    valid: (s) => ({ accessCode: pickCode(s), username: "fuzzer", deviceFingerprint: fingerprint() }),
  },
  { method: "POST", path: "/api/verify-special-access", auth: "none", body: "json", valid: (s) => ({ accessCode: pickCode(s), username: "fuzzer" }) },
  { method: "POST", path: "/api/verify-access", auth: "none", body: "json", valid: (s) => ({ accessCode: pickCode(s), username: "fuzzer" }) },
  {
    method: "POST",
    path: "/api/generate-access-code",
    auth: "none",
    body: "json",
    valid: (s) => ({ paymentIntentId: s.intents.at(-1) ?? "pi_none", deviceFingerprint: fingerprint() }),
  },
  { method: "GET", path: "/api/test/generate-access-code", auth: "none", body: "none" },
  { method: "GET", path: "/api/user-data", auth: "viewer", body: "none" },
  { method: "GET", path: "/api/me", auth: "viewer", body: "none" },
  { method: "GET", path: "/api/check-moderator-status", auth: "viewer", body: "none" },
  { method: "POST", path: "/api/lost-code", auth: "none", body: "json", valid: () => ({ email: "fan@example.com" }) },
  { method: "GET", path: "/api/payment-config", auth: "none", body: "none" },
  {
    method: "POST",
    path: "/api/create-payment-intent",
    auth: "none",
    body: "json",
    valid: () => ({ amount: 100, product: "livestream-access", email: "buyer@example.com" }),
    weight: 1.5,
  },
  { method: "POST", path: "/api/create-donation-intent", auth: "viewer", body: "json", valid: () => ({ amount: 500 }) },
  {
    method: "POST",
    path: "/api/demo/confirm-payment",
    auth: "none",
    body: "json",
    valid: (s) => ({ clientSecret: s.secrets.at(-1) ?? "x", cardNumber: "4242 4242 4242 4242" }),
    weight: 1.5,
  },
  { method: "GET", path: "/api/demo/payment-intent", auth: "none", body: "none", valid: (s) => ({ clientSecret: s.secrets.at(-1) ?? "x" }) },
  { method: "POST", path: "/api/stripe/webhook", auth: "none", body: "raw", weight: 1.5 },
  { method: "GET", path: "/api/livestream-settings", auth: "viewer", body: "none" },
  { method: "GET", path: "/api/admin/stream-source", auth: "admin", body: "none" },
  {
    method: "PUT",
    path: "/api/admin/stream-source",
    auth: "admin",
    body: "json",
    valid: () => ({ kind: "hls", originUrl: hlsOrigin?.playlistUrl ?? "http://127.0.0.1:9/hls/stream.m3u8" }),
  },
  { method: "GET", path: "/api/stream/playback", auth: "viewer", body: "none" },
  { method: "GET", path: "/api/stream/hls/*", auth: "viewer", body: "none", weight: 2 },
  { method: "GET", path: "/api/stream/live/*", auth: "viewer", body: "none", weight: 2 },
  { method: "GET", path: "/api/admin/ingest", auth: "admin", body: "none" },
  { method: "GET", path: "/api/admin/events", auth: "admin", body: "none", weight: 0.3 },
  { method: "GET", path: "/api/admin/ready-to-sell", auth: "admin", body: "none", weight: 0.5 },
  { method: "POST", path: "/api/admin/event/open", auth: "admin", body: "none", weight: 0.3 },
  { method: "POST", path: "/api/admin/event/end", auth: "admin", body: "none", weight: 0.3 },
  { method: "POST", path: "/api/admin/event/cancel", auth: "admin", body: "json", valid: () => ({ note: "Called off: the barn flooded." }), weight: 0.2 },
  { method: "POST", path: "/api/admin/ingest/rotate-key", auth: "admin", body: "none", weight: 0.3 },
  { method: "POST", path: "/api/admin/ingest/reveal-key", auth: "admin", body: "none" },
  // The team: second factors, step-up, sessions, members, invites, the audit log.
  { method: "POST", path: "/api/admin/login/webauthn-options", auth: "none", body: "none", weight: 0.3 },
  { method: "POST", path: "/api/admin/login/second-factor", auth: "none", body: "json", valid: () => ({ code: "123456" }), weight: 0.5 },
  { method: "POST", path: "/api/admin/reauth", auth: "admin", body: "json", valid: () => ({ password: "wrong-pass" }), weight: 0.3 },
  { method: "POST", path: "/api/admin/reauth/webauthn-options", auth: "admin", body: "none", weight: 0.3 },
  { method: "GET", path: "/api/admin/2fa", auth: "admin", body: "none" },
  { method: "POST", path: "/api/admin/2fa/totp/setup", auth: "admin", body: "none", weight: 0.3 },
  { method: "POST", path: "/api/admin/2fa/totp/enable", auth: "admin", body: "json", valid: () => ({ code: "123456" }) },
  { method: "POST", path: "/api/admin/2fa/disable", auth: "admin", body: "json", valid: () => ({ password: "wrong-pass", code: "123456" }), weight: 0.3 },
  { method: "POST", path: "/api/admin/2fa/recovery-codes", auth: "admin", body: "json", valid: () => ({ password: "wrong-pass", code: "123456" }), weight: 0.3 },
  { method: "POST", path: "/api/admin/2fa/webauthn/register-options", auth: "admin", body: "none", weight: 0.3 },
  {
    method: "POST",
    path: "/api/admin/2fa/webauthn/register",
    auth: "admin",
    body: "json",
    valid: () => ({ name: "key", response: { id: "a", rawId: "a", type: "public-key", response: {} } }),
  },
  { method: "DELETE", path: "/api/admin/2fa/webauthn/:id", auth: "admin", body: "none" },
  { method: "GET", path: "/api/admin/sessions", auth: "admin", body: "none" },
  { method: "DELETE", path: "/api/admin/sessions/:id", auth: "admin", body: "none", weight: 0.3 },
  { method: "POST", path: "/api/admin/sessions/end-others", auth: "admin", body: "none", weight: 0.2 },
  { method: "POST", path: "/api/admin/password", auth: "admin", body: "json", valid: () => ({ current: "wrong-pass", next: "another-pass" }), weight: 0.3 },
  { method: "GET", path: "/api/admin/team", auth: "admin", body: "none" },
  { method: "POST", path: "/api/admin/team/invites", auth: "admin", body: "json", valid: () => ({ email: "ally@example.com", role: "support" }), weight: 0.5 },
  { method: "DELETE", path: "/api/admin/team/invites/:id", auth: "admin", body: "none" },
  { method: "PUT", path: "/api/admin/team/require-2fa", auth: "admin", body: "json", valid: () => ({ required: false }) },
  { method: "PUT", path: "/api/admin/team/:id", auth: "admin", body: "json", valid: () => ({ role: "operator" }) },
  { method: "DELETE", path: "/api/admin/team/:id", auth: "admin", body: "none", weight: 0.3 },
  { method: "POST", path: "/api/admin/team/:id/end-sessions", auth: "admin", body: "none", weight: 0.2 },
  { method: "GET", path: "/api/admin/audit-log", auth: "admin", body: "none", valid: () => ({ action: "sign-in", page: 1 }) },
  { method: "GET", path: "/api/admin/audit-log.csv", auth: "admin", body: "none", weight: 0.3 },
  { method: "GET", path: "/api/admin/invites/:token", auth: "none", body: "none" },
  { method: "POST", path: "/api/admin/invites/:token/accept", auth: "none", body: "json", valid: () => ({ username: "newcomer", password: "newcomer-pass" }), weight: 0.5 },
  // The night after: recordings and the replay's chat.
  { method: "GET", path: "/api/admin/recordings", auth: "admin", body: "none" },
  { method: "PATCH", path: "/api/admin/recordings/:id", auth: "admin", body: "json", valid: () => ({ title: "Night one", trimStartS: 1 }) },
  { method: "DELETE", path: "/api/admin/recordings/:id", auth: "admin", body: "none" },
  { method: "GET", path: "/api/admin/recordings/:file", auth: "admin", body: "none" },
  { method: "GET", path: "/api/stream/replay-chat", auth: "viewer", body: "none" },
  { method: "GET", path: "/*", auth: "none", body: "none" },
  { method: "HEAD", path: "/*", auth: "none", body: "none", weight: 0.3 },
];

function pickCode(s: State): string {
  return s.codes.length ? s.codes[s.codes.length - 1 - (s.codes.length > 3 ? Math.floor(Math.random() * 3) : 0)]! : "SCP-FORCED-ENTRY";
}

interface Case {
  index: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Bun.BodyInit;
  describe: string;
  /** Sign the body as Stripe would with this webhook secret (a real signature over a hostile event). */
  signWith?: string;
}

const LEDGER_EVENT_TYPES = ["charge.refunded", "charge.dispute.created", "charge.dispute.closed", "payment_intent.succeeded"];
const signer = new Stripe("sk_test_x");

function buildCase(rng: Rng, index: number, spec: RouteSpec, state: State, sessions: { viewer: string[]; admin: string[] }, url: string): Case {
  // Path
  let path = spec.path;
  if (path.includes(":id")) path = path.replace(":id", rng.chance(0.6) && state.codeIds.length ? String(rng.pick(state.codeIds)) : hostilePathSegment(rng));
  if (path.includes(":name")) path = path.replace(":name", rng.chance(0.2) ? "0123456789abcdef0123456789abcdef.png" : hostilePathSegment(rng));
  if (path.includes(":token")) path = path.replace(":token", rng.chance(0.3) ? "ab".repeat(24) : hostilePathSegment(rng));
  if (path.includes(":file"))
    path = path.replace(":file", rng.chance(0.4) ? `${rng.chance(0.5) && state.codeIds.length ? rng.pick(state.codeIds) : 1}.mp4` : hostilePathSegment(rng));
  if (path === "/api/stream/hls/*") {
    path = "/api/stream/hls/" + rng.pick(["stream.m3u8", "segment-0.ts", "segment-2.ts", "missing.ts", "a/%2e%2e/%2e%2e/x.ts", "..%2fx.ts", "x.json", hostilePathSegment(rng)]);
  }
  if (path === "/api/stream/live/*") {
    const query = rng.pick(["", "?_HLS_msn=0&_HLS_part=0", "?_HLS_msn=99999999999999999999", "?_HLS_part=1", "?_HLS_msn=-1", `?_HLS_msn=${hostilePathSegment(rng)}`]);
    path =
      "/api/stream/live/" + rng.pick(["index.m3u8", "stream.m3u8" + query, "init-1.mp4", "seg-0.m4s", "part-0-0.m4s", "part-1-99999.m4s", "..%2fx.m4s", hostilePathSegment(rng)]);
  }
  if (path === "/*") {
    path = rng.pick([
      "/",
      "/livestream",
      "/admin",
      "/api",
      "/api/nope",
      "/api/admin/nope",
      "/assets/x.js",
      "/" + hostilePathSegment(rng),
      "/x/../../etc/passwd",
      "/api/../healthz",
    ]);
  }
  const query = new URLSearchParams();
  if (spec.method === "GET" || spec.method === "HEAD") {
    const base = spec.valid?.(state) ?? {};
    for (const [k, v] of Object.entries(Object(mutateBody(rng, base)) as Record<string, unknown>)) {
      if ((typeof v !== "object" || v === null) && query.size < 20) query.set(k, String(v).slice(0, 4000));
    }
    if (rng.chance(0.2)) query.set(hostileString(rng).slice(0, 100), hostileString(rng).slice(0, 2000));
  }
  const qs = query.toString();
  if (qs) path += (path.includes("?") ? "&" : "?") + qs;

  // Headers: a cookie for the route's audience most of the time, a same-origin Origin most of the time.
  const headers: Record<string, string> = {};
  const real = spec.auth === "admin" ? sessions.admin : spec.auth === "viewer" ? sessions.viewer : [...sessions.viewer, ...sessions.admin];
  const cookie = rng.chance(0.7) && real.length ? rng.pick(real) : hostileCookie(rng, real);
  if (cookie) headers.cookie = cookie;
  headers.origin = rng.chance(0.9) ? url : rng.pick(["https://evil.example", "null", url + ".evil.example", "http://127.0.0.1:1"]);
  headers["x-forwarded-for"] = hostileForwardedFor(rng, index);
  if (rng.chance(0.05)) headers["accept-encoding"] = rng.pick(["br", "gzip, deflate, br", "identity;q=0", "*"]);
  if (rng.chance(0.03)) headers.range = "bytes=0-10";
  if (rng.chance(0.03)) headers["if-none-match"] = '"abc"';

  // Body
  let body: Bun.BodyInit | undefined;
  let describe = "";
  const bodyAllowed = !["GET", "HEAD"].includes(spec.method);
  const shape = !bodyAllowed ? "none" : rng.chance(0.85) ? spec.body : rng.pick<BodyKind>(["json", "multipart", "raw", "none"]);
  if (shape === "json") {
    const value = mutateBody(rng, spec.valid?.(state));
    let text = JSON.stringify(value) ?? "null";
    const encoding = rng.int(0, 19);
    if (encoding === 0) text = text.slice(0, rng.int(0, text.length)); // truncated JSON
    if (encoding === 1) text = text.replace(/"/g, "'");
    headers["content-type"] =
      encoding === 2
        ? rng.pick([
            "text/plain",
            "application/xml",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "application/json; charset=utf-16",
            "application/octet-stream",
            "",
          ])
        : "application/json";
    if (encoding === 3) {
      // The same fields form-encoded.
      const form = new URLSearchParams();
      if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) form.set(k, typeof v === "string" ? v : (JSON.stringify(v) ?? ""));
      text = form.toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    body = text;
    describe = `${headers["content-type"]} ${text.slice(0, 160)}${text.length > 160 ? `… (${text.length} chars)` : ""}`;
  } else if (shape === "multipart") {
    const variant = rng.int(0, 5);
    if (variant <= 2) {
      const form = new FormData();
      const bytes = variant === 0 ? PNG : variant === 1 ? new TextEncoder().encode(hostileString(rng)) : new Uint8Array(rng.int(0, 3) === 0 ? 0 : rng.int(1, 70_000));
      form.set(
        rng.chance(0.85) ? "thumbnail" : hostileString(rng).slice(0, 50) || "x",
        new Blob([bytes], { type: rng.pick(["image/png", "text/html", "application/x-msdownload", ""]) }),
        rng.pick(["a.png", "../../evil.sh", "x.svg", "<script>.png", ""]),
      );
      if (rng.chance(0.3)) form.set("extra", hostileString(rng));
      body = form;
      describe = `multipart (${bytes.length} bytes, variant ${variant})`;
    } else {
      // Hand-made multipart: truncated, with no boundary, or with a broken part header.
      const boundary = "----fuzz" + rng.int(0, 1e6);
      const full = `--${boundary}\r\nContent-Disposition: form-data; name="thumbnail"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${String.fromCharCode(...PNG)}\r\n--${boundary}--\r\n`;
      const cut = variant === 3 ? full.slice(0, rng.int(0, full.length - 1)) : variant === 4 ? full.replace("Content-Disposition", "Content-Dispositio") : full;
      headers["content-type"] = variant === 5 ? "multipart/form-data" : `multipart/form-data; boundary=${boundary}`;
      body = cut;
      describe = `raw multipart variant ${variant} (${cut.length} chars)`;
    }
  } else if (shape === "raw") {
    const variant = rng.int(0, spec.path === "/api/stripe/webhook" ? 5 : 3);
    headers["content-type"] = rng.pick(["application/json", "text/plain", "application/octet-stream"]);
    if (spec.path === "/api/stripe/webhook" || rng.chance(0.3)) {
      headers["stripe-signature"] = rng.pick([
        "",
        "t=1,v1=abc",
        `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`,
        "garbage",
        "t=,v1=,v0=",
        "t=" + "9".repeat(40) + ",v1=zz",
      ]);
    }
    if (variant === 0)
      body = JSON.stringify({
        id: "evt_" + rng.int(0, 1e9),
        type: "payment_intent.succeeded",
        data: { object: { id: rng.pick(state.intents.length ? state.intents : ["pi_x"]), metadata: { app: "dreadcast", kind: "access" } } },
      });
    else if (variant === 1) body = new Uint8Array(Array.from({ length: rng.int(0, 2000) }, () => rng.int(0, 255)));
    else if (variant === 2) body = hostileString(rng);
    else if (variant === 3) body = JSON.stringify(hostileValue(rng));
    else {
      // Correctly signed, so the event's object itself is what is hostile: a refund or dispute of any shape.
      const intent = rng.pick([...state.intents, "pi_unknown", null]);
      const number = () => (rng.chance(0.7) ? rng.int(0, 200) : hostileValue(rng));
      const object = rng.chance(0.3)
        ? hostileValue(rng)
        : mutateBody(rng, {
            id: `ch_${rng.int(0, 1e6)}`,
            payment_intent: intent,
            amount: number(),
            amount_refunded: number(),
            status: rng.pick(["needs_response", "won", "lost", hostileString(rng)]),
          });
      body = JSON.stringify({ id: `evt_fuzz${rng.int(0, 1e9)}`, object: "event", type: rng.pick(LEDGER_EVENT_TYPES), data: { object } });
      return { index, method: "POST", path, headers, body, describe: `signed hostile event (${String(body).slice(0, 160)})`, signWith: "whsec_x" };
    }
    describe = `raw ${headers["content-type"]} variant ${variant}`;
  }
  return { index, method: rng.chance(0.02) ? rng.pick(["PATCH", "DELETE", "OPTIONS", "PUT", "POST"]) : spec.method, path, headers, body, describe };
}

interface Outcome {
  status: number;
  failure?: string;
}

async function run(url: string, c: Case): Promise<Outcome> {
  let res: Response;
  if (c.signWith) c.headers["stripe-signature"] = await signer.webhooks.generateTestHeaderStringAsync({ payload: String(c.body), secret: c.signWith });
  try {
    res = await fetch(url + c.path, { method: c.method, headers: c.headers, body: c.body, redirect: "manual" });
  } catch (error) {
    return { status: 0, failure: `request failed: ${(error as Error).message}` };
  }
  // The panel's event stream stays open while it is read: its headers are the answer, the body is left.
  const streaming = res.status === 200 && (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
  if (streaming) await res.body?.cancel();
  const text = c.method === "HEAD" || streaming ? "" : await res.text();
  const status = res.status;
  // Bun answers an oversized request line or header block itself, before any of our code runs.
  if (status === 431 || status === 414) return { status };
  // The relay's one 5xx: its origin unreachable (an admin fuzzed it to another address), said with Retry-After.
  const originDown = status === 503 && c.path.startsWith("/api/stream/hls/") && res.headers.get("retry-after") !== null;
  // The stream's answer once the night is over (the fuzz ends it through POST /api/admin/event/end), said with Retry-After.
  const offAir = status === 503 && c.path.startsWith("/api/stream/") && res.headers.get("retry-after") !== null && text.includes("off the air");
  // The health check's own answer when the database took over its 2 s bound (the fuzz's load on a busy
  // machine can hold a PostgreSQL connection that long): what a load balancer is meant to read.
  const healthSaysDatabaseAway = status === 503 && (c.path === "/healthz" || c.path === "/readyz") && /"(unavailable)"/.test(text);
  if (status >= 500 && !originDown && !offAir && !healthSaysDatabaseAway) return { status, failure: `${status} ${text.slice(0, 300)}` };
  if (status < 200) return { status, failure: `unexpected status ${status}` };
  const pathname = c.path.split("?")[0]!;
  const isApi = pathname.startsWith("/api/") || pathname === "/api" || ["/healthz", "/readyz", "/metrics"].includes(pathname) || pathname.startsWith("/uploads/");
  if (isApi && status >= 400 && c.method !== "HEAD") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { status, failure: `${status} without a JSON body: ${text.slice(0, 200)}` };
    }
    if (typeof (parsed as { error?: unknown })?.error !== "string") return { status, failure: `${status} without an error message: ${text.slice(0, 200)}` };
  }
  if (!res.headers.get("x-content-type-options") || !res.headers.get("x-frame-options")) return { status, failure: "security headers missing" };
  return { status };
}

let demo: TestApp;
let stripeApp: TestApp;
let fakeStripe: FakeStripe;
/** A real HLS origin behind the relay, so its playlist and segment requests are fuzzed through. */
let hlsOrigin: HlsOrigin | undefined;

beforeAll(async () => {
  fakeStripe = await startFakeStripe();
  hlsOrigin = await startHlsOrigin();
  // The origin runs on this machine, as an origin beside the server does.
  demo = await startTestApp({ allowPrivateOrigins: true, trustProxy: ["127.0.0.1"] }, { page: STAND_IN_PAGE });
  stripeApp = await startTestApp({ ...fakeStripe.appConfig, allowPrivateOrigins: true, trustProxy: ["127.0.0.1"] }, { page: STAND_IN_PAGE });
  for (const app of [demo, stripeApp]) await app.ctx.stream.save({ kind: "hls", originUrl: hlsOrigin.playlistUrl });
});

afterAll(async () => {
  await demo?.close();
  await stripeApp?.close();
  await fakeStripe?.close();
  await hlsOrigin?.stop();
});

/** A failing case as it is kept (tests/fixtures/fuzz/http/): the session by its audience, the site's own origin by name. */
interface KeptCase {
  method: string;
  path: string;
  auth: Auth;
  headers: Record<string, string>;
  body?: string;
  describe: string;
}

const SAME_ORIGIN = "$SITE";

/** Keeps a failing case whose body can be written down (not a multipart form); answers the file, or null. */
function keepCase(c: Case, auth: Auth, url: string): string | null {
  if (c.body !== undefined && typeof c.body !== "string") return null;
  const { cookie: _cookie, ...headers } = c.headers;
  if (headers.origin === url) headers.origin = SAME_ORIGIN;
  const kept: KeptCase = { method: c.method, path: c.path, auth, headers, describe: c.describe, ...(c.body !== undefined ? { body: c.body } : {}) };
  return keepFailure("http", kept);
}

test("the kept failures (tests/fixtures/fuzz/http/) replay with a fresh session: never a 5xx, always a JSON error", async () => {
  const kept = keptFailures<KeptCase>("http");
  expect(kept.length).toBeGreaterThan(0);
  const sessions = { viewer: (await viewerSession(demo.ctx, "kept-viewer", "SKP")).cookie, admin: await adminSession(demo.ctx) };
  const failures: string[] = [];
  for (const { name, data } of kept) {
    const headers: Record<string, string> = { ...data.headers, ...(data.headers.origin === SAME_ORIGIN ? { origin: demo.url } : {}) };
    if (data.auth === "viewer") headers.cookie = sessions.viewer;
    if (data.auth === "admin") headers.cookie = sessions.admin;
    const outcome = await run(demo.url, { index: 0, method: data.method, path: data.path, headers, body: data.body, describe: data.describe });
    if (outcome.failure) failures.push(`${name}: ${data.method} ${data.path} ${data.describe} → ${outcome.failure}`);
  }
  expect(failures).toEqual([]);
});

test("the fuzz's route table covers every route the app serves", () => {
  const known = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
  const served = demo.routes.filter((r) => r.method !== "WS").map((r) => `${r.method} ${r.path}`);
  expect(served.filter((r) => !known.has(r))).toEqual([]);
  expect([...known].filter((r) => !served.includes(r))).toEqual([]);
});

async function fuzz(app: TestApp, cases: number, seed: number, label: string): Promise<{ ran: number; statuses: Record<number, number> }> {
  const state: State = { codes: ["SCP-FORCED-ENTRY"], intents: [], secrets: [], codeIds: [] };
  const sessions = { viewer: [] as string[], admin: [] as string[] };
  const refresh = async (round: number) => {
    sessions.viewer = [(await viewerSession(app.ctx, `viewer${seed % 1000}x${round}`, "SKP")).cookie, (await viewerSession(app.ctx, `mod${seed % 1000}x${round}`, "MOD")).cookie];
    const scp = await viewerSession(app.ctx, `tester${seed % 1000}x${round}`, "SCP");
    if (app.config.stripeSecretKey === null) sessions.viewer.push(scp.cookie);
    sessions.admin = [await adminSession(app.ctx)];
    state.codes.push(scp.code, (await app.ctx.access.issueAccessCode("SKP")).code);
    state.codeIds = (await app.ctx.store.all<{ id: number }>("SELECT id FROM access_codes ORDER BY id DESC LIMIT 20")).map((r) => r.id);
    const pays = await app.ctx.store.all<{ intent_id: string }>("SELECT intent_id FROM payments ORDER BY id DESC LIMIT 10");
    state.intents = pays.map((p) => p.intent_id);
    state.secrets = (await app.ctx.store.all<{ client_secret: string }>("SELECT client_secret FROM demo_payment_intents ORDER BY created_at DESC LIMIT 10")).map(
      (r) => r.client_secret,
    );
  };
  const weights = ROUTES.map((r) => r.weight ?? 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const failures: string[] = [];
  const statuses: Record<number, number> = {};
  let ran = 0;
  for (let start = 0; start < cases; start += CONCURRENCY * 25) {
    await refresh(start);
    const batch = Array.from({ length: Math.min(CONCURRENCY * 25, cases - start) }, (_, i) => start + i);
    for (let j = 0; j < batch.length; j += CONCURRENCY) {
      await Promise.all(
        batch.slice(j, j + CONCURRENCY).map(async (index) => {
          const rng = prng(seed * 100_003 + index);
          let pick = rng.next() * total;
          const spec = ROUTES.find((_, k) => (pick -= weights[k]!) < 0) ?? ROUTES[0]!;
          const c = buildCase(rng, index, spec, state, sessions, app.url);
          const outcome = await run(app.url, c);
          ran++;
          statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
          if (outcome.failure) {
            const kept = keepCase(c, spec.auth, app.url);
            failures.push(`[${label} seed ${seed} case ${index}] ${c.method} ${c.path.slice(0, 200)} ${c.describe} → ${outcome.failure}${kept ? ` (kept: ${kept})` : ""}`);
          }
        }),
      );
    }
  }
  if (failures.length) console.error(failures.slice(0, 20).join("\n"));
  expect(failures.slice(0, 20)).toEqual([]);
  expect(app.loggedErrors.slice(0, 5)).toEqual([]);
  // Still up, and the database is sound.
  expect((await fetch(app.url + "/healthz")).status).toBe(200);
  if (app.ctx.store.engine === "sqlite") expect((await app.ctx.store.get<{ integrity_check: string }>("PRAGMA integrity_check"))?.integrity_check).toBe("ok");
  return { ran, statuses };
}

test(`demo mode: ${CASES_DEMO} generated requests across every route — never a 5xx, always a JSON error`, async () => {
  const { ran, statuses } = await fuzz(demo, CASES_DEMO, SEED, "demo");
  console.log(`http fuzz (demo): ${ran} cases, statuses ${JSON.stringify(statuses)}`);
  expect(ran).toBe(CASES_DEMO);
}, 300_000);

test(`Stripe mode: ${CASES_STRIPE} generated requests, webhook deliveries included`, async () => {
  const { ran, statuses } = await fuzz(stripeApp, CASES_STRIPE, SEED + 1, "stripe");
  console.log(`http fuzz (stripe): ${ran} cases, statuses ${JSON.stringify(statuses)}`);
  expect(ran).toBe(CASES_STRIPE);
}, 300_000);
