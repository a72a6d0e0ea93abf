import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ACCESS_MESSAGES } from "../../src/contracts/access.ts";
import { WS_CLOSE_BANNED, WS_CLOSE_KICKED } from "../../src/contracts/chat.ts";
import { adminOf, startTestApp, type TestApp } from "../support/app.ts";
import { cookieOf, say, upgradeStatus, WsClient } from "../support/ws.ts";
import { enter, joinAs, makeFingerprint } from "../support/viewer.ts";

/**
 * The chat's powers held by the right people: a moderator's go with their voice (none while timed out or
 * banned), only viewers' lines are theirs to act on, nobody poses as the staff under a look-alike name,
 * and a kick holds the person, not the name they chose.
 */

describe("a moderator's powers", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test("a timed-out moderator can do nothing a moderator does, lifting their own timeout included", async () => {
    const adminWs = await WsClient.connect(app, await adminOf(app));
    const mod = await joinAs(app, "Grimm", "MOD");
    const modWs = await WsClient.connect(app, mod);
    const viewerWs = await WsClient.connect(app, await joinAs(app, "Wisp"));
    const line = await say(viewerWs, "boo");

    adminWs.send({ type: "timeout_user", username: "Grimm", seconds: 600 });
    await modWs.next("chat_cooldown", (e) => e.reason === "timeout" && e.seconds === 600);
    for (const frame of [
      { type: "lift_timeout", username: "Grimm" },
      { type: "delete_message", messageId: line.id },
      { type: "pin", messageId: line.id },
      { type: "kick_user", username: "Wisp" },
      { type: "ban_user", username: "Wisp" },
      { type: "timeout_user", username: "Wisp", seconds: 60 },
      { type: "slow_mode", seconds: 30 },
    ]) {
      expect(await modWs.expectError(frame)).toStartWith("You are timed out: you cannot moderate for");
    }
    expect(app.ctx.chat.moderation.timeouts.secondsLeft({ username: "Grimm", userId: null, accessCodeId: null })).toBeGreaterThan(500);
    expect((await app.ctx.chat.messages.find(line.id))?.isPinned).toBe(false);
    expect(app.ctx.chat.moderation.slowModeSeconds()).toBe(0);
    expect(app.ctx.chat.moderation.timeouts.secondsLeft({ username: "Wisp", userId: null, accessCodeId: null })).toBe(0);
    expect(viewerWs.socket.readyState).toBe(WebSocket.OPEN);
    expect(await app.ctx.chat.listBans()).toEqual([]);

    // Once an admin lifts it, the moderator moderates again.
    adminWs.send({ type: "lift_timeout", username: "Grimm" });
    await modWs.next("chat_cooldown", (e) => e.reason === "timeout" && e.seconds === 0);
    modWs.send({ type: "pin", messageId: line.id });
    await viewerWs.next("message_updated", (e) => e.message.id === line.id && e.message.isPinned);
    for (const ws of [adminWs, modWs, viewerWs]) ws.close();
  }, 30_000);

  test("a moderator banned while their socket stayed open (the ban made elsewhere) is refused and closed", async () => {
    const mod = await joinAs(app, "Hex", "MOD");
    const modWs = await WsClient.connect(app, mod);
    const viewerWs = await WsClient.connect(app, await joinAs(app, "Moth"));
    const line = await say(viewerWs, "still here");
    // Another instance's ban whose message never arrived here: only the database knows.
    await app.ctx.chat.bans.ban("Hex", null, "warden");
    modWs.send({ type: "delete_message", messageId: line.id });
    expect((await modWs.closed).code).toBe(WS_CLOSE_BANNED);
    expect(modWs.of("system_message").at(-1)?.message).toBe("You have been banned from this event.");
    expect(await app.ctx.chat.messages.find(line.id)).not.toBeNull();
    viewerWs.close();
  }, 30_000);

  test("a moderator lifts neither their own timeout nor one an admin set; an admin lifts both", async () => {
    const adminWs = await WsClient.connect(app, await adminOf(app));
    const modWs = await WsClient.connect(app, await joinAs(app, "Crow", "MOD"));
    const pestWs = await WsClient.connect(app, await joinAs(app, "Pest"));
    const imp = await joinAs(app, "Imp");

    adminWs.send({ type: "timeout_user", username: "Pest", seconds: 300 });
    await pestWs.next("chat_cooldown", (e) => e.reason === "timeout" && e.seconds === 300);
    expect(await modWs.expectError({ type: "lift_timeout", username: "Pest" })).toBe("Only an admin can lift a timeout an admin set.");
    expect(await modWs.expectError({ type: "lift_timeout", username: "pest" })).toBe("Only an admin can lift a timeout an admin set.");
    expect(app.ctx.chat.moderation.timeouts.secondsLeft({ username: "Pest", userId: null, accessCodeId: null })).toBeGreaterThan(200);

    // The moderator's own timeouts are theirs to lift.
    modWs.send({ type: "timeout_user", username: imp.username, seconds: 60 });
    await modWs.next("system_message", (e) => e.message === "Imp has been timed out for 1 minute.");
    modWs.send({ type: "lift_timeout", username: imp.username });
    await modWs.next("system_message", (e) => e.message === "Imp can chat again.");

    // Not timed out, a moderator still cannot lift "their own": the frame names them.
    expect(await modWs.expectError({ type: "lift_timeout", username: "Crow" })).toBe("You cannot lift your own timeout.");

    adminWs.send({ type: "lift_timeout", username: "Pest" });
    await pestWs.next("chat_cooldown", (e) => e.reason === "timeout" && e.seconds === 0);
    for (const ws of [adminWs, modWs, pestWs]) ws.close();
  }, 30_000);

  test("a moderator acts on viewers' lines only: an admin's and another moderator's stay, pinned or not", async () => {
    const adminWs = await WsClient.connect(app, await adminOf(app));
    const modWs = await WsClient.connect(app, await joinAs(app, "Raven", "MOD"));
    const otherModWs = await WsClient.connect(app, await joinAs(app, "Rook", "MOD"));
    const viewerWs = await WsClient.connect(app, await joinAs(app, "Newt"));
    const rules = await say(adminWs, "House rules: be scary, not cruel.");
    const modLine = await say(otherModWs, "Welcome, all.");
    const viewerLine = await say(viewerWs, "hello");
    const ownLine = await say(modWs, "I am watching.");

    expect(await modWs.expectError({ type: "delete_message", messageId: rules.id })).toBe("Only an admin can delete an admin's message.");
    expect(await modWs.expectError({ type: "delete", messageId: modLine.id })).toBe("Only an admin can delete a moderator's message.");
    expect(await modWs.expectError({ type: "pin", messageId: rules.id })).toBe("Only an admin can pin or unpin an admin's message.");
    expect(await app.ctx.chat.messages.find(rules.id)).not.toBeNull();
    expect(await app.ctx.chat.messages.find(modLine.id)).not.toBeNull();

    // The admin pins the rules: a moderator's pin of a viewer's line would unpin them, so it is refused.
    adminWs.send({ type: "pin", messageId: rules.id });
    await viewerWs.next("message_updated", (e) => e.message.id === rules.id && e.message.isPinned);
    expect(await modWs.expectError({ type: "pin", messageId: viewerLine.id })).toBe("Only an admin can pin or unpin an admin's message.");
    expect((await app.ctx.chat.messages.find(rules.id))?.isPinned).toBe(true);

    // A viewer's line and their own are the moderator's to act on; the admin's to act on are all.
    modWs.send({ type: "delete_message", messageId: viewerLine.id });
    await viewerWs.next("message_deleted", (e) => e.messageId === viewerLine.id);
    modWs.send({ type: "delete_message", messageId: ownLine.id });
    await viewerWs.next("message_deleted", (e) => e.messageId === ownLine.id);
    adminWs.send({ type: "delete_message", messageId: modLine.id });
    await viewerWs.next("message_deleted", (e) => e.messageId === modLine.id);
    for (const ws of [adminWs, modWs, otherModWs, viewerWs]) ws.close();
  }, 30_000);
});

describe("look-alike names", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    await app.ctx.admins.create("warden", "warden@example.com", "s3cret-pass");
    await app.ctx.admins.create("boss", "boss@example.com", "s3cret-pass");
  });
  afterAll(() => app.close());

  const tryName = async (username: string, accessCode?: string) =>
    (await enter(app.client(), accessCode ?? (await app.ctx.access.issueAccessCode("SKP")).code, username, makeFingerprint())).body as { valid: boolean; message: string };

  test("no name that looks like an admin's, a moderator's or a reserved one is let in", async () => {
    await joinAs(app, "modmike", "MOD");
    for (const name of ["BOSS", "bоss", "ｂｏｓｓ", "b0ss", "В0SS", "аdmin", "ADMlN", "ｓｔａｆｆ", "mоdmike", "m0dmike", "rnodmike", "MODMlKE"]) {
      expect({ name, ...(await tryName(name)) }).toMatchObject({ name, valid: false, message: ACCESS_MESSAGES.usernameReserved });
    }
    expect(await tryName("bossa nova")).toMatchObject({ valid: true });
  }, 30_000);

  test("no viewer takes a name that looks like another viewer's; their own code may respell theirs", async () => {
    const code = (await app.ctx.access.issueAccessCode("SKP")).code;
    const fingerprint = makeFingerprint();
    const owner = app.client();
    expect((await enter(owner, code, "Raven", fingerprint)).body.valid).toBe(true);
    for (const name of ["Rаven", "RAVEN", "Ｒａｖｅｎ"]) {
      expect({ name, ...(await tryName(name)) }).toMatchObject({ name, valid: false, message: ACCESS_MESSAGES.usernameTaken });
    }
    expect((await enter(owner, code, "Rаven", fingerprint)).body.valid).toBe(true);
  }, 30_000);

  test("lines from the staff carry the server's mark, in the live chat and the history; a viewer's never do", async () => {
    const adminWs = await WsClient.connect(app, await adminOf(app));
    const modWs = await WsClient.connect(app, await joinAs(app, "Warden2", "MOD"));
    const viewer = await joinAs(app, "Faker");
    const viewerWs = await WsClient.connect(app, viewer);
    await say(adminWs, "from the admin");
    await say(modWs, "from a moderator");
    // A viewer cannot ask for the mark: what a frame says about itself is not read.
    viewerWs.send({ type: "chat", message: { text: "from the staff, honest", staff: "admin" }, staff: "admin", isAdmin: true });
    await viewerWs.next("chat", (e) => e.message.text === "from the staff, honest");

    const marks = (lines: { text: string; staff?: string }[]) => Object.fromEntries(lines.filter((m) => m.text.startsWith("from")).map((m) => [m.text, m.staff ?? null]));
    const expected = { "from the admin": "admin", "from a moderator": "moderator", "from the staff, honest": null };
    expect(marks(viewerWs.lines())).toEqual(expected);
    // A joining socket's history, and the history read back from the database.
    const late = await WsClient.connect(app, viewer);
    expect(marks(late.of("chatHistory")[0]!.messages)).toEqual(expected);
    await app.ctx.chat.messages.load();
    expect(marks(app.ctx.chat.messages.history())).toEqual(expected);
    for (const ws of [adminWs, modWs, viewerWs, late]) ws.close();
  }, 30_000);
});

describe("a kick", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test("holds the person: their code under a new name, their session and their stream are refused for the minute", async () => {
    const adminWs = await WsClient.connect(app, await adminOf(app));
    const fingerprint = makeFingerprint();
    const bob = app.client();
    const code = (await app.ctx.access.issueAccessCode("SKP")).code;
    expect((await enter(bob, code, "bob", fingerprint)).body.valid).toBe(true);
    const bobWs = await WsClient.connect(app, bob);
    expect((await bob.get("/api/stream/playback")).status).toBe(200);

    adminWs.send({ type: "kick_user", username: "bob" });
    expect((await bobWs.closed).code).toBe(WS_CLOSE_KICKED);

    // Back at once with the same code under a new name: the access page may let them in, the chat may not.
    await enter(bob, code, "bob2", fingerprint);
    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(bob) })).toBe(403);
    await expect(WsClient.connect(app, bob)).rejects.toThrow();
    expect((await bob.get("/api/stream/playback")).status).toBe(403);
    // Nor in a second browser on the same device.
    const again = app.client();
    await enter(again, code, "bobby", fingerprint);
    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(again) })).toBe(403);

    // Someone else is not held by it.
    const other = await joinAs(app, "bob3");
    (await WsClient.connect(app, other)).close();
    adminWs.close();
  }, 30_000);
});
