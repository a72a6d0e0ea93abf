/**
 * The recording when things go wrong: a disk that cannot be written stops the recording with its reason
 * (the live stream goes on), a server killed mid-publish leaves everything before the last complete
 * segment playable after it starts again, and a kept file deleted by hand is a 404 for that file alone.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/free-port.mjs";
import { ingestWithKey, loginAsAdmin, startTestApp, TestClient, type TestApp } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { recordingLogger } from "../support/logger.ts";
import { startServer } from "../support/server.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";
import { publish, type Publisher } from "../support/rtmp.ts";
import { mediaToolsMissing, probeFrames } from "../support/media/media-tools.ts";

if (mediaToolsMissing) console.log(`SKIPPED: the recording's faults (${mediaToolsMissing})`);

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe.skipIf(mediaToolsMissing !== null)("the recording when things go wrong", () => {
  test("a recordings directory that cannot be written: the recording fails with its reason, the live stream goes on", async () => {
    const log: string[] = [];
    const app: TestApp = await startTestApp({}, { log: recordingLogger(log) });
    cleanup.push(() => app.close());
    // Where the recordings go is a file: nothing can be made under it.
    writeFileSync(join(app.config.dataDir, "recordings"), "not a directory");
    const admin = await loginAsAdmin(app);
    expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
    const { rtmpUrl, streamKey } = await ingestWithKey(admin);
    const obs: Publisher = publish(`${rtmpUrl}/${streamKey}`, { seconds: 5 });
    cleanup.push(() => void obs.child.kill());
    const viewer = app.client();
    const { accessCode } = await buyDemoCode(viewer);
    await enter(viewer, accessCode, "Watcher");
    const url = await eventually(async () => (await viewer.get("/api/stream/playback")).body.url as string, 10_000, "the stream live");
    const failed = await eventually(
      async () => {
        const r = (await admin.get("/api/admin/recordings")).body.recordings[0];
        return r?.state === "failed" ? r : null;
      },
      10_000,
      "the recording failed",
    );
    expect(failed.failure).toStartWith("recording stopped: ");
    expect(log.some((l) => l.includes("recording stopped") && l.includes("the live stream goes on"))).toBe(true);
    // The stream itself plays on.
    const playlist = await fetch(app.url + url, { headers: { cookie: [...viewer.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
    expect(playlist.status).toBe(200);
    expect((await obs.done).code).toBe(0);
  }, 30_000);

  test("SIGKILL mid-publish: after the restart the recording is there, interrupted, and replays", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "dreadcast-crash-"));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const rtmpPort = await freePort();
    let server = await startServer(dataDir, ["--rtmp-port", String(rtmpPort)]);
    cleanup.push(() => server.kill("SIGTERM"));
    const admin = new TestClient(server.url);
    expect((await admin.post("/api/admin/create-first", { username: "warden", email: "w@example.com", password: "s3cret-pass" })).status).toBe(201);
    expect((await admin.post("/api/admin/login", { username: "warden", password: "s3cret-pass" })).status).toBe(200);
    expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
    const { streamKey } = await ingestWithKey(admin);
    const obs = publish(`rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`, { seconds: 20 });
    cleanup.push(() => void obs.child.kill());
    await eventually(async () => ((await admin.get("/api/admin/recordings")).body.recordings[0]?.segments >= 3 ? true : null), 15_000, "three segments recorded");
    await server.kill("SIGKILL");
    obs.child.kill();

    server = await startServer(dataDir, ["--rtmp-port", String(rtmpPort)]);
    const again = new TestClient(server.url);
    expect((await again.post("/api/admin/login", { username: "warden", password: "s3cret-pass" })).status).toBe(200);
    const [rec] = (await again.get("/api/admin/recordings")).body.recordings;
    expect(rec.state).toBe("interrupted");
    expect(rec.segments).toBeGreaterThanOrEqual(3);
    expect((await again.post("/api/admin/event/end", {})).status).toBe(200);
    // A pass holder replays it: every listed file is whole and decodes.
    const viewer = new TestClient(server.url);
    const { accessCode } = await buyDemoCode(viewer);
    expect((await enter(viewer, accessCode, "Mara")).status).toBe(200);
    const playback = (await viewer.get("/api/stream/playback")).body;
    expect(playback.kind).toBe("replay");
    const cookie = [...viewer.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const playlist = await (await fetch(server.url + playback.url, { headers: { cookie } })).text();
    const names = [/URI="([^"]+)"/.exec(playlist)![1]!, ...playlist.split("\n").filter((l) => l && !l.startsWith("#"))];
    const parts: Uint8Array[] = [];
    for (const name of names) parts.push(new Uint8Array(await (await fetch(`${server.url}/api/stream/replay/${name}`, { headers: { cookie } })).arrayBuffer()));
    const file = join(dataDir, "replayed.mp4");
    writeFileSync(file, Buffer.concat(parts));
    const probed = probeFrames(file);
    expect(probed.errors).toBe("");
    expect(probed.frames.filter((f) => f.media_type === "video").length).toBeGreaterThan(60);

    // A kept segment deleted by hand after it was served: a 404 for it, never a 5xx, and the rest still plays.
    const gone = names.at(-1)!;
    const [onDisk] = readdirSync(join(dataDir, "recordings"), { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(`/${gone.split("/").at(-1)}`));
    rmSync(join(dataDir, "recordings", onDisk!));
    const goneRes = await fetch(`${server.url}/api/stream/replay/${gone}`, { headers: { cookie } });
    expect({ status: goneRes.status, body: await goneRes.json() }).toEqual({ status: 404, body: { error: "Not found" } });
    expect(goneRes.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetch(`${server.url}/api/stream/replay/${names[1]}`, { headers: { cookie } })).status).toBe(200);
  }, 60_000);
});
