import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { FIXTURE_DIR, startHlsOrigin, type HlsOrigin } from "../support/hls-origin.mjs";
import { enter, viewerSession } from "../support/viewer.ts";
import { eventually } from "../support/eventually.ts";

let app: TestApp;
let admin: TestClient;
const origins: HlsOrigin[] = [];

beforeAll(async () => {
  // The origin runs on this machine, as an origin beside the server does.
  app = await startTestApp({ allowPrivateOrigins: true });
  admin = await loginAsAdmin(app);
});
afterEach(async () => {
  await Promise.all(origins.splice(0).map((o) => o.stop()));
});
afterAll(() => app.close());

async function relayFrom(options?: Parameters<typeof startHlsOrigin>[0]): Promise<HlsOrigin> {
  const origin = await startHlsOrigin(options);
  origins.push(origin);
  const res = await admin.put("/api/admin/stream-source", { kind: "hls", originUrl: origin.playlistUrl });
  expect(res.status).toBe(200);
  return origin;
}

async function newViewer(name: string): Promise<{ client: TestClient; codeId: number }> {
  const client = app.client();
  const code = await app.ctx.access.issueAccessCode("SKP");
  expect((await enter(client, code.code, name)).status).toBe(200);
  return { client, codeId: code.id };
}

/** A GET written by hand on a socket, so the path reaches the server exactly as given; resolves to the status. */
function rawGet(path: string, cookie: string): Promise<number> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`));
    let head = "";
    socket.on("data", (chunk) => (head += chunk.toString("latin1")));
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    socket.on("error", reject);
  });
}

const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const getRaw = (client: TestClient, path: string) => fetch(app.url + path, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });

describe("the HLS relay", () => {
  test("a viewer gets the playlist with every URI on our path, and each segment byte for byte", async () => {
    const origin = await relayFrom();
    const { client } = await newViewer("Relay1");
    const playback = await client.get("/api/stream/playback");
    expect(playback.body.url).toBe("/api/stream/hls/stream.m3u8");
    const playlist = await getRaw(client, playback.body.url);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const text = await playlist.text();
    const uris = text.split("\n").filter((l) => l && !l.startsWith("#"));
    expect(uris).toEqual(origin.segments.map((s) => `/api/stream/hls/${s}`));
    for (const [i, uri] of uris.entries()) {
      const segment = await getRaw(client, uri);
      expect(segment.status).toBe(200);
      expect(segment.headers.get("content-type")).toBe("video/mp2t");
      expect(await bytes(segment)).toEqual(new Uint8Array(readFileSync(join(FIXTURE_DIR, origin.segments[i]!))));
    }
  });

  test("a segment under the Range header: one range of bytes is a 206 of it, any other header the whole segment, past its end a 416", async () => {
    const origin = await relayFrom();
    // Let in through the database: the entry's rate limit is this file's other viewers'.
    const { cookie } = await viewerSession(app.ctx, "Ranges");
    const uri = `/api/stream/hls/${origin.segments[0]!}`;
    const segment = new Uint8Array(readFileSync(join(FIXTURE_DIR, origin.segments[0]!)));
    const size = segment.length;
    const cases: [range: string, status: number, contentRange: string, body: Uint8Array][] = [
      ["bytes=5-9", 206, `bytes 5-9/${size}`, segment.slice(5, 10)],
      ["bytes=-4", 206, `bytes ${size - 4}-${size - 1}/${size}`, segment.slice(size - 4)],
      // The whole segment, with the whole file as its range, as without a Range header.
      ["xbytes=5-9", 200, `bytes 0-${size - 1}/${size}`, segment],
      ["bytes=5-9 junk", 200, `bytes 0-${size - 1}/${size}`, segment],
      ["bytes=0-0,5-10", 200, `bytes 0-${size - 1}/${size}`, segment],
      [`bytes=${size}-`, 416, `bytes */${size}`, new Uint8Array()],
    ];
    for (const [range, status, contentRange, body] of cases) {
      const res = await fetch(app.url + uri, { headers: { cookie, range } });
      const got = Buffer.from(await res.arrayBuffer());
      expect({ range, status: res.status, contentRange: res.headers.get("content-range"), same: got.equals(body) }).toEqual({ range, status, contentRange, same: true });
    }
  });

  test("a visitor, a banned, a kicked and a revoked viewer are refused the playlist and the segments", async () => {
    await relayFrom();
    const paths = ["/api/stream/hls/stream.m3u8", "/api/stream/hls/segment-0.ts"];
    const banned = await newViewer("Banned2");
    const kicked = await newViewer("Kicked2");
    const revoked = await newViewer("Revoked2");
    for (const path of paths) expect((await getRaw(banned.client, path)).status).toBe(200);
    await app.ctx.store.run("INSERT INTO banned_users (username, created_at) VALUES ('Banned2', 0)");
    await app.ctx.chat.kick({ username: "Kicked2", userId: null, accessCodeId: null });
    expect((await admin.post(`/api/admin/access-codes/${revoked.codeId}/revoke`)).status).toBe(200);
    for (const path of paths) {
      expect((await fetch(app.url + path)).status).toBe(401);
      expect((await getRaw(banned.client, path)).status).toBe(403);
      expect((await getRaw(kicked.client, path)).status).toBe(403);
      // Revoking ends the code's sessions: the cookie no longer lets anyone in.
      expect((await getRaw(revoked.client, path)).status).toBe(401);
    }
  });

  test("a session that expires while its viewer watches is refused from that moment, with nothing written meanwhile", async () => {
    await relayFrom();
    const { client } = await newViewer("Expiring");
    await app.ctx.store.run("UPDATE viewer_sessions SET expires_at = ? WHERE id = ?", Date.now() + 400, client.cookies.get("dreadcast_viewer")!);
    expect((await getRaw(client, "/api/stream/hls/stream.m3u8")).status).toBe(200);
    await Bun.sleep(500);
    expect((await getRaw(client, "/api/stream/hls/stream.m3u8")).status).toBe(401);
  });

  test("50 viewers at once cost the origin one request per segment", async () => {
    const origin = await relayFrom({ segmentDelayMs: 50 });
    const viewers = await Promise.all(Array.from({ length: 50 }, (_, i) => newViewer(`Crowd${i}`)));
    await Promise.all(
      viewers.map(async ({ client }) => {
        const text = await (await getRaw(client, "/api/stream/hls/stream.m3u8")).text();
        for (const uri of text.split("\n").filter((l) => l && !l.startsWith("#"))) expect((await getRaw(client, uri)).status).toBe(200);
      }),
    );
    for (const segment of origin.segments) expect(origin.count(`/hls/${segment}`)).toBe(1);
    expect(origin.count("/hls/stream.m3u8")).toBeLessThanOrEqual(2);
  });

  test("URIs leading off the origin are dropped and never fetched", async () => {
    const elsewhere = await startHlsOrigin();
    origins.push(elsewhere);
    const playlistText = [
      "#EXTM3U",
      "#EXT-X-TARGETDURATION:2",
      `#EXT-X-KEY:METHOD=AES-128,URI="${elsewhere.origin}/hls/key.key"`,
      "#EXTINF:2.0,",
      "segment-0.ts",
      "#EXTINF:2.0,",
      `${elsewhere.origin}/hls/segment-1.ts`,
      "#EXTINF:2.0,",
      "../../secret/segment-2.ts",
      "#EXTINF:2.0,",
      "//evil.example/hls/segment-2.ts",
      "#EXTINF:2.0,",
      "file:///etc/passwd",
      "#EXTINF:2.0,",
      "segment-2.ts",
    ].join("\n");
    await relayFrom({ playlistText });
    const { client } = await newViewer("Ssrf1");
    const text = await (await getRaw(client, "/api/stream/hls/stream.m3u8")).text();
    expect(text).toBe(["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXTINF:2.0,", "/api/stream/hls/segment-0.ts", "#EXTINF:2.0,", "/api/stream/hls/segment-2.ts", ""].join("\n"));
    expect(elsewhere.requests.size).toBe(0);
  });

  test("paths that climb out of the playlist's directory or name no stream file are refused", async () => {
    const origin = await relayFrom();
    const { client } = await newViewer("Climber");
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    // Sent as raw HTTP: a URL parser would already have folded the dots away.
    for (const path of ["../../etc/passwd.ts", "%2e%2e/%2e%2e/etc/passwd.ts", "%2fetc%2fx.ts", "a//b.ts", "%ZZ.ts", "a\\..\\b.ts"]) {
      const status = await rawGet(`/api/stream/hls/${path}`, cookie);
      expect(`${path} ${status}`).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} (400|404)$`));
    }
    expect(await rawGet("/api/stream/hls/admin.json", cookie)).toBe(404);
    // What the server's own URL parsing folds back inside the directory may reach the origin; nothing else does.
    for (const fetched of origin.requests.keys()) expect(fetched).toMatch(/^\/hls\/[a-z0-9.-]+$/);
    expect(origin.count("/hls/admin.json")).toBe(0);
  });

  test("an origin that is down answers 503 with Retry-After, and the relay is back when the origin is", async () => {
    const origin = await relayFrom();
    await origin.stop();
    const { client } = await newViewer("Patient");
    // The replay's recorder may have read the playlist through the relay as the source was saved: that
    // copy is served while it is fresh (a second), then the origin's absence is told.
    const down = await eventually(
      async () => {
        const answer = await getRaw(client, "/api/stream/hls/stream.m3u8");
        return answer.status === 200 ? null : answer;
      },
      3000,
      "the relay telling the origin is down",
    );
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("2");
    expect(((await down.json()) as { error: string }).error).toBe("The stream cannot be reached right now. Trying again shortly.");
    const failures = await Promise.all(Array.from({ length: 20 }, () => getRaw(client, "/api/stream/hls/segment-0.ts")));
    expect(failures.map((r) => r.status)).toEqual(Array(20).fill(503));
    expect((await fetch(app.url + "/healthz")).status).toBe(200);
  });

  test("no relay while another kind is the source", async () => {
    await admin.put("/api/admin/stream-source", { kind: "embed", embedUrl: "" });
    const { client } = await newViewer("NoRelay");
    expect((await getRaw(client, "/api/stream/hls/stream.m3u8")).status).toBe(404);
  });
});

describe("Livestream active switched off", () => {
  test("a viewer's kept address plays nothing within a second (503, retry later); the admin's preview still plays", async () => {
    await relayFrom();
    const { client } = await newViewer("OffAir1");
    const playback = await client.get("/api/stream/playback");
    expect((await getRaw(client, playback.body.url)).status).toBe(200);

    expect((await admin.put("/api/admin/livestream-settings", { isActive: false })).status).toBe(200);
    try {
      await Bun.sleep(1100);
      expect((await client.get("/api/stream/playback")).body.url).toBe("");
      const kept = await getRaw(client, playback.body.url);
      expect(kept.status).toBe(503);
      expect(kept.headers.get("retry-after")).toBe("10");
      expect(((await kept.json()) as { error: string }).error).toBe("The livestream is off the air right now.");
      expect((await getRaw(admin, playback.body.url)).status).toBe(200);
    } finally {
      expect((await admin.put("/api/admin/livestream-settings", { isActive: true })).status).toBe(200);
    }
    await Bun.sleep(1100);
    expect((await getRaw(client, playback.body.url)).status).toBe(200);
  });
});
