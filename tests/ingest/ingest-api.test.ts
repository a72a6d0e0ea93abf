/**
 * The built-in ingest through the app: FFmpeg publishing the way OBS does to the app's RTMP port, viewers
 * with bought passes watching its LL-HLS through the real HTTP routes with their session cookies (ffprobe
 * decoding what they fetched), the session gate, the stream key, one publisher at a time, and the
 * listener's life with the stream source kind.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OFFLINE_AFTER_MS } from "../../src/modules/ingest/service.ts";
import { ingestWithKey, loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { recordingLogger } from "../support/logger.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";
import { publish, type Publisher } from "../support/rtmp.ts";
import { mediaDir, mediaToolsMissing, probeFrames } from "../support/media/media-tools.ts";
import { OPENSSL, selfSignedCertificate } from "../support/certificate.ts";

if (mediaToolsMissing) console.log(`SKIPPED: the built-in ingest through the app (${mediaToolsMissing})`);

let app: TestApp;
let admin: TestClient;
let dir = "";
const log: string[] = [];
const publishers: Publisher[] = [];

beforeAll(async () => {
  if (mediaToolsMissing) return;
  dir = mediaDir();
  app = await startTestApp({}, { log: recordingLogger(log) });
  admin = await loginAsAdmin(app);
  expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
});
afterEach(async () => {
  for (const p of publishers.splice(0)) p.child.kill();
  if (app) await eventually(() => app.ctx.ingest.live === null, 5000, "the publisher gone");
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function ingest(): Promise<{ rtmpUrl: string; streamKey: string; [k: string]: any }> {
  return ingestWithKey(admin);
}

function obs(url: string, seconds = 30): Publisher {
  const p = publish(url, { seconds });
  publishers.push(p);
  return p;
}

async function newViewer(name: string): Promise<{ client: TestClient; paymentIntentId: string }> {
  const client = app.client();
  const { accessCode, paymentIntentId } = await buyDemoCode(client);
  expect((await enter(client, accessCode, name)).status).toBe(200);
  return { client, paymentIntentId };
}

const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
const get = (client: TestClient | null, path: string) => fetch(app.url + path, client ? { headers: { cookie: cookieOf(client) } } : {});
const uris = (playlist: string) => [...playlist.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!).concat(playlist.split("\n").filter((l) => l && !l.startsWith("#")));
const LIVE = "/api/stream/live/";

/** Waits until the viewer's playback names a playlist, and returns it. */
async function playbackUrl(client: TestClient): Promise<string> {
  return eventually(async () => (await client.get("/api/stream/playback")).body.url as string, 15_000, "a playback address");
}

describe.skipIf(mediaToolsMissing !== null)("the built-in ingest through the app", () => {
  test("OBS's publish is watched by a paying viewer: playback, playlists, a blocking reload, init and parts that ffprobe decodes; offline when it stops, back when it returns", async () => {
    const { rtmpUrl, streamKey, rtmpsUrl } = await ingest();
    expect(rtmpUrl).toBe(`rtmp://127.0.0.1:${app.ctx.ingest.ports!.rtmp}/live`);
    expect(rtmpsUrl).toBeNull();
    expect(streamKey).toMatch(/^[0-9a-f]{40}$/);
    const { client } = await newViewer("Watcher1");
    const before = (await client.get("/api/stream/playback")).body;
    expect(before).toMatchObject({ kind: "ingest", url: "" });
    expect(Date.parse(before.expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);

    const publisher = obs(`${rtmpUrl}/${streamKey}`, 6);
    const url = await playbackUrl(client);
    expect(url).toBe(`${LIVE}index.m3u8`);
    const playback = (await client.get("/api/stream/playback")).body;
    expect(playback.watermark).toContain("Watcher1");

    const multivariant = await get(client, url);
    expect(multivariant.status).toBe(200);
    expect(multivariant.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const variant = await multivariant.text();
    expect(variant).toContain('CODECS="avc1.');
    expect(variant).toContain("RESOLUTION=640x360");
    expect(uris(variant)).toEqual(["stream.m3u8"]);

    const media = await get(client, `${LIVE}stream.m3u8`);
    expect(media.status).toBe(200);
    expect(media.headers.get("cache-control")).toBe("no-cache");
    const text = await media.text();
    expect(text).toContain("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES");
    const hint = /PRELOAD-HINT:TYPE=PART,URI="part-(\d+)-(\d+)\.m4s"/.exec(text)!;
    // The hinted part, asked for before it exists, is answered once it is complete; so is the blocking reload.
    const asked = performance.now();
    const [part, reload] = await Promise.all([get(client, `${LIVE}part-${hint[1]}-${hint[2]}.m4s`), get(client, `${LIVE}stream.m3u8?_HLS_msn=${hint[1]}&_HLS_part=${hint[2]}`)]);
    expect(performance.now() - asked).toBeLessThan(1500);
    expect(part.status).toBe(200);
    expect(part.headers.get("content-type")).toBe("video/iso.segment");
    expect((await part.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(reload.status).toBe(200);
    expect(await reload.text()).toContain(`URI="part-${hint[1]}-${hint[2]}.m4s"`);
    // Delta updates: asked for, answered (nothing to skip yet this early, so no EXT-X-SKIP); a made-up value is a 400.
    expect(text).toContain("CAN-SKIP-UNTIL=12");
    const delta = await get(client, `${LIVE}stream.m3u8?_HLS_skip=YES`);
    expect(delta.status).toBe(200);
    expect(await delta.text()).toContain("#EXTINF:");
    expect((await get(client, `${LIVE}stream.m3u8?_HLS_skip=maybe`)).status).toBe(400);

    const admins = await ingest();
    expect(admins).toMatchObject({
      live: true,
      publisher: { video: { codec: "H.264", width: 640, height: 360 }, audio: { codec: "AAC", sampleRate: 48000, channels: 2 } },
      warnings: [],
      refusals: [],
    });
    expect((await publisher.done).code).toBe(0);

    // Everything the viewer needs, fetched through the routes with their cookie, decodes.
    const final = await (await get(client, `${LIVE}stream.m3u8`)).text();
    const init = final.match(/#EXT-X-MAP:URI="([^"]+)"/)![1]!;
    const segments = final.split("\n").filter((l) => l.startsWith("seg-"));
    expect(segments.length).toBeGreaterThanOrEqual(3);
    const bytes = await Promise.all(
      [init, ...segments].map(async (name) => {
        const res = await get(client, LIVE + name);
        expect(res.status).toBe(200);
        return new Uint8Array(await res.arrayBuffer());
      }),
    );
    const path = join(dir, "watched.mp4");
    writeFileSync(path, Buffer.concat(bytes));
    const { frames, errors } = probeFrames(path);
    expect(errors).toBe("");
    expect(frames.filter((f) => f.media_type === "video").length).toBeGreaterThanOrEqual(segments.length * 25);
    expect(frames.some((f) => f.media_type === "audio")).toBe(true);

    // Gone: after the grace for a reconnect, playback says offline; a new publish brings it back by itself.
    await Bun.sleep(OFFLINE_AFTER_MS + 300);
    expect((await client.get("/api/stream/playback")).body.url).toBe("");
    obs(`${rtmpUrl}/${streamKey}`, 20);
    expect(await playbackUrl(client)).toBe(`${LIVE}index.m3u8`);
  }, 45_000);

  test("the gate: no cookie, a forged one, a refunded pass and a banned viewer are refused every playlist, init, segment and part at once", async () => {
    const { rtmpUrl, streamKey } = await ingest();
    obs(`${rtmpUrl}/${streamKey}`);
    const refunded = await newViewer("Refunded1");
    const banned = await newViewer("Banned1");
    const honest = await newViewer("Honest1");
    await playbackUrl(honest.client);
    await eventually(() => app.ctx.ingest.packager?.ready, 10_000, "a segment");
    const text = await (await get(honest.client, `${LIVE}stream.m3u8`)).text();
    const paths = [
      `${LIVE}index.m3u8`,
      `${LIVE}stream.m3u8`,
      LIVE + text.match(/#EXT-X-MAP:URI="([^"]+)"/)![1],
      LIVE + text.split("\n").find((l) => l.startsWith("seg-")),
      LIVE + /URI="(part-[^"]+)"/.exec(text)![1],
    ];
    for (const path of paths) {
      expect(`${path} ${(await get(honest.client, path)).status}`).toBe(`${path} 200`);
      expect(`${path} ${(await get(refunded.client, path)).status}`).toBe(`${path} 200`);
      expect(`${path} ${(await get(null, path)).status}`).toBe(`${path} 401`);
      const forged = await fetch(app.url + path, { headers: { cookie: "dreadcast_viewer=" + "0".repeat(64) } });
      expect(`${path} ${forged.status}`).toBe(`${path} 401`);
    }
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: refunded.paymentIntentId, expectedRefunded: 0 })).status).toBe(200);
    const users = (await admin.get("/api/admin/users")).body;
    const list = Array.isArray(users) ? users : users.users;
    const bannedId = list.find((u: { username: string }) => u.username === "Banned1").id;
    expect((await admin.post(`/api/admin/users/${bannedId}/ban`, { reason: "recording" })).status).toBe(200);
    for (const path of paths) {
      expect(`${path} ${(await get(refunded.client, path)).status}`).toBe(`${path} 401`);
      // The ban ends the viewer's sessions too: refused either way, from the very next request.
      expect(`${path} ${[401, 403].includes((await get(banned.client, path)).status)}`).toBe(`${path} true`);
      expect(`${path} ${(await get(honest.client, path)).status}`).toBe(`${path} 200`);
    }
    expect((await get(honest.client, `${LIVE}stream.m3u8?_HLS_msn=x`)).status).toBe(400);
    expect((await get(honest.client, `${LIVE}stream.m3u8?_HLS_msn=999999`)).status).toBe(400);
    expect((await get(honest.client, `${LIVE}seg-999999.m4s`)).status).toBe(404);
    expect((await get(honest.client, `${LIVE}../../api/admin/ingest`)).status).not.toBe(200);
    expect((await get(honest.client, `${LIVE}secret.txt`)).status).toBe(404);
  }, 45_000);

  test("a wrong key is refused and logged without the key; a second publisher is refused while the first is live", async () => {
    const { rtmpUrl, streamKey } = await ingest();
    const wrong = "f".repeat(40);
    const refused = obs(`${rtmpUrl}/${wrong}`, 3);
    expect((await refused.done).code).not.toBe(0);
    expect(app.ctx.ingest.live).toBeNull();
    expect(log.join("\n")).toContain("publish refused: wrong stream key");
    expect(log.join("\n")).not.toContain(wrong);

    const first = obs(`${rtmpUrl}/${streamKey}`);
    await eventually(() => app.ctx.ingest.live, 10_000, "the first publisher");
    const second = obs(`${rtmpUrl}/${streamKey}`, 3);
    expect((await second.done).code).not.toBe(0);
    expect(app.ctx.ingest.live).not.toBeNull();
    expect(first.child.exitCode).toBeNull();
    expect(log.join("\n")).not.toContain(streamKey);
    // The panel says when, from where and why; a retry within the minute is the same line, counted.
    expect((await obs(`${rtmpUrl}/${streamKey}`, 2).done).code).not.toBe(0);
    const { refusals } = await ingest();
    expect(refusals).toEqual([{ address: "127.0.0.1", reason: "another publisher is already live with this key", at: expect.any(String), lastAt: expect.any(String), count: 2 }]);
    expect(Date.parse(refusals[0].lastAt)).toBeGreaterThan(Date.parse(refusals[0].at));
  }, 45_000);

  test("rotating the key drops the live publisher and refuses the old key; the new one works", async () => {
    const { rtmpUrl, streamKey: old } = await ingest();
    const live = obs(`${rtmpUrl}/${old}`);
    await eventually(() => app.ctx.ingest.live, 10_000, "the publisher");
    const rotated = await admin.post("/api/admin/ingest/rotate-key");
    expect(rotated.status).toBe(200);
    expect(rotated.body.streamKey).toMatch(/^[0-9a-f]{40}$/);
    expect(rotated.body.streamKey).not.toBe(old);
    expect((await ingest()).streamKey).toBe(rotated.body.streamKey);
    expect((await live.done).code).not.toBe(0);
    expect(app.ctx.ingest.live).toBeNull();
    expect((await obs(`${rtmpUrl}/${old}`, 2).done).code).not.toBe(0);
    obs(`${rtmpUrl}/${rotated.body.streamKey}`);
    await eventually(() => app.ctx.ingest.live, 10_000, "a publisher with the new key");
    // Only the SHA-256 and the sealed key are in the database.
    const row = await app.ctx.store.get<{ key_hash: string; sealed: string }>("SELECT key_hash, sealed FROM ingest_key");
    expect(JSON.stringify(row)).not.toContain(rotated.body.streamKey);
    expect(row!.key_hash).toBe(new Bun.CryptoHasher("sha256").update(rotated.body.streamKey).digest("hex"));
  }, 45_000);

  test("choosing another kind closes the listener and drops the publisher; choosing ingest again opens it", async () => {
    const { rtmpUrl, streamKey } = await ingest();
    const live = obs(`${rtmpUrl}/${streamKey}`);
    await eventually(() => app.ctx.ingest.live, 10_000, "the publisher");
    const port = app.ctx.ingest.ports!.rtmp;
    expect((await admin.put("/api/admin/stream-source", { kind: "embed", embedUrl: "https://www.youtube.com/embed/abc" })).status).toBe(200);
    expect((await live.done).code).not.toBe(0);
    expect(app.ctx.ingest.ports).toBeNull();
    await expect(connectTo(port)).rejects.toThrow();
    expect((await ingest()).warnings).toContain("The stream source is not Built-in (OBS): the RTMP port opens once you choose it and save.");
    const { client } = await newViewer("Switched1");
    expect((await get(client, `${LIVE}stream.m3u8`)).status).toBe(404);
    expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
    expect(app.ctx.ingest.ports).not.toBeNull();
  }, 45_000);
});

function connectTo(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1" }, () => {
      socket.destroy();
      resolve();
    });
    socket.on("error", reject);
  });
}

describe("the RTMP port", () => {
  test("a port already taken refuses the ingest kind with a 409 that says so; the kind stays as it was", async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    const other = await startTestApp({ rtmpPort: taken });
    try {
      const owner = await loginAsAdmin(other);
      const res = await owner.put("/api/admin/stream-source", { kind: "ingest" });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(`The RTMP port ${taken} is already in use on this server: stop the program holding it, or start dreadcast with another --rtmp-port.`);
      expect((await owner.get("/api/admin/stream-source")).body.kind).toBe("embed");
      expect(other.ctx.ingest.ports).toBeNull();
    } finally {
      await other.close();
      holder.close();
    }
  });

  test.skipIf(mediaToolsMissing !== null || !OPENSSL)(
    "with --tls-cert and --tls-key, OBS publishes over RTMPS to the address the panel gives",
    async () => {
      const certDir = mediaDir();
      selfSignedCertificate(certDir, "localhost");
      const secure = await startTestApp({ tlsCert: join(certDir, "cert.pem"), tlsKey: join(certDir, "key.pem") });
      try {
        const owner = await loginAsAdmin(secure);
        expect((await owner.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
        const view = await ingestWithKey(owner);
        expect(view.rtmpsUrl).toBe(`rtmps://127.0.0.1:${secure.ctx.ingest.ports!.rtmps}/live`);
        const p = publish(`${view.rtmpsUrl}/${view.streamKey}`, { seconds: 2 });
        await eventually(() => secure.ctx.ingest.live, 10_000, "a publisher over TLS");
        expect((await p.done).code).toBe(0);
      } finally {
        await secure.close();
        rmSync(certDir, { recursive: true, force: true });
      }
    },
    30_000,
  );

  test("the admin's ingest view and its key need an admin; rotate-key and reveal-key refuse a cross-site request", async () => {
    const other = await startTestApp();
    try {
      expect((await other.client().get("/api/admin/ingest")).status).toBe(401);
      expect((await other.client().post("/api/admin/ingest/rotate-key")).status).toBe(401);
      expect((await other.client().post("/api/admin/ingest/reveal-key")).status).toBe(401);
      const owner = await loginAsAdmin(other);
      const before = (await ingestWithKey(owner)).streamKey;
      expect((await owner.post("/api/admin/ingest/rotate-key", undefined, { origin: "https://evil.example" })).status).toBe(403);
      expect((await owner.post("/api/admin/ingest/reveal-key", undefined, { origin: "https://evil.example" })).status).toBe(403);
      expect((await ingestWithKey(owner)).streamKey).toBe(before);
    } finally {
      await other.close();
    }
  });
});
