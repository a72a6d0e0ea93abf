/**
 * Recordings in an S3-compatible bucket (a local s3rver): the instance that has the publisher writes the
 * session there, and an instance of the same cluster that recorded nothing serves the replay from it; the
 * download and the delete work on the bucket too.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ingestWithKey, loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import { startTestRedis, type TestRedis } from "../support/redis.ts";
import { startTestS3, type TestS3 } from "../support/s3.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";
import { publish } from "../support/rtmp.ts";
import { mediaDir, mediaToolsMissing, probeFrames } from "../support/media/media-tools.ts";

const redis: TestRedis | null = await startTestRedis();
const postgres = await postgresAvailable();
const ready = redis !== null && postgres && mediaToolsMissing === null;
if (!ready) console.warn(`replay from S3 across a cluster skipped: ${redis ? "" : "no redis-server; "}${postgres ? "" : "no PostgreSQL; "}${mediaToolsMissing ?? ""}`);

let s3: TestS3 | null = null;
let db: TestDatabase | null = null;
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps.splice(0)) await app.close().catch(() => {});
  await db?.drop().catch(() => {});
  await s3?.close();
  await redis?.stop();
});

const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

describe.skipIf(!ready)("recordings in a bucket, across a cluster", () => {
  test("recorded by the publisher's instance, replayed by another from the bucket", async () => {
    s3 = await startTestS3();
    db = await createTestDatabase("dreadcast_replay_s3");
    for (const name of ["alpha", "beta"]) apps.push(await startTestApp({ databaseUrl: db.url, redisUrl: redis!.url, instanceName: name, ...s3.config("night") }));
    const [alpha, beta] = apps as [TestApp, TestApp];
    const admin = await loginAsAdmin(alpha);
    expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
    const { streamKey } = await ingestWithKey(admin);
    // OBS publishes to alpha's RTMP port.
    const obs = publish(`rtmp://127.0.0.1:${alpha.ctx.ingest.ports!.rtmp}/live/${streamKey}`, { seconds: 5 });
    expect((await obs.done).code).toBe(0);
    await eventually(async () => ((await admin.get("/api/admin/recordings")).body.recordings[0]?.state === "complete" ? true : null), 10_000, "the recording closed");
    const rec = (await admin.get("/api/admin/recordings")).body.recordings[0];
    const listed = await s3.client.list({ prefix: "night/" });
    expect(listed.contents!.length).toBe(rec.segments + 1);
    expect((await admin.get("/api/admin/recordings")).body.freeBytes).toBeNull();

    // The night is over; a viewer on beta (which recorded nothing) replays it from the bucket.
    expect((await admin.post("/api/admin/event/end", {})).status).toBe(200);
    const viewer = beta.client();
    const { accessCode } = await buyDemoCode(viewer);
    expect((await enter(viewer, accessCode, "Mara")).status).toBe(200);
    const playback = await eventually(
      async () => {
        const p = (await viewer.get("/api/stream/playback")).body;
        return p.kind === "replay" ? p : null;
      },
      5_000,
      "the replay on beta",
    );
    const playlist = await (await fetch(beta.url + playback.url, { headers: { cookie: cookieOf(viewer) } })).text();
    const names = [/URI="([^"]+)"/.exec(playlist)![1]!, ...playlist.split("\n").filter((l) => l && !l.startsWith("#"))];
    const parts: Uint8Array[] = [];
    for (const name of names) {
      const res = await fetch(`${beta.url}/api/stream/replay/${name}`, { headers: { cookie: cookieOf(viewer) } });
      expect(res.status).toBe(200);
      parts.push(new Uint8Array(await res.arrayBuffer()));
    }
    const dir = mediaDir();
    const file = join(dir, "from-bucket.mp4");
    writeFileSync(file, Buffer.concat(parts));
    expect(probeFrames(file).errors).toBe("");

    // The download from beta, and the delete that empties the bucket's folder.
    const betaAdmin = await loginAsAdmin(beta);
    const download = await fetch(`${beta.url}/api/admin/recordings/${rec.id}.mp4`, { headers: { cookie: cookieOf(betaAdmin) } });
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    expect((await betaAdmin.request("DELETE", `/api/admin/recordings/${rec.id}`)).status).toBe(200);
    expect((await s3.client.list({ prefix: "night/" })).contents ?? []).toEqual([]);
  }, 60_000);
});
