import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ModerationLogEntry } from "../../src/contracts/moderation.ts";
import { adminOf, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { joinAs } from "../support/viewer.ts";
import { say, WsClient } from "../support/ws.ts";

let app: TestApp;
let admin: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  admin = await adminOf(app);
});
afterAll(() => app.close());

const userId = async (username: string) => (await app.ctx.store.get<{ id: number }>("SELECT id FROM users WHERE username = ?", username))!.id;

describe("the moderation log", () => {
  test("records every action with who, whom, when and the message; filters by action and search; exports CSV", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Overseer", "MOD"));
    const viewer = await WsClient.connect(app, await joinAs(app, "Heckler"));
    const line = await say(viewer, "first awful line");
    mod.send({ type: "pin", messageId: line.id });
    await viewer.next("message_updated", (e) => e.message.isPinned);
    mod.send({ type: "pin", messageId: line.id });
    await viewer.next("message_updated", (e) => !e.message.isPinned);
    mod.send({ type: "delete_message", messageId: line.id });
    await viewer.next("message_deleted");
    mod.send({ type: "timeout_user", username: "Heckler", seconds: 600 });
    await viewer.next("chat_cooldown");
    mod.send({ type: "lift_timeout", username: "Heckler" });
    await viewer.next("chat_cooldown", (e) => e.seconds === 0);
    mod.send({ type: "slow_mode", seconds: 10 });
    await viewer.next("slow_mode", (e) => e.seconds === 10);
    mod.send({ type: "slow_mode", seconds: 0 });
    // Not `slow_mode` 0: the viewer already has one from joining, so that would not wait for this change.
    await viewer.next("system_message", (e) => e.message === "Slow mode is off.");
    await admin.put("/api/admin/chat-rules", { slowModeSeconds: 0, blockedTerms: ["curse"], filterAction: "block", blockLinks: false });
    viewer.send({ type: "chat_message", text: "a CURSE on you" });
    await viewer.next("system_message", (e) => e.message.startsWith("Your message was not sent"));
    const kicked = await WsClient.connect(app, await joinAs(app, "Kickee"));
    const kickLine = await say(kicked, "kick me by this line");
    mod.send({ type: "kick", messageId: kickLine.id });
    await kicked.closed;
    mod.send({ type: "ban_user", username: "Heckler", reason: "  spam and slurs  " });
    await viewer.closed;
    expect((await admin.post("/api/admin/unban-user", { username: "heckler" })).status).toBe(200);

    const { entries } = (await admin.get("/api/admin/moderation-log")).body as { entries: ModerationLogEntry[] };
    const byAction = (action: string) => entries.find((e) => e.action === action)!;
    expect(byAction("pin")).toMatchObject({ moderator: "Overseer", target: "Heckler", messageText: "first awful line" });
    expect(byAction("unpin")).toMatchObject({ moderator: "Overseer", target: "Heckler", messageText: "first awful line" });
    expect(byAction("delete")).toMatchObject({ moderator: "Overseer", target: "Heckler", messageText: "first awful line" });
    expect(byAction("timeout")).toMatchObject({ moderator: "Overseer", target: "Heckler", detail: "10 minutes" });
    expect(byAction("lift_timeout")).toMatchObject({ moderator: "Overseer", target: "Heckler" });
    expect(entries.filter((e) => e.action === "slow_mode").map((e) => e.detail)).toEqual(["off", "one message every 10 seconds"]);
    expect(byAction("chat_rules")).toMatchObject({ moderator: "warden", detail: "added 1 term (curse)" });
    expect(byAction("filtered")).toMatchObject({ moderator: null, target: "Heckler", messageText: "a CURSE on you", detail: "blocked term: curse" });
    expect(byAction("kick")).toMatchObject({ moderator: "Overseer", target: "Kickee", messageText: "kick me by this line" });
    expect(byAction("ban")).toMatchObject({ moderator: "Overseer", target: "Heckler", detail: "spam and slurs" });
    expect(byAction("unban")).toMatchObject({ moderator: "warden", target: "heckler" });
    expect(entries[0]!.action).toBe("unban");
    expect(Date.parse(entries[0]!.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const onlyBans = (await admin.get("/api/admin/moderation-log?action=ban")).body.entries as ModerationLogEntry[];
    expect(onlyBans.map((e) => e.action)).toEqual(["ban"]);
    const search = (await admin.get("/api/admin/moderation-log?q=KICKEE")).body.entries as ModerationLogEntry[];
    expect(search.map((e) => e.target)).toEqual(["Kickee"]);
    expect((await admin.get("/api/admin/moderation-log?limit=2")).body.entries).toHaveLength(2);

    const csv = await admin.get("/api/admin/moderation-log.csv");
    expect(csv.headers.get("content-type")).toStartWith("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="moderation-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = csv.text.trim().split("\r\n");
    expect(rows[0]).toBe("time,action,moderator,target,message,detail");
    expect(rows).toHaveLength(entries.length + 1);
    expect(rows.some((r) => r.includes(",ban,Overseer,Heckler,,spam and slurs"))).toBe(true);
    mod.close();
  });

  test("the Banned Users list shows each ban's reason and who banned", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Overseer2", "MOD"));
    const target = await WsClient.connect(app, await joinAs(app, "Defiler"));
    mod.send({ type: "ban", targetUsername: "Defiler", reason: "threats" });
    await target.closed;
    const bans = (await admin.get("/api/admin/banned-users")).body.bannedUsers as { username: string; bannedBy: string; reason: string | null }[];
    expect(bans.find((b) => b.username === "Defiler")).toMatchObject({ bannedBy: "Overseer2", reason: "threats" });
    expect(await mod.expectError({ type: "ban_user", username: "Other", reason: "x".repeat(201) })).toBe(
      "Invalid ban_user message: reason: The reason must be 200 characters or less",
    );
    mod.close();
  });

  test("bad queries are 400, and every route needs an admin", async () => {
    expect((await admin.get("/api/admin/moderation-log?action=explode")).status).toBe(400);
    expect((await admin.get("/api/admin/moderation-log?limit=0")).status).toBe(400);
    expect((await admin.get("/api/admin/moderation-log?limit=abc")).status).toBe(400);
    for (const path of ["/api/admin/moderation-log", "/api/admin/moderation-log.csv", "/api/admin/chat-export.csv", "/api/admin/chat-export.json", "/api/admin/timeouts"]) {
      expect((await app.client().get(path)).status).toBe(401);
    }
    expect((await app.client().post("/api/admin/users/1/moderator", { isModerator: true })).status).toBe(401);
    expect((await admin.post("/api/admin/users/1/moderator", { isModerator: true }, { origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("timeouts in the panel", () => {
  test("lists the running timeouts and lifts one", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Overseer3", "MOD"));
    const viewer = await WsClient.connect(app, await joinAs(app, "Muted"));
    mod.send({ type: "timeout_user", username: "Muted", seconds: 3600 });
    await viewer.next("chat_cooldown");
    const { timeouts } = (await admin.get("/api/admin/timeouts")).body;
    expect(timeouts).toContainEqual({ username: "Muted", until: expect.any(String), timedOutBy: "Overseer3" });
    expect((await admin.post("/api/admin/lift-timeout", { username: "muted" })).body).toEqual({ ok: true, username: "Muted" });
    expect(await viewer.next("chat_cooldown", (e) => e.seconds === 0)).toMatchObject({ reason: "timeout" });
    expect((await admin.post("/api/admin/lift-timeout", { username: "Muted" })).status).toBe(404);
    expect((await admin.post("/api/admin/lift-timeout", { username: "Nobody-at-all" })).status).toBe(404);
    expect((await admin.post("/api/admin/lift-timeout", {})).status).toBe(400);
    mod.close();
    viewer.close();
  });
});

describe("moderators made in the panel", () => {
  test("take effect on open sockets at once, and can be taken back", async () => {
    const promoted = await joinAs(app, "Deputy", "SKP");
    const ws = await WsClient.connect(app, promoted);
    const other = await WsClient.connect(app, await joinAs(app, "Chatter"));
    const line = await say(other, "delete me, deputy");
    expect(await ws.expectError({ type: "delete_message", messageId: line.id })).toBe("Only moderators can do that.");

    const id = await userId("Deputy");
    expect((await admin.post(`/api/admin/users/${id}/moderator`, { isModerator: true })).body).toEqual({ id, username: "Deputy", isModerator: true });
    expect(await ws.next("auth_ok", (e) => e.isModerator)).toEqual({ type: "auth_ok", username: "Deputy", isModerator: true });
    ws.send({ type: "delete_message", messageId: line.id });
    await other.next("message_deleted", (e) => e.messageId === line.id);
    expect((await promoted.get("/api/check-moderator-status")).body).toEqual({ isModerator: true });
    const users = (await admin.get("/api/admin/users")).body as { username: string; moderator: string | null }[];
    expect(users.find((u) => u.username === "Deputy")!.moderator).toBe("panel");
    // A new socket is a moderator too, and exempt from slow mode like any other.
    const second = await WsClient.connect(app, promoted);
    second.send({ type: "authenticate" });
    expect((await second.next("auth_ok")).isModerator).toBe(true);

    expect((await admin.post(`/api/admin/users/${id}/moderator`, { isModerator: false })).status).toBe(200);
    await ws.next("auth_ok", (e) => !e.isModerator);
    const again = await say(other, "not any more");
    expect(await ws.expectError({ type: "delete", messageId: again.id })).toBe("Only moderators can do that.");
    expect((await promoted.get("/api/check-moderator-status")).body).toEqual({ isModerator: false });
    const log = (await app.ctx.chat.moderation.log.list({ q: "Deputy" })).map((e) => e.action);
    expect(log).toEqual(["moderator_removed", "delete", "moderator_added"]);
    for (const c of [ws, other, second]) c.close();
  });

  test("a MOD- code's moderator stays one; unknown users and bad bodies are refused", async () => {
    await joinAs(app, "CodeMod", "MOD");
    const res = await admin.post(`/api/admin/users/${await userId("CodeMod")}/moderator`, { isModerator: false });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("This viewer is a moderator by their MOD- code; revoke the code to take it back.");
    expect((await admin.post("/api/admin/users/999999/moderator", { isModerator: true })).status).toBe(404);
    expect((await admin.post("/api/admin/users/abc/moderator", { isModerator: true })).status).toBe(400);
    expect((await admin.post(`/api/admin/users/${await userId("CodeMod")}/moderator`, { isModerator: "yes" })).body.error).toBe("isModerator must be true or false");
  });
});

describe("the chat export", () => {
  test("downloads the whole chat as JSON and CSV, deleted and pinned lines marked", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Archivist", "MOD"));
    const kept = await say(mod, 'for the record, "quoted", with a comma');
    const gone = await say(mod, "=SUM(A1) this one is deleted");
    mod.send({ type: "delete_message", messageId: gone.id });
    await mod.next("message_deleted");

    const json = await admin.get("/api/admin/chat-export.json");
    expect(json.headers.get("content-disposition")).toMatch(/^attachment; filename="chat-\d{4}-\d{2}-\d{2}\.json"$/);
    const messages = json.body.messages as { id: string; text: string; deleted: boolean }[];
    expect(messages.length).toBe((await app.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM chat_messages"))!.n);
    expect(messages.find((m) => m.id === kept.id)).toMatchObject({ username: "Archivist", type: "user", deleted: false, pinned: false, donation: null, currency: null });
    expect(messages.find((m) => m.id === gone.id)!.deleted).toBe(true);

    const csv = await admin.get("/api/admin/chat-export.csv");
    const rows = csv.text.trim().split("\r\n");
    expect(rows[0]).toBe("time,username,type,text,donation,currency,pinned,deleted,id");
    expect(rows.some((r) => r.includes(`Archivist,user,"for the record, ""quoted"", with a comma",,,false,false,${kept.id}`))).toBe(true);
    expect(rows.some((r) => r.includes(`'=SUM(A1) this one is deleted`) && r.endsWith(`true,${gone.id}`))).toBe(true);
    mod.close();
  });
});
