import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, generateKeyPairSync } from "node:crypto";
import { decodeProtectedHeader, importSPKI, jwtVerify } from "jose";
import { BunnyProvider, PLAYBACK_TTL_MS } from "../../src/modules/stream/providers.ts";
import { loginAsAdmin, STAND_IN_PAGE, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { enter } from "../support/viewer.ts";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
/** Mux hands the key out as base64 of a PKCS#1 PEM. */
const MUX_KEY = Buffer.from(privateKey.export({ type: "pkcs1", format: "pem" }).toString()).toString("base64");
/** Cloudflare's /stream/keys answers with a base64 JWK. */
const CLOUDFLARE_JWK = Buffer.from(JSON.stringify(privateKey.export({ format: "jwk" }))).toString("base64");
const PUBLIC_PEM = publicKey.export({ type: "spki", format: "pem" }).toString();
const CF_UID = "0123456789abcdef0123456789abcdef";
const CF_KID = "fedcba9876543210fedcba9876543210";

let app: TestApp;
let admin: TestClient;
let viewer: TestClient;
let viewerCode: string;

beforeAll(async () => {
  // A stand-in page, so /livestream answers with the page headers as it does with the built web app.
  app = await startTestApp({ publicUrl: "https://live.example.com", allowPrivateOrigins: true }, { page: STAND_IN_PAGE });
  admin = await loginAsAdmin(app);
  viewer = app.client();
  viewerCode = (await app.ctx.access.issueAccessCode("SKP")).code;
  expect((await enter(viewer, viewerCode, "Ghoul")).status).toBe(200);
});
afterAll(() => app.close());

const save = (body: unknown) => admin.put("/api/admin/stream-source", body);
const verifier = () => importSPKI(PUBLIC_PEM, "RS256");

describe("admin stream source", () => {
  test("starts as the embed kind with the settings' embed URL, watermark off", async () => {
    const res = await admin.get("/api/admin/stream-source");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: "embed", embedUrl: "", watermark: false });
  });

  test("is for admins only", async () => {
    expect((await app.client().get("/api/admin/stream-source")).status).toBe(401);
    expect((await viewer.put("/api/admin/stream-source", { kind: "hls", originUrl: "http://127.0.0.1/x.m3u8" })).status).toBe(401);
  });

  test("returns keys masked and never in any answer", async () => {
    const res = await save({ kind: "mux", playbackId: "abc123", signingKeyId: "key42", signingKey: MUX_KEY });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: "mux", playbackId: "abc123", signingKeyId: "key42", signingKeySet: true, watermark: true });
    const keyBody = privateKey.export({ type: "pkcs8", format: "pem" }).toString().split("\n")[1]!;
    for (const path of ["/api/admin/stream-source", "/api/admin/livestream-settings", "/api/livestream-settings", "/livestream", "/"]) {
      const text = (await admin.get(path)).text;
      expect(text).not.toContain(MUX_KEY.slice(0, 40));
      expect(text).not.toContain(keyBody);
    }
  });

  test("keeps the saved key when the field is left empty, for the same kind only", async () => {
    expect((await save({ kind: "mux", playbackId: "other1", signingKeyId: "key42", signingKey: "" })).body.signingKeySet).toBe(true);
    const refused = await save({ kind: "cloudflare", customerCode: "abc", videoUid: CF_UID, keyId: CF_KID });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: "Private key is required", field: "privateKey" });
  });

  test.each([
    ["an empty playback id", { kind: "mux", playbackId: "", signingKeyId: "k", signingKey: MUX_KEY }, "playbackId", "Playback ID is required"],
    ["a playback id with a slash", { kind: "mux", playbackId: "a/b", signingKeyId: "k", signingKey: MUX_KEY }, "playbackId", "Playback ID may only contain letters and digits"],
    [
      "a signing key that is no key",
      { kind: "mux", playbackId: "a", signingKeyId: "k", signingKey: "not a key" },
      "signingKey",
      "Signing key is not a PEM, a base64 PEM or a JWK private key",
    ],
    [
      "a PEM that holds no RSA key",
      { kind: "mux", playbackId: "a", signingKeyId: "k", signingKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----" },
      "signingKey",
      "Signing key is not a valid RSA private key",
    ],
    [
      "a Cloudflare UID that is not 32 hex",
      { kind: "cloudflare", customerCode: "abc", videoUid: "xyz", keyId: CF_KID, privateKey: CLOUDFLARE_JWK },
      "videoUid",
      "Video or live input UID is 32 hexadecimal characters",
    ],
    ["a Bunny library id that is not a number", { kind: "bunny", libraryId: "12a", videoId: "v", tokenKey: "abcdefgh-1234" }, "libraryId", "Library ID is a number"],
    ["a Bunny token key too short", { kind: "bunny", libraryId: "12", videoId: "v", tokenKey: "short" }, "tokenKey", "Token authentication key is 8 to 128 letters, digits or -"],
    [
      "an origin that is not http(s)",
      { kind: "hls", originUrl: "file:///etc/passwd" },
      "originUrl",
      "Origin URL must be an http:// or https:// address without a user name or password",
    ],
    ["an origin that is no playlist", { kind: "hls", originUrl: "http://127.0.0.1:8080/hls/" }, "originUrl", "Origin URL must be the address of an HLS playlist (ending in .m3u8)"],
    ["a javascript: embed", { kind: "embed", embedUrl: "javascript:alert(1)" }, "embedUrl", "Please enter a valid embed URL"],
    ["an unknown kind", { kind: "rtmp" }, "kind", "Choose a stream source: embed, mux, cloudflare, bunny, hls or ingest"],
    ["a body that is not an object", "just text", "kind", "Choose a stream source: embed, mux, cloudflare, bunny, hls or ingest"],
  ])("refuses %s with a message for its field, saving nothing", async (_label, body, field, error) => {
    const before = (await admin.get("/api/admin/stream-source")).body;
    const res = await save(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error, field });
    expect((await admin.get("/api/admin/stream-source")).body).toEqual(before);
  });
});

describe("GET /api/stream/playback", () => {
  test("401 for a visitor, 403 for a viewer banned by name", async () => {
    await save({ kind: "bunny", libraryId: "77", videoId: "vid-1", tokenKey: "token-key-1234" });
    const visitor = await app.client().get("/api/stream/playback");
    expect(visitor.status).toBe(401);
    expect(visitor.body.error).toBe("Enter your access code to watch the stream.");
    const banned = app.client();
    await enter(banned, (await app.ctx.access.issueAccessCode("SKP")).code, "Banned1");
    await app.ctx.store.run("INSERT INTO banned_users (username, created_at) VALUES ('Banned1', 0)");
    expect((await banned.get("/api/stream/playback")).status).toBe(403);
  });

  test("Mux: RS256 playback and thumbnail tokens with kid, sub, aud and exp", async () => {
    await save({ kind: "mux", playbackId: "abc123", signingKeyId: "key42", signingKey: MUX_KEY });
    const res = await viewer.get("/api/stream/playback");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe("https://player.mux.com/abc123");
    const expiresAt = Date.parse(res.body.expiresAt);
    for (const [param, aud] of [
      ["playback-token", "v"],
      ["thumbnail-token", "t"],
    ] as const) {
      const token = url.searchParams.get(param)!;
      expect(decodeProtectedHeader(token)).toEqual({ alg: "RS256", typ: "JWT", kid: "key42" });
      const { payload } = await jwtVerify(token, await verifier(), { audience: aud, subject: "abc123" });
      expect(payload.exp).toBe(Math.floor(expiresAt / 1000));
    }
    expect(expiresAt - Date.now()).toBeGreaterThan(5 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(4 * 3600_000);
    expect(res.body.kind).toBe("mux");
    expect(res.body.watermark).toBe(`Ghoul · ${viewerCode.slice(-4)}`);
  });

  test("Cloudflare: the token in the iframe path, RS256 with kid, sub, exp within 24 h and nbf", async () => {
    const saved = await save({ kind: "cloudflare", customerCode: "f33zs165nr7gyfy4", videoUid: CF_UID, keyId: CF_KID, privateKey: CLOUDFLARE_JWK });
    expect(saved.body).toEqual({ kind: "cloudflare", customerCode: "f33zs165nr7gyfy4", videoUid: CF_UID, keyId: CF_KID, privateKeySet: true, watermark: true });
    const res = await viewer.get("/api/stream/playback");
    const match = /^https:\/\/customer-f33zs165nr7gyfy4\.cloudflarestream\.com\/([^/]+)\/iframe$/.exec(res.body.url);
    expect(match).not.toBeNull();
    const token = match![1]!;
    expect(decodeProtectedHeader(token).kid).toBe(CF_KID);
    const { payload } = await jwtVerify(token, await verifier(), { subject: CF_UID });
    expect(payload.exp! * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    expect(payload.nbf! * 1000).toBeLessThanOrEqual(Date.now());
  });

  test("a token signed by another key does not verify", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString();
    const token = (await viewer.get("/api/stream/playback")).body.url.split("/")[3];
    await expect(jwtVerify(token, await importSPKI(other, "RS256"))).rejects.toThrow();
  });

  test("Bunny: the token is SHA-256 of key, video id and expiry, as computed independently", async () => {
    await save({ kind: "bunny", libraryId: "77", videoId: "vid-1", tokenKey: "token-key-1234" });
    const res = await viewer.get("/api/stream/playback");
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe("https://iframe.mediadelivery.net/embed/77/vid-1");
    const expires = url.searchParams.get("expires")!;
    expect(Number(expires)).toBe(Math.floor(Date.parse(res.body.expiresAt) / 1000));
    expect(url.searchParams.get("token")).toBe(createHash("sha256").update(`token-key-1234vid-1${expires}`).digest("hex"));
  });

  test("a fixed Bunny vector: key 'abc', video 'v', expiry 1700000000", async () => {
    const bunny = new BunnyProvider({ libraryId: "1", videoId: "v", tokenKey: "abc" });
    const { url } = await bunny.playback(1_700_000_000_000 - PLAYBACK_TTL_MS);
    // printf abcv1700000000 | sha256sum
    expect(url).toBe("https://iframe.mediadelivery.net/embed/1/v?token=3c62e29cb4adb775e8ddf3fbaee192068e716069f58a20496ca1e4ca3d29e4ec&expires=1700000000");
  });

  test("embed: today's link; Twitch gets parent=<public host>; the page CSP frames only that origin", async () => {
    await save({ kind: "embed", embedUrl: "https://player.twitch.tv/?channel=dreadcast" });
    const res = await viewer.get("/api/stream/playback");
    expect(res.body).toMatchObject({ kind: "embed", url: "https://player.twitch.tv/?channel=dreadcast&parent=live.example.com", watermark: null });
    expect((await viewer.get("/api/livestream-settings")).body.embedUrl).toBe("https://player.twitch.tv/?channel=dreadcast&parent=live.example.com");
    const csp = (await fetch(app.url + "/livestream")).headers.get("content-security-policy")!;
    expect(csp).toContain("frame-src https://js.stripe.com https://hooks.stripe.com https://player.twitch.tv;");
  });

  test("a signed kind hides the embed link from public settings and puts only its player in the CSP", async () => {
    expect((await save({ kind: "mux", playbackId: "abc123", signingKeyId: "key42", signingKey: MUX_KEY, watermark: false })).status).toBe(200);
    expect((await viewer.get("/api/livestream-settings")).body.embedUrl).toBe("");
    expect((await viewer.get("/api/stream/playback")).body.watermark).toBeNull();
    const csp = (await fetch(app.url + "/livestream")).headers.get("content-security-policy")!;
    expect(csp).toContain("frame-src https://js.stripe.com https://hooks.stripe.com https://player.mux.com;");
    expect(csp).not.toContain("twitch");
    expect(csp).not.toContain("media-src");
  });

  test("hls: the relayed playlist path; media and worker from blobs in the CSP; admins get playback too", async () => {
    await save({ kind: "hls", originUrl: "http://127.0.0.1:9/live/stream.m3u8" });
    const res = await admin.get("/api/stream/playback");
    expect(res.body).toMatchObject({ kind: "hls", url: "/api/stream/hls/stream.m3u8", watermark: "warden · admin" });
    const csp = (await fetch(app.url + "/livestream")).headers.get("content-security-policy")!;
    expect(csp).toContain("media-src 'self' blob:;");
    expect(csp).toContain("worker-src 'self' blob:;");
    expect(csp).toContain("frame-src https://js.stripe.com https://hooks.stripe.com;");
  });
});

describe("embed links are saved as players", () => {
  const saved = async () => (await admin.get("/api/admin/stream-source")).body.embedUrl;

  test.each([
    ["a YouTube watch link", "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["a youtu.be link", "https://youtu.be/dQw4w9WgXcQ?si=abc", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["a YouTube /live/ link", "https://www.youtube.com/live/dQw4w9WgXcQ", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    [
      "a YouTube channel's live page",
      "https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv/live",
      "https://www.youtube.com/embed/live_stream?channel=UCabcdefghijklmnopqrstuv",
    ],
    ["a Twitch channel", "https://www.twitch.tv/NightShift", "https://player.twitch.tv/?channel=nightshift&parent=live.example.com"],
    ["a Twitch past broadcast", "https://www.twitch.tv/videos/123456789", "https://player.twitch.tv/?video=v123456789&parent=live.example.com"],
    ["a Vimeo video", "https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"],
    ["an unlisted Vimeo video", "https://vimeo.com/76979871/a1b2c3d4e5", "https://player.vimeo.com/video/76979871?h=a1b2c3d4e5"],
    ["a Vimeo event", "https://vimeo.com/event/4242", "https://vimeo.com/event/4242/embed"],
    ["a YouTube player, kept as it is", "https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1", "https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1"],
    ["a Vimeo player, kept as it is", "https://player.vimeo.com/video/76979871", "https://player.vimeo.com/video/76979871"],
    ["another service's player, kept as it is", "https://live.example.org/embed/video", "https://live.example.org/embed/video"],
  ])("%s", async (_, link, player) => {
    const res = await save({ kind: "embed", embedUrl: link });
    expect(res.status).toBe(200);
    expect(res.body.embedUrl).toBe(player);
    expect(await saved()).toBe(player);
    expect((await viewer.get("/api/livestream-settings")).body.embedUrl).toBe(player);
  });

  test("Twitch's parent is the configured site, never the Host a request names", async () => {
    const res = await admin.put(
      "/api/admin/stream-source",
      { kind: "embed", embedUrl: "https://www.twitch.tv/nightshift" },
      { host: "evil.example", origin: "http://evil.example" },
    );
    expect(res.status).toBe(200);
    expect(res.body.embedUrl).toBe("https://player.twitch.tv/?channel=nightshift&parent=live.example.com");
  });

  test("without --public-url, Twitch's parent is the address the server listens on", async () => {
    const local = await startTestApp();
    try {
      const res = await (
        await loginAsAdmin(local)
      ).put("/api/admin/stream-source", { kind: "embed", embedUrl: "https://twitch.tv/nightshift" }, { host: "evil.example", origin: "http://evil.example" });
      expect(res.body.embedUrl).toBe("https://player.twitch.tv/?channel=nightshift&parent=127.0.0.1");
    } finally {
      await local.close();
    }
  });

  test.each([
    [
      "a YouTube channel handle",
      "https://www.youtube.com/@nightshift",
      "That YouTube link is not a video. Paste the live video's link (https://www.youtube.com/watch?v=…) or its embed address (https://www.youtube.com/embed/…).",
    ],
    [
      "Twitch's directory",
      "https://www.twitch.tv/directory",
      "That Twitch link is not a channel or a video. Paste the channel's link (https://www.twitch.tv/<channel>) or its player (https://player.twitch.tv/?channel=<channel>).",
    ],
    [
      "a Twitch player naming no channel",
      "https://player.twitch.tv/?autoplay=true",
      "That Twitch link is not a channel or a video. Paste the channel's link (https://www.twitch.tv/<channel>) or its player (https://player.twitch.tv/?channel=<channel>).",
    ],
    [
      "a Vimeo showcase page",
      "https://vimeo.com/showcase",
      "That Vimeo link is not a video or an event. Paste the video's link (https://vimeo.com/<number>) or its player (https://player.vimeo.com/video/<number>).",
    ],
    [
      "a site's home page",
      "https://live.example.org",
      "That is a site's home page, not a player. Paste the player's embed address: for an Owncast server that is https://live.example.org/embed/video; other services show it under Share → Embed.",
    ],
  ])("refuses %s, saying what to paste, and keeps what was saved", async (_, link, message) => {
    expect((await save({ kind: "embed", embedUrl: "https://www.youtube.com/embed/dQw4w9WgXcQ" })).status).toBe(200);
    const res = await save({ kind: "embed", embedUrl: link });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, field: "embedUrl" });
    expect(await saved()).toBe("https://www.youtube.com/embed/dQw4w9WgXcQ");
  });

  test("the settings' embed URL is converted and refused the same way", async () => {
    const res = await admin.put("/api/admin/livestream-settings", { embedUrl: "https://youtu.be/dQw4w9WgXcQ" });
    expect(res.status).toBe(200);
    expect(res.body.embedUrl).toBe("https://www.youtube.com/embed/dQw4w9WgXcQ");
    const refused = await admin.put("/api/admin/livestream-settings", { embedUrl: "https://vimeo.com/showcase" });
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe("embedUrl");
  });
});
