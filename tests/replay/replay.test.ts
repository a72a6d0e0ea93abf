/**
 * The night after, through the app: FFmpeg publishes to the built-in ingest, the publish session is kept
 * as a recording (the packager's own files), and once the livestream is switched off pass holders watch the
 * replay — a VOD playlist through the same per-request session gate — until "available until". The panel
 * renames, trims, hides, downloads (ffprobe reads the file) and deletes recordings.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ingestWithKey, loginAsAdmin, STAND_IN_PAGE, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";
import { say, WsClient } from "../support/ws.ts";
import { publish } from "../support/rtmp.ts";
import { FFPROBE, mediaDir, mediaToolsMissing, probeFrames } from "../support/media/media-tools.ts";

if (mediaToolsMissing) console.log(`SKIPPED: the replay (${mediaToolsMissing})`);

let app: TestApp;
let admin: TestClient;
let dir = "";

beforeAll(async () => {
  if (mediaToolsMissing) return;
  dir = mediaDir();
  app = await startTestApp({}, { page: STAND_IN_PAGE });
  admin = await loginAsAdmin(app);
  expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
  expect((await admin.put("/api/admin/livestream-settings", { isActive: true })).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function viewer(name: string): Promise<{ client: TestClient; paymentIntentId: string }> {
  const client = app.client();
  const { accessCode, paymentIntentId } = await buyDemoCode(client);
  expect((await enter(client, accessCode, name)).status).toBe(200);
  return { client, paymentIntentId };
}

const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
const get = (client: TestClient | null, path: string, headers: Record<string, string> = {}) =>
  fetch(app.url + path, { headers: { ...(client ? { cookie: cookieOf(client) } : {}), ...headers } });

describe.skipIf(mediaToolsMissing !== null)("the replay of the built-in ingest", () => {
  test("a publish is recorded; after the night pass holders watch it as VOD, and the panel trims, downloads and deletes it", async () => {
    const { rtmpUrl, streamKey } = await ingestWithKey(admin);
    const obs = publish(`${rtmpUrl}/${streamKey}`, { seconds: 6 });
    // The chat during the night: a line, pinned, another, deleted.
    const { client: nyx } = await viewer("Nyx");
    await eventually(async () => ((await nyx.get("/api/stream/playback")).body.url ? true : null), 10_000, "the stream live");
    const nyxWs = await WsClient.connect(app, nyx);
    const staffWs = await WsClient.connect(app, admin);
    const first = await say(nyxWs, "is that a face in the window");
    staffWs.send({ type: "pin", messageId: first.id });
    await nyxWs.next("message_updated", (e) => e.message.isPinned);
    const second = await say(nyxWs, "spoiler: it was the butler");
    staffWs.send({ type: "delete_message", messageId: second.id });
    await nyxWs.next("message_deleted");
    nyxWs.close();
    staffWs.close();
    expect((await obs.done).code).toBe(0);
    await eventually(async () => ((await admin.get("/api/admin/recordings")).body.recordings[0]?.state === "complete" ? true : null), 10_000, "the recording closed");

    const list = (await admin.get("/api/admin/recordings")).body;
    expect(list.recordings).toHaveLength(1);
    const rec = list.recordings[0];
    expect(rec.durationS).toBeGreaterThan(4);
    expect(rec.durationS).toBeLessThan(8);
    expect([rec.width, rec.height]).toEqual([640, 360]);
    expect(rec.bytes).toBeGreaterThan(10_000);
    expect(list.totalBytes).toBe(rec.bytes);

    // Until the night is ended, a publisher gone is a break: the page waits for it live.
    const { client: mara, paymentIntentId } = await viewer("Mara");
    expect((await mara.get("/api/stream/playback")).body.kind).toBe("ingest");

    // The night is over: the owner ends it, the replay plays.
    expect((await admin.post("/api/admin/event/end", {})).status).toBe(200);
    const playback = (await mara.get("/api/stream/playback")).body;
    expect(playback).toMatchObject({ kind: "replay", url: "/api/stream/replay/index.m3u8" });
    // Said when the night went live, not when a recording began.
    const { phase, night } = (await app.client().get("/api/livestream-settings")).body;
    expect(phase).toBe("replay");
    expect(playback.startedAt).toBe(night.wentLiveAt);
    // A pass bought now is for the replay, and its mail says so.
    const late = app.client();
    const { accessCode: lateCode } = await buyDemoCode(late, "late@example.com");
    const [mail] = await app.ctx.store.all<{ text_body: string; html_body: string }>("SELECT text_body, html_body FROM email_queue WHERE to_address = ?", "late@example.com");
    expect(mail!.text_body).toContain("Your access to the replay is secured.");
    expect(mail!.text_body).toContain("The live night is over: this pass is for its replay, which you can watch until");
    expect(mail!.text_body).toContain(lateCode);
    expect(mail!.html_body).toContain("THE REPLAY");
    expect(playback.duration).toBeCloseTo(rec.durationS, 1);
    // The chat as it happened: both lines (the deleted one without its words), unpinned as said, then the pin and the deletion at their times.
    const chat = (await mara.get("/api/stream/replay-chat")).body;
    expect(chat.lines.map((l: { text: string }) => l.text)).toEqual(["is that a face in the window", ""]);
    expect(chat.lines[1]).toMatchObject({ id: second.id, removed: true });
    expect(chat.lines.every((l: { isPinned: boolean }) => !l.isPinned)).toBe(true);
    expect(chat.events.map((e: { kind: string; messageId: string }) => [e.kind, e.messageId])).toEqual([
      ["pin", first.id],
      ["delete", second.id],
    ]);
    expect(Date.parse(chat.events[1].at)).toBeGreaterThanOrEqual(Date.parse(chat.lines.find((l: { id: string }) => l.id === second.id).timestamp));
    expect((await app.client().get("/api/stream/replay-chat")).status).toBe(401);
    const playlist = await (await get(mara, playback.url)).text();
    expect(playlist).toContain("#EXT-X-PLAYLIST-TYPE:VOD");
    expect(playlist).toContain("#EXT-X-ENDLIST");
    expect(playlist).toContain("#EXT-X-PROGRAM-DATE-TIME:");
    const init = /URI="([^"]+)"/.exec(playlist)![1]!;
    const segments = playlist.split("\n").filter((l) => l && !l.startsWith("#"));
    expect(segments.length).toBe(rec.segments);
    // What a player fetches decodes cleanly.
    const bytes = [new Uint8Array(await (await get(mara, `/api/stream/replay/${init}`)).arrayBuffer())];
    for (const s of segments) {
      const res = await get(mara, `/api/stream/replay/${s}`);
      expect(res.status).toBe(200);
      bytes.push(new Uint8Array(await res.arrayBuffer()));
    }
    const played = join(dir, "played.mp4");
    writeFileSync(played, Buffer.concat(bytes));
    const probed = probeFrames(played);
    expect(probed.errors).toBe("");
    expect(probed.frames.filter((f) => f.media_type === "video").length).toBeGreaterThan(100);

    // The gate: no session, another session's files by guessing ids, a refunded pass — refused.
    expect((await get(null, playback.url)).status).toBe(401);
    expect((await get(mara, "/api/stream/replay/r999/seg-0.m4s")).status).toBe(404);
    expect((await get(mara, "/api/stream/replay/../../admin/recordings")).status).not.toBe(200);
    const { client: refunded, paymentIntentId: refundedIntent } = await viewer("Refunded");
    expect((await admin.post("/api/admin/payments/refund", { paymentIntentId: refundedIntent })).status).toBe(200);
    expect([401, 403]).toContain((await get(refunded, playback.url)).status);
    void paymentIntentId;

    // Trims at segment boundaries apply to the replay at once; bad trims change nothing.
    for (const body of [{ trimStartS: 999 }, { trimEndS: 999 }, { trimStartS: 3, trimEndS: 2 }, { trimStartS: -1 }, { title: "" }, { extra: 1 }]) {
      expect({ body, status: (await admin.request("PATCH", `/api/admin/recordings/${rec.id}`, body)).status }).toEqual({ body, status: 400 });
    }
    expect((await admin.get("/api/admin/recordings")).body.recordings[0].trimStartS).toBe(0);
    const trimmed = (await admin.request("PATCH", `/api/admin/recordings/${rec.id}`, { title: "The Hollow House, night one", trimStartS: 2.5 })).body;
    expect(trimmed.title).toBe("The Hollow House, night one");
    expect(trimmed.playedS).toBeLessThan(rec.durationS - 1);
    const shorter = await (await get(mara, playback.url)).text();
    expect(shorter.split("\n").filter((l) => l && !l.startsWith("#")).length).toBeLessThan(segments.length);

    // The download: one MP4 of what the replay plays, ranges honoured, ffprobe's duration close to it.
    const download = await admin.get(`/api/admin/recordings/${rec.id}.mp4`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain("The-Hollow-House-night-one.mp4");
    const file = join(dir, "download.mp4");
    const whole = await fetch(`${app.url}/api/admin/recordings/${rec.id}.mp4`, { headers: { cookie: cookieOf(admin) } });
    const wholeBytes = new Uint8Array(await whole.arrayBuffer());
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    writeFileSync(file, wholeBytes);
    const duration = Number(Bun.spawnSync([FFPROBE, "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).stdout.toString().trim());
    expect(Math.abs(duration - trimmed.playedS)).toBeLessThan(1.1);
    expect(probeFrames(file).errors).toBe("");
    const ranged = await fetch(`${app.url}/api/admin/recordings/${rec.id}.mp4`, { headers: { cookie: cookieOf(admin), range: "bytes=100-199" } });
    expect(ranged.status).toBe(206);
    // The whole file's size, told in the range's answer (Bun sends a streamed body chunked, without Content-Length).
    expect(ranged.headers.get("content-range")).toBe(`bytes 100-199/${wholeBytes.length}`);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    expect((await fetch(`${app.url}/api/admin/recordings/${rec.id}.mp4`, { headers: { cookie: cookieOf(admin), range: "bytes=999999999-" } })).status).toBe(416);
    expect((await admin.get("/api/admin/recordings/12.mkv")).status).toBe(404);

    // The stream source changed after the night: the page still allows the replay's player (blob: media).
    expect((await admin.put("/api/admin/stream-source", { kind: "embed", embedUrl: "https://www.youtube.com/embed/dQw4w9WgXcQ" })).status).toBe(200);
    expect((await mara.get("/api/stream/playback")).body.kind).toBe("replay");
    const csp = (await fetch(app.url + "/livestream")).headers.get("content-security-policy")!;
    expect(csp).toContain("media-src 'self' blob:;");
    expect(csp).toContain("worker-src 'self' blob:;");

    // After "available until" the page says the replay has ended, and the files are refused.
    const until = new Date(Date.now() + 60_000).toISOString();
    expect((await admin.put("/api/admin/livestream-settings", { replayUntil: new Date(Date.now() - 1000).toISOString() })).status).toBe(400);
    expect((await admin.put("/api/admin/livestream-settings", { replayUntil: "2999-01-01T00:00:00Z" })).status).toBe(400);
    expect((await admin.put("/api/admin/livestream-settings", { replayUntil: until })).status).toBe(200);
    await app.ctx.store.run("UPDATE livestream_settings SET replay_until = ?", Date.now() - 1);
    const ended = (await mara.get("/api/stream/playback")).body;
    expect(ended).toMatchObject({ kind: "replay", url: "" });
    expect(typeof ended.replayEndedAt).toBe("string");
    expect((await get(mara, playback.url)).status).toBe(403);

    // Hidden, then deleted: gone from the replay, its space freed.
    expect((await admin.request("DELETE", `/api/admin/recordings/${rec.id}`)).status).toBe(200);
    expect((await admin.get("/api/admin/recordings")).body.recordings).toEqual([]);
    expect(existsSync(join(app.config.dataDir, "recordings")) ? readdirSync(join(app.config.dataDir, "recordings")) : []).toEqual([]);
    expect((await admin.request("DELETE", `/api/admin/recordings/${rec.id}`)).status).toBe(404);
  }, 60_000);

  test("a trim that starts where the keyframes were further apart than a segment plays from the next keyframe, in the replay and the download", async () => {
    expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
    const { rtmpUrl, streamKey } = await ingestWithKey(admin);
    expect((await admin.put("/api/admin/livestream-settings", { isActive: true, replayEnabled: true, replayUntil: new Date(Date.now() + 3600_000).toISOString() })).status).toBe(
      200,
    );
    // A keyframe every 4 s: the packager cuts a segment at 2.4 s without one, the next at the keyframe at 4 s.
    const obs = publish(`${rtmpUrl}/${streamKey}`, { seconds: 7, gop: 120 });
    expect(await obs.done).toMatchObject({ code: 0 });
    const rec = await eventually(
      async () => {
        const [r] = (await admin.get("/api/admin/recordings")).body.recordings;
        return r?.state === "complete" ? r : null;
      },
      10_000,
      "the recording closed",
    );
    expect((await admin.post("/api/admin/event/end", {})).status).toBe(200);
    const { client: owl } = await viewer("Owl");
    const listed = async () => (await (await get(owl, "/api/stream/replay/index.m3u8")).text()).split("\n").filter((l) => l && !l.startsWith("#"));
    /** The first video packet's flags, as ffprobe reads what a player fetches first (the init and the first segment). */
    const firstPacket = async (uri: string) => {
      const init = /URI="([^"]+)"/.exec(await (await get(owl, "/api/stream/replay/index.m3u8")).text())![1]!;
      const parts = [init, uri].map(async (u) => new Uint8Array(await (await get(owl, `/api/stream/replay/${u}`)).arrayBuffer()));
      const file = join(dir, "first.mp4");
      writeFileSync(file, Buffer.concat(await Promise.all(parts)));
      return Bun.spawnSync([FFPROBE, "-v", "error", "-select_streams", "v", "-read_intervals", "%+#1", "-show_entries", "packet=flags", "-of", "csv=p=0", file])
        .stdout.toString()
        .trim();
    };
    const whole = await listed();
    expect(whole[0]).toBe(`r${rec.id}/seg-0.m4s`);
    expect(await firstPacket(whole[0]!)).toMatch(/^K/);
    // The segment that holds 3 s starts 2.4 s in, on no keyframe: the replay starts at the keyframe after it.
    expect(await firstPacket(whole[1]!)).not.toMatch(/^K/);
    expect((await admin.request("PATCH", `/api/admin/recordings/${rec.id}`, { trimStartS: 3 })).status).toBe(200);
    const trimmed = await listed();
    expect(trimmed[0]).toBe(whole[2]);
    expect(await firstPacket(trimmed[0]!)).toMatch(/^K/);
    // The segment left out is not served either.
    expect((await get(owl, `/api/stream/replay/${whole[1]}`)).status).toBe(404);
    // The download starts there too: ffprobe's first picture is a keyframe, and it lasts from 4 s to the end.
    const file = join(dir, "trimmed.mp4");
    writeFileSync(file, new Uint8Array(await (await fetch(`${app.url}/api/admin/recordings/${rec.id}.mp4`, { headers: { cookie: cookieOf(admin) } })).arrayBuffer()));
    const flags = Bun.spawnSync([
      FFPROBE,
      "-v",
      "error",
      "-select_streams",
      "v",
      "-read_intervals",
      "%+#1",
      "-show_entries",
      "packet=flags",
      "-of",
      "csv=p=0",
      file,
    ]).stdout.toString();
    expect(flags.trim()).toMatch(/^K/);
    expect(probeFrames(file).errors).toBe("");
    const duration = Number(Bun.spawnSync([FFPROBE, "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).stdout.toString().trim());
    expect(Math.abs(duration - (rec.durationS - 4))).toBeLessThan(0.6);
  }, 60_000);
});
