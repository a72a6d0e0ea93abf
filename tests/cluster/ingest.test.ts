/**
 * The built-in ingest across a cluster: FFmpeg publishes (as OBS does) to one instance, a process of its own;
 * viewers on the other instances watch the same LL-HLS through their own instance, which fetches each file
 * from the publishing one once over the internal path; a second publisher anywhere is refused; the internal
 * path answers nobody without the secret; and when the publishing instance is SIGKILLed, FFmpeg's
 * republish lands on another instance at once and the viewers' stream comes back there and everywhere; a key
 * rotated on any instance drops the publisher wherever it is. Two publishers taken while Redis was away come
 * down to one once it is back, and every instance then serves that one.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import net from "node:net";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clusterNamespace } from "../../src/cluster/redis-cluster.ts";
import { IngestMirror, INTERNAL_HEADER, INTERNAL_PREFIX, parseLeader, PUBLISHER_LEASE } from "../../src/modules/ingest/mirror.ts";
import { ingestWithKey, loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { startInstance, type InstanceProcess } from "../support/server.ts";
import { eventually } from "../support/eventually.ts";
import { publish, type Publisher } from "../support/rtmp.ts";
import { mediaDir, mediaToolsMissing, probeFrames } from "../support/media/media-tools.ts";
import { createTestDatabase, postgresAvailable } from "../support/postgres.ts";
import { freePort } from "../support/free-port.mjs";
import { startTestRedis, type TestRedis, CLUSTER_SECRET_KEY } from "../support/redis.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";

const redis: TestRedis | null = mediaToolsMissing ? null : await startTestRedis();
const postgres = await postgresAvailable();
const missing = [mediaToolsMissing, redis || mediaToolsMissing ? null : "no redis-server binary", postgres ? null : "no PostgreSQL server answers"].filter(Boolean);
if (missing.length) console.log(`SKIPPED: the built-in ingest across a cluster (${missing.join("; ")})`);

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
  await redis?.stop();
});

const LIVE = "/api/stream/live/";
const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
const get = (base: string, client: TestClient | null, path: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { headers: { ...(client ? { cookie: cookieOf(client) } : {}), ...headers } });

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

async function viewerOn(app: TestApp, name: string): Promise<TestClient> {
  const client = app.client();
  const { accessCode } = await buyDemoCode(client);
  expect((await enter(client, accessCode, name)).status).toBe(200);
  return client;
}

/** The init segment and the segments of the viewer's playlist on `base`, fetched there with their cookie, as ffprobe decodes them. */
async function watched(base: string, client: TestClient, dir: string, label: string, minSegments = 2) {
  const playlist = await eventually(
    async () => {
      const res = await get(base, client, `${LIVE}stream.m3u8`);
      const text = res.status === 200 ? await res.text() : "";
      return text.split("\n").filter((l) => l.startsWith("seg-")).length >= minSegments && text;
    },
    20_000,
    `${minSegments} segments on ${label}`,
  );
  const init = playlist.match(/#EXT-X-MAP:URI="([^"]+)"/)![1]!;
  // Segments after the last discontinuity: one publisher's run, decodable as one file.
  const run = playlist.slice(playlist.lastIndexOf("#EXT-X-DISCONTINUITY") + 1);
  const segments = run.split("\n").filter((l) => l.startsWith("seg-"));
  const bytes = await Promise.all(
    [init, ...segments].map(async (name) => {
      const res = await get(base, client, LIVE + name);
      expect(`${name} ${res.status}`).toBe(`${name} 200`);
      return new Uint8Array(await res.arrayBuffer());
    }),
  );
  const path = join(dir, `${label}.mp4`);
  writeFileSync(path, Buffer.concat(bytes));
  const { frames, errors } = probeFrames(path);
  expect(errors).toBe("");
  expect(frames.filter((f) => f.media_type === "video").length).toBeGreaterThanOrEqual(segments.length * 25);
  expect(frames.some((f) => f.media_type === "audio")).toBe(true);
  return playlist;
}

describe.skipIf(missing.length > 0)("the built-in ingest across a cluster", () => {
  test("publish to one instance, watch on another, a second publisher refused, the internal path closed, the publishing instance killed", async () => {
    const dir = mediaDir();
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const db = await createTestDatabase("dreadcast_ingest_cluster");
    cleanup.push(() => db.drop());
    const publishers: Publisher[] = [];
    cleanup.push(async () => {
      for (const p of publishers) p.child.kill(9);
    });
    const obs = (port: number, key: string, seconds: number) => {
      const p = publish(`rtmp://127.0.0.1:${port}/live/${key}`, { seconds });
      publishers.push(p);
      return p;
    };

    // A: a process of its own (to be SIGKILLed), migrating the database first; B and C in this process.
    const rtmpA = await freePort();
    const a: InstanceProcess = await startInstance("ingest-a", [
      "--database-url",
      db.url,
      "--redis-url",
      redis!.url,
      "--secret-key",
      CLUSTER_SECRET_KEY,
      "--rtmp-port",
      String(rtmpA),
    ]);
    cleanup.push(() => a.kill());
    const b = await startTestApp({ databaseUrl: db.url, redisUrl: redis!.url, instanceName: "ingest-b" });
    cleanup.push(() => b.close());
    const c = await startTestApp({ databaseUrl: db.url, redisUrl: redis!.url, instanceName: "ingest-c" });
    cleanup.push(() => c.close());

    // Files fetched from A's internal path by this process (B and C), counted by name.
    const upstream = new Map<string, number>();
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.startsWith(a.url + INTERNAL_PREFIX)) {
        const name = url.slice((a.url + INTERNAL_PREFIX).length);
        upstream.set(name, (upstream.get(name) ?? 0) + 1);
      }
      return realFetch(input, init);
    }) as typeof fetch;
    cleanup.push(async () => {
      globalThis.fetch = realFetch;
    });

    const admin = await loginAsAdmin(b);
    expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
    const { streamKey } = await ingestWithKey(admin);
    expect(streamKey).toMatch(/^[0-9a-f]{40}$/);
    // A opens its RTMP port when told of the save.
    await eventually(() => listening(rtmpA), 10_000, "A's RTMP port open");
    const rtmpB = b.ctx.ingest.ports!.rtmp;

    const viewerB = await viewerOn(b, "WatcherB");
    expect((await viewerB.get("/api/stream/playback")).body).toMatchObject({ kind: "ingest", url: "" });

    // OBS publishes to A; the key (its hash in the shared database) is accepted there.
    const first = obs(rtmpA, streamKey, 60);
    const leader = await eventually(
      async () => {
        const client = new RedisClient(redis!.url);
        try {
          return parseLeader(await client.get(`${clusterNamespace(db.url)}:claim:${PUBLISHER_LEASE}`));
        } finally {
          client.close();
        }
      },
      10_000,
      "A holding the publisher",
    );
    expect(leader.instance).toBe("ingest-a");
    expect(leader.url).toBe(a.url);

    // B's viewer is told there is a stream and plays it through B.
    expect(await eventually(async () => (await viewerB.get("/api/stream/playback")).body.url, 15_000, "playback on B")).toBe(`${LIVE}index.m3u8`);
    expect(b.ctx.ingest.source).toBeInstanceOf(IngestMirror);
    const variant = await get(b.url, viewerB, `${LIVE}index.m3u8`);
    expect(variant.status).toBe(200);
    expect(await variant.text()).toContain("RESOLUTION=640x360");
    const media = await (await get(b.url, viewerB, `${LIVE}stream.m3u8`)).text();
    expect(media).toContain("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES");
    // The hinted part and the blocking reload, asked by three viewers' players at once: answered when it is
    // ready, and fetched from A once.
    const hint = /PRELOAD-HINT:TYPE=PART,URI="(part-(\d+)-(\d+)\.m4s)"/.exec(media)!;
    const reload = `${LIVE}stream.m3u8?_HLS_msn=${hint[2]}&_HLS_part=${hint[3]}`;
    const asked = performance.now();
    const answers = await Promise.all([1, 2, 3].flatMap(() => [get(b.url, viewerB, LIVE + hint[1]), get(b.url, viewerB, reload)]));
    expect(performance.now() - asked).toBeLessThan(2000);
    for (const res of answers) expect(res.status).toBe(200);
    const bodies = await Promise.all(answers.map((res) => res.arrayBuffer()));
    expect(new Set(bodies.filter((_, i) => i % 2 === 0).map((body) => Buffer.from(body).toString("base64"))).size).toBe(1);
    expect(new TextDecoder().decode(bodies[1])).toContain(`URI="${hint[1]}"`);
    expect(upstream.get(hint[1]!)).toBe(1);
    expect(upstream.get(`stream.m3u8?_HLS_msn=${hint[2]}&_HLS_part=${hint[3]}`)).toBe(1);

    // What B's viewer fetched through B decodes; every file came from A once.
    await watched(b.url, viewerB, dir, "b-from-a");
    for (const [name, count] of upstream) if (!name.startsWith("stream.m3u8") && !name.startsWith("index")) expect(`${name} ${count}`).toBe(`${name} 1`);

    // The admin's panel on B says the stream is live, on A, with the figures A measures of the publisher.
    const panel = (await admin.get("/api/admin/ingest")).body;
    expect(panel.live).toBe(true);
    expect(panel.warnings.join(" ")).toContain("OBS publishes to the instance ingest-a.");
    expect(panel.publisher).toMatchObject({ video: { codec: "H.264", width: 640, height: 360 }, audio: { codec: "AAC", sampleRate: 48000 } });
    // The figures are the internal path's, which no viewer (nor anyone without A's secret) reads.
    expect((await fetch(`${a.url}/internal/ingest/publisher.json`)).status).toBe(403);

    // A second publisher, on B, is refused while A's is live.
    const second = obs(rtmpB, streamKey, 3);
    expect((await second.done).code).not.toBe(0);
    expect(b.ctx.ingest.live).toBeNull();
    expect(first.child.exitCode).toBeNull();

    // The internal path: nothing without A's secret, nor with another, nor with a viewer's session; not on B's viewer routes.
    // Its part is one A holds now (the hinted one of earlier may have left A's window on a slow machine).
    const playlistNow = await (await get(a.url, null, `${INTERNAL_PREFIX}stream.m3u8`, { [INTERNAL_HEADER]: leader.secret })).text();
    const partNow = [...playlistNow.matchAll(/#EXT-X-PART:[^\n]*URI="(part-\d+-\d+\.m4s)"/g)].at(-1)![1]!;
    for (const path of [`${INTERNAL_PREFIX}stream.m3u8`, `${INTERNAL_PREFIX}index.m3u8`, `${INTERNAL_PREFIX}${partNow}`]) {
      expect(`${path} ${(await get(a.url, null, path)).status}`).toBe(`${path} 403`);
      expect(`${path} ${(await get(a.url, viewerB, path, { [INTERNAL_HEADER]: "x".repeat(32) })).status}`).toBe(`${path} 403`);
      expect(`${path} ${(await get(b.url, viewerB, path)).status}`).toBe(`${path} 403`);
      expect(`${path} ${(await get(a.url, null, path, { [INTERNAL_HEADER]: leader.secret })).status}`).toBe(`${path} 200`);
    }
    const around = await fetch(`${b.url}${LIVE}%2e%2e/%2e%2e/%2e%2e${INTERNAL_PREFIX}stream.m3u8`, { headers: { cookie: cookieOf(viewerB) } });
    expect(around.status).not.toBe(200);

    // A dies. FFmpeg (as OBS does) reconnects, through the balancer, to B: accepted within a few seconds.
    await a.kill(9);
    const killedAt = performance.now();
    let again: Publisher | null = null;
    await eventually(
      async () => {
        if (b.ctx.ingest.live) return true;
        if (again && again.child.exitCode === null) return false;
        again = obs(rtmpB, streamKey, 30);
        await Bun.sleep(300);
        return false;
      },
      8000,
      "the republish on B accepted",
    );
    expect(performance.now() - killedAt).toBeLessThan(4000);

    // B's viewer gets the stream again from B itself, and C's viewer through C (mirroring B now).
    await eventually(() => b.ctx.ingest.source === b.ctx.ingest.packager, 5000, "B serving its own packager");
    await watched(b.url, viewerB, dir, "b-own");
    expect((await viewerB.get("/api/stream/playback")).body.url).toBe(`${LIVE}index.m3u8`);
    const viewerC = await viewerOn(c, "WatcherC");
    expect(await eventually(async () => (await viewerC.get("/api/stream/playback")).body.url, 15_000, "playback on C")).toBe(`${LIVE}index.m3u8`);
    expect((c.ctx.ingest.source as IngestMirror).leader.instance).toBe("ingest-b");
    await watched(c.url, viewerC, dir, "c-from-b");

    // The key rotated on C drops the publisher on B.
    const adminC = c.client();
    for (const [name, value] of admin.cookies) adminC.cookies.set(name, value);
    const rotated = await adminC.post("/api/admin/ingest/rotate-key");
    expect(rotated.status).toBe(200);
    await eventually(() => b.ctx.ingest.live === null, 5000, "B's publisher dropped");
    expect(await b.ctx.ingest.keys.matches(streamKey)).toBe(false);
  }, 90_000);

  test("two publishers while Redis is away: each instance takes its own, then one is dropped and everyone watches the other", async () => {
    const dir = mediaDir();
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const db = await createTestDatabase("dreadcast_ingest_outage");
    cleanup.push(() => db.drop());
    const publishers: Publisher[] = [];
    cleanup.push(async () => {
      for (const p of publishers) p.child.kill(9);
    });
    const b = await startTestApp({ databaseUrl: db.url, redisUrl: redis!.url, instanceName: "outage-b" });
    cleanup.push(() => b.close());
    const c = await startTestApp({ databaseUrl: db.url, redisUrl: redis!.url, instanceName: "outage-c" });
    cleanup.push(() => c.close());
    const admin = await loginAsAdmin(b);
    expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
    const { streamKey } = await ingestWithKey(admin);
    await eventually(() => c.ctx.ingest.ports !== null, 10_000, "C's RTMP port open");

    // Redis goes away; two encoders publish, one to each instance: each instance, alone, takes its own.
    await redis!.kill();
    await eventually(() => b.ctx.cluster.status().redis === "down" && c.ctx.cluster.status().redis === "down", 5000, "Redis seen gone");
    const onB = publish(`rtmp://127.0.0.1:${b.ctx.ingest.ports!.rtmp}/live/${streamKey}`, { seconds: 45 });
    const onC = publish(`rtmp://127.0.0.1:${c.ctx.ingest.ports!.rtmp}/live/${streamKey}`, { seconds: 45 });
    publishers.push(onB, onC);
    await eventually(() => b.ctx.ingest.live !== null && c.ctx.ingest.live !== null, 10_000, "both publishers taken while Redis is away");

    // Redis is back: within a few renewals of the lease one instance keeps its publisher, the other drops its own.
    await redis!.start();
    await eventually(() => b.ctx.cluster.status().redis === "up" && c.ctx.cluster.status().redis === "up", 8000, "Redis back");
    const kept = await eventually(
      () => {
        const [liveB, liveC] = [b.ctx.ingest.live !== null, c.ctx.ingest.live !== null];
        return liveB !== liveC ? (liveB ? "b" : "c") : null;
      },
      10_000,
      "one publisher left in the cluster",
    );
    const [winner, loser, dropped, goesOn] = kept === "b" ? [b, c, onC, onB] : [c, b, onB, onC];
    expect((await dropped.done).code).not.toBe(0);
    expect(goesOn.child.exitCode).toBeNull();
    await Bun.sleep(2500);
    expect(loser.ctx.ingest.live).toBeNull();
    expect(winner.ctx.ingest.live).not.toBeNull();

    // Everyone watches the one stream: the loser's viewers through their own instance, from the winner.
    const viewer = await viewerOn(loser, "AfterTheOutage");
    await eventually(
      () => loser.ctx.ingest.source instanceof IngestMirror && (loser.ctx.ingest.source as IngestMirror).leader.instance === winner.ctx.cluster.name,
      15_000,
      "the loser mirroring the winner",
    );
    expect(await eventually(async () => (await viewer.get("/api/stream/playback")).body.url, 15_000, "playback on the loser")).toBe(`${LIVE}index.m3u8`);
    await watched(loser.url, viewer, dir, "after-the-outage");
  }, 90_000);
});
