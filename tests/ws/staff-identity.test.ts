import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DEVICE_RESET_MESSAGE, WS_CLOSE_SESSION_ENDED } from "../../src/contracts/chat-limits.ts";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { enter, joinAs } from "../support/viewer.ts";
import { cookieOf, say, upgradeStatus, WsClient } from "../support/ws.ts";

let app: TestApp;
let admin: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  admin = await loginAsAdmin(app, "Boss");
});
afterAll(() => app.close());

describe("a signed-in admin in the chat", () => {
  test("a team member speaks as staff, but only a role that may moderate gets the chat's moderation powers", async () => {
    const make = async (username: string, role: "support" | "moderator") => {
      await app.ctx.admins.create(username, `${username}@example.com`, "s3cret-pass", role);
      const client = await loginAsAdmin(app, username, "s3cret-pass");
      const ws = await WsClient.connect(app, client);
      ws.send({ type: "authenticate" });
      return { ws, hello: await ws.next("auth_ok"), status: (await client.get("/api/check-moderator-status")).body };
    };
    const victim = await WsClient.connect(app, await joinAs(app, "Wanderer"));
    const line = await say(victim, "still here");

    const support = await make("helpdesk", "support");
    expect(support.hello).toEqual({ type: "auth_ok", username: "helpdesk", isModerator: false });
    expect(support.status).toEqual({ isModerator: false });
    expect(await say(support.ws, "Your code is on its way.")).toMatchObject({ username: "helpdesk", staff: "admin" });
    for (const frame of [
      { type: "delete_message", messageId: line.id },
      { type: "ban_user", username: "Wanderer" },
      { type: "kick_user", username: "Wanderer" },
    ]) {
      expect(await support.ws.expectError(frame)).toBe("Only moderators can do that.");
    }
    expect((await app.ctx.chat.listBans()).map((b) => b.username)).not.toContain("Wanderer");

    const moderator = await make("nightwatch", "moderator");
    expect([moderator.hello.isModerator, moderator.status]).toEqual([true, { isModerator: true }]);
    moderator.ws.send({ type: "delete_message", messageId: line.id });
    await victim.next("message_deleted", (e) => e.messageId === line.id);
    for (const ws of [victim, support.ws, moderator.ws]) ws.close();
  });

  test("chats and moderates under the admin's name with the admin badge, even from a browser that also holds a viewer's session", async () => {
    const viewer = app.client();
    const modCode = await app.ctx.access.issueAccessCode("MOD");
    expect((await enter(viewer, modCode.code, "Bossman")).body.valid).toBe(true);
    const both = app.client();
    for (const [k, v] of [...admin.cookies, ...viewer.cookies]) both.cookies.set(k, v);

    const troll = await WsClient.connect(app, await joinAs(app, "Trollface"));
    const boss = await WsClient.connect(app, both);
    boss.send({ type: "authenticate" });
    expect(await boss.next("auth_ok")).toEqual({ type: "auth_ok", username: "Boss", isModerator: true });
    const line = await say(boss, "Welcome, all.");
    expect(line).toMatchObject({ username: "Boss", staff: "admin" });
    expect((await troll.next("chat", (e) => e.message.id === line.id)).message.staff).toBe("admin");
    // The chat history keeps the admin's line and mark.
    const later = await WsClient.connect(app, await joinAs(app, "Latecomer"));
    expect(later.of("chatHistory")[0]!.messages.find((m) => m.id === line.id)).toMatchObject({ username: "Boss", staff: "admin" });

    // Admin powers: a moderator's line is the admin's to delete; a ban holds and is the admin's.
    const modLine = await say(await WsClient.connect(app, viewer), "mod speaking");
    boss.send({ type: "delete_message", messageId: modLine.id });
    await troll.next("message_deleted", (e) => e.messageId === modLine.id);
    boss.send({ type: "ban_user", username: "Trollface" });
    expect((await troll.closed).code).toBe(4003);
    expect((await app.ctx.chat.listBans()).map((b) => [b.username, b.bannedBy])).toContainEqual(["Trollface", "Boss"]);
    for (const ws of [boss, later]) ws.close();
  });
});

describe("Reset device", () => {
  test("closes the old device's sockets at once with a notice, and they cannot come back on the old cookie", async () => {
    const oldPhone = await joinAs(app, "Pocketphone", "SKP");
    const first = await WsClient.connect(app, oldPhone);
    const second = await WsClient.connect(app, oldPhone);
    const bystander = await WsClient.connect(app, await joinAs(app, "Bystander"));
    const codeId = (await app.ctx.store.get<{ id: number }>("SELECT id FROM access_codes WHERE code = ?", oldPhone.accessCode))!.id;

    expect((await admin.post(`/api/admin/access-codes/${codeId}/reset-device`)).status).toBe(200);
    for (const ws of [first, second]) {
      expect(await ws.closed).toEqual({ code: WS_CLOSE_SESSION_ENDED, reason: "Device reset" });
      expect(ws.of("system_message").map((e) => e.message)).toContain(DEVICE_RESET_MESSAGE);
    }
    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(oldPhone) })).toBe(401);
    // Nobody else is touched.
    await Bun.sleep(100);
    expect(bystander.socket.readyState).toBe(WebSocket.OPEN);
    bystander.close();
  });
});
