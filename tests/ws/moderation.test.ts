import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { WS_CLOSE_BANNED, WS_CLOSE_KICKED } from "../../src/contracts/chat.ts";
import { adminOf, startTestApp, type TestApp } from "../support/app.ts";
import { enter, joinAs, makeFingerprint, sessionOnCode } from "../support/viewer.ts";
import { say, upgradeStatus, WsClient } from "../support/ws.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

function cookieOf(client: { cookies: Map<string, string> }): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

describe("a viewer who is not a moderator", () => {
  test("cannot delete, pin, kick or ban: each gets an error and nothing changes", async () => {
    const victim = await WsClient.connect(app, await joinAs(app, "Mara"));
    const troll = await WsClient.connect(app, await joinAs(app, "Troll", "SKP"));
    const line = await say(victim, "do not touch this");

    troll.send({ type: "authenticate" });
    expect((await troll.next("auth_ok")).isModerator).toBe(false);
    const attempts = [
      { type: "delete_message", messageId: line.id },
      { type: "delete", messageId: line.id, username: "Troll", accessCode: "x" },
      { type: "pin", messageId: line.id },
      { type: "kick_user", username: "Mara" },
      { type: "kick", targetUsername: "Mara" },
      { type: "ban_user", username: "Mara" },
      { type: "ban", targetUsername: "Mara", username: "Troll", accessCode: "x" },
    ];
    for (const frame of attempts) expect(await troll.expectError(frame)).toBe("Only moderators can do that.");

    await Bun.sleep(300);
    for (const t of ["message_deleted", "message_updated", "user_kicked", "user_banned"] as const) expect(victim.of(t)).toHaveLength(0);
    expect(await app.ctx.chat.listBans()).toHaveLength(0);
    expect(await app.ctx.chat.messages.find(line.id)).toMatchObject({ isPinned: false });
    expect(victim.socket.readyState).toBe(WebSocket.OPEN);
    victim.close();
    troll.close();
  });
});

describe("a moderator (MOD- code)", () => {
  test("is told they are a moderator", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Warden1", "MOD"));
    mod.send({ type: "authenticate" });
    expect(await mod.next("auth_ok")).toEqual({ type: "auth_ok", username: "Warden1", isModerator: true });
    mod.close();
  });

  test("deletes a message for everyone, and it is gone from the history", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Warden2", "MOD"));
    const viewer = await WsClient.connect(app, await joinAs(app, "Nyx"));
    const line = await say(viewer, "something awful");
    mod.send({ type: "delete_message", messageId: line.id });
    for (const ws of [mod, viewer]) expect(await ws.next("message_deleted")).toEqual({ type: "message_deleted", messageId: line.id });
    expect(await mod.expectError({ type: "delete", messageId: line.id })).toBe("That message no longer exists.");
    const late = await WsClient.connect(app, await joinAs(app, "Oona"));
    expect(late.of("chatHistory")[0]!.messages.some((m) => m.id === line.id)).toBe(false);
    for (const ws of [mod, viewer, late]) ws.close();
  });

  test("pins and unpins; every client sees it, and a new pin replaces the old one", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Warden3", "MOD"));
    const viewer = await WsClient.connect(app, await joinAs(app, "Pike"));
    const first = await say(viewer, "first pin");
    const second = await say(viewer, "second pin");

    mod.send({ type: "pin", messageId: first.id });
    for (const ws of [mod, viewer]) {
      expect((await ws.next("message_updated", (e) => e.message.id === first.id && e.message.isPinned)).message).toMatchObject({ text: "first pin" });
    }
    mod.send({ type: "pin", messageId: second.id, username: "Warden3", accessCode: "ignored" });
    await viewer.next("message_updated", (e) => e.message.id === second.id && e.message.isPinned);
    await viewer.next("message_updated", (e) => e.message.id === first.id && !e.message.isPinned);

    mod.send({ type: "pin", messageId: second.id });
    await viewer.next("message_updated", (e) => e.message.id === second.id && !e.message.isPinned);
    expect((await app.ctx.chat.messages.find(second.id))!.isPinned).toBe(false);
    mod.close();
    viewer.close();
  });

  test("kicks: the user's sockets close, everyone is told, their messages leave the history", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Warden4", "MOD"));
    const target = await joinAs(app, "Quill");
    const tab1 = await WsClient.connect(app, target);
    const tab2 = await WsClient.connect(app, target);
    const line = await say(tab1, "kick me");
    mod.send({ type: "kick_user", username: "quill" });

    expect(await mod.next("user_kicked")).toEqual({ type: "user_kicked", username: "Quill" });
    for (const tab of [tab1, tab2]) {
      expect((await tab.closed).code).toBe(WS_CLOSE_KICKED);
      expect(tab.of("system_message").at(-1)!.message).toBe("You have been removed from the chat by a moderator.");
    }
    expect(await app.ctx.chat.messages.find(line.id)).toBeNull();
    // A kick is not a ban: they are kept out for a while, then may come back.
    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(target) })).toBe(403);
    expect(await app.ctx.chat.listBans()).toHaveLength(0);
    mod.close();
  });

  test("kicks by messageId with the short spelling", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Warden5", "MOD"));
    const target = await WsClient.connect(app, await joinAs(app, "Rook"));
    const line = await say(target, "mine");
    mod.send({ type: "kick", username: "Warden5", accessCode: "whatever", messageId: line.id });
    expect((await mod.next("user_kicked")).username).toBe("Rook");
    expect((await target.closed).code).toBe(WS_CLOSE_KICKED);
    mod.close();
  });

  test("bans: stored by name and code, sockets closed, no way back by reconnecting or a new name", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Warden6", "MOD"));
    const target = await joinAs(app, "Shade");
    const ws = await WsClient.connect(app, target);
    // A second person already inside on the same code under another name.
    const sameCode = await sessionOnCode(app, "ShadeTwo", target.accessCode);
    const ws2 = await WsClient.connect(app, sameCode);
    const line = await say(ws, "ban me");

    mod.send({ type: "ban", targetUsername: "Shade", username: "Warden6", accessCode: "x" });
    expect(await mod.next("user_banned")).toEqual({ type: "user_banned", username: "Shade" });
    expect((await ws.closed).code).toBe(WS_CLOSE_BANNED);
    expect((await ws2.closed).code).toBe(WS_CLOSE_BANNED);
    expect(ws.of("system_message").at(-1)!.message).toBe("You have been banned from this event.");
    expect(await app.ctx.chat.messages.find(line.id)).toBeNull();

    const codeId = (await app.ctx.store.get<{ id: number }>("SELECT id FROM access_codes WHERE code = ?", target.accessCode))!.id;
    const row = await app.ctx.store.get<{ access_code_id: number; banned_by: string }>("SELECT access_code_id, banned_by FROM banned_users WHERE username = 'Shade'");
    expect(row).toEqual({ access_code_id: codeId, banned_by: "Warden6" });
    expect((await app.ctx.chat.listBans()).map((b) => b.username)).toContain("Shade");

    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(target) })).not.toBe(101);
    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(sameCode) })).not.toBe(101);
    const third = await sessionOnCode(app, "ShadeThree", target.accessCode);
    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(third) })).toBe(403);
    const again = await enter(app.client(), target.accessCode, "NewName", makeFingerprint());
    expect(again.body.valid).toBe(false);
    mod.close();
  });

  test("an unban from the panel lets the viewer back in with their code and name", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Warden7", "MOD"));
    const thorn = await joinAs(app, "Thorn");
    const target = await WsClient.connect(app, thorn);
    mod.send({ type: "ban_user", username: "Thorn" });
    await target.closed;
    expect((await enter(thorn, thorn.accessCode, "Thorn", makeFingerprint())).body.valid).toBe(false);

    const admin = await adminOf(app);
    expect((await admin.get("/api/admin/banned-users")).body.bannedUsers.map((b: { username: string }) => b.username)).toContain("Thorn");
    expect((await admin.post("/api/admin/unban-user", { username: "thorn" })).status).toBe(200);
    expect((await admin.post("/api/admin/unban-user", { username: "thorn" })).status).toBe(404);
    expect((await enter(thorn, thorn.accessCode, "Thorn", makeFingerprint())).body.valid).toBe(true);
    const back = await WsClient.connect(app, thorn);
    expect(back.socket.readyState).toBe(WebSocket.OPEN);
    back.close();
    mod.close();
  });

  test("cannot remove themselves, another moderator, an admin, or someone who does not exist", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Warden8", "MOD"));
    const other = await WsClient.connect(app, await joinAs(app, "Warden9", "MOD"));
    expect(await mod.expectError({ type: "kick_user", username: "Warden8" })).toBe("You cannot kick yourself.");
    expect(await mod.expectError({ type: "ban_user", username: "warden9" })).toBe("Only an admin can remove a moderator.");
    expect(await mod.expectError({ type: "ban_user", username: "NoSuchGhost" })).toBe("There is no user named 'NoSuchGhost'.");
    expect(await mod.expectError({ type: "kick" })).toBe("Say which user to act on.");
    await adminOf(app);
    expect(await mod.expectError({ type: "ban_user", username: "warden" })).toBe("Admins cannot be kicked or banned.");
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
    mod.close();
    other.close();
  });
});

describe("an admin", () => {
  test("connects with the admin session as a moderator under the admin's name, and can remove a moderator", async () => {
    const admin = await adminOf(app);
    const ws = await WsClient.connect(app, admin);
    ws.send({ type: "authenticate", username: "pretend" });
    expect(await ws.next("auth_ok")).toEqual({ type: "auth_ok", username: "warden", isModerator: true });
    const line = await say(ws, "the warden speaks");
    expect(line.username).toBe("warden");

    const mod = await WsClient.connect(app, await joinAs(app, "Warden10", "MOD"));
    ws.send({ type: "kick_user", username: "Warden10" });
    expect((await mod.closed).code).toBe(WS_CLOSE_KICKED);
    ws.close();
  });
});
