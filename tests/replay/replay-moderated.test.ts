/**
 * What moderators took down stays down in the replay: a line deleted, the lines of a viewer kicked or
 * banned (those the room had removed), even one stored under a banned name as the ban came, keep their
 * place and time in the replay's chat but never their words or their author, for every pass holder.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ReplayLine } from "../../src/contracts/replay.ts";
import { ingestWithKey, loginAsAdmin, STAND_IN_PAGE, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { joinAs } from "../support/viewer.ts";
import { say, WsClient } from "../support/ws.ts";
import { publish } from "../support/rtmp.ts";
import { mediaToolsMissing } from "../support/media/media-tools.ts";

if (mediaToolsMissing) console.log(`SKIPPED: the replay's moderated chat (${mediaToolsMissing})`);

let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  if (mediaToolsMissing) return;
  app = await startTestApp({}, { page: STAND_IN_PAGE });
  admin = await loginAsAdmin(app);
  expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
  expect((await admin.put("/api/admin/livestream-settings", { isActive: true })).status).toBe(200);
});
afterAll(() => app?.close());

const DOX = "she lives at 13 Elm Street, flat 4, door code 7741";
const TROLL = ["first line of the troll: 0770 900 123", "second line of the troll"];
const KICKED = "a line that got me kicked";
const KEPT = "is that a face in the window";

describe.skipIf(mediaToolsMissing !== null)("the replay's chat after moderation", () => {
  test("a deleted line and the lines of a kicked or banned viewer keep their place and time, never their text or author", async () => {
    const { rtmpUrl, streamKey } = await ingestWithKey(admin);
    const obs = publish(`${rtmpUrl}/${streamKey}`, { seconds: 4 });
    const nyx = await joinAs(app, "Nyx");
    await eventually(async () => ((await nyx.get("/api/stream/playback")).body.url ? true : null), 10_000, "the stream live");
    const mod = await WsClient.connect(app, await joinAs(app, "Overseer", "MOD"));
    const nyxWs = await WsClient.connect(app, nyx);
    const doxWs = await WsClient.connect(app, await joinAs(app, "Doxxer"));
    const trollWs = await WsClient.connect(app, await joinAs(app, "Troll"));
    const kickedWs = await WsClient.connect(app, await joinAs(app, "Kickee"));

    const kept = await say(nyxWs, KEPT);
    const dox = await say(doxWs, DOX);
    mod.send({ type: "delete_message", messageId: dox.id });
    await nyxWs.next("message_deleted", (e) => e.messageId === dox.id);
    const trolled = [await say(trollWs, TROLL[0]!), await say(trollWs, TROLL[1]!)];
    mod.send({ type: "ban_user", username: "troll" });
    await nyxWs.next("user_banned");
    await trollWs.closed;
    const kickLine = await say(kickedWs, KICKED);
    mod.send({ type: "kick", messageId: kickLine.id });
    await kickedWs.closed;
    // A line of the banned name stored as the ban came (its write under way on another instance).
    const late = await app.ctx.chat.messages.add({ userId: null, username: "TROLL", text: "stored as the ban came", type: "user" });
    for (const ws of [mod, nyxWs, doxWs]) ws.close();
    expect((await obs.done).code).toBe(0);
    await eventually(async () => ((await admin.get("/api/admin/recordings")).body.recordings[0]?.state === "complete" ? true : null), 10_000, "the recording closed");
    expect((await admin.post("/api/admin/event/end", {})).status).toBe(200);

    // Any pass holder, after the night: a new one, and one who watched.
    const mara = await joinAs(app, "Mara");
    for (const viewer of [mara, nyx]) {
      const res = await viewer.get("/api/stream/replay-chat");
      expect(res.status).toBe(200);
      for (const words of [DOX, ...TROLL, KICKED, "stored as the ban came", "Doxxer", "Troll", "Kickee", "13 Elm Street"]) expect(res.text).not.toContain(words);
      const lines = res.body.lines as ReplayLine[];
      const byId = new Map(lines.map((l) => [l.id, l]));
      // The line nobody took down is as it was said.
      expect(byId.get(kept.id)).toMatchObject({ username: "Nyx", text: KEPT, timestamp: kept.timestamp });
      expect(byId.get(kept.id)!.removed).toBeUndefined();
      // Each line taken down: in its place, at its time, with nothing of what it said or who said it.
      const removed = [dox, ...trolled, kickLine, late];
      for (const line of removed)
        expect(byId.get(line.id)).toEqual({ id: line.id, username: "", text: "", timestamp: line.timestamp, type: "user", isPinned: false, removed: true });
      expect(lines.map((l) => l.id)).toEqual([kept, dox, ...trolled, kickLine, late].map((l) => l.id));
      // The room saw each go when it went: the deletions stay, at their times.
      const deleted = (res.body.events as { kind: string; messageId: string }[]).filter((e) => e.kind === "delete").map((e) => e.messageId);
      expect(deleted).toEqual([dox, ...trolled, kickLine].map((l) => l.id));
    }
    // The panel's chat export, for the team alone, still holds what was said.
    const exported = await admin.get("/api/admin/chat-export.json");
    expect(exported.text).toContain(DOX);
  }, 60_000);
});
