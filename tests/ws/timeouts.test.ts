import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { acrossRestart, adminOf, startTestApp, type TestApp } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { enter, joinAs } from "../support/viewer.ts";
import { say, WsClient } from "../support/ws.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** Sends a line that must be held back, and returns the notice the sender got instead. */
async function refused(ws: WsClient, text: string): Promise<string> {
  const seen = new Set(ws.of("system_message"));
  ws.send({ type: "chat_message", text });
  return (await ws.next("system_message", (e) => !seen.has(e) && /^(You are timed out|Slow mode is on\.)/.test(e.message))).message;
}

test("a viewer who is not a moderator cannot time out, lift a timeout or set slow mode", async () => {
  const victim = await WsClient.connect(app, await joinAs(app, "Glimmer"));
  const troll = await WsClient.connect(app, await joinAs(app, "Gremlin", "SKP"));
  for (const frame of [
    { type: "timeout_user", username: "Glimmer", seconds: 600 },
    { type: "lift_timeout", username: "Glimmer" },
    { type: "slow_mode", seconds: 30 },
  ]) {
    expect(await troll.expectError(frame)).toBe("Only moderators can do that.");
  }
  expect(app.ctx.chat.moderation.timeouts.secondsLeft({ userId: null, username: "Glimmer", accessCodeId: null })).toBe(0);
  expect(app.ctx.chat.moderation.slowModeSeconds()).toBe(0);
  await say(victim, "still free");
  victim.close();
  troll.close();
});

test("bad timeout frames are refused with a clear error", async () => {
  const mod = await WsClient.connect(app, await joinAs(app, "Keeper0", "MOD"));
  await WsClient.connect(app, await joinAs(app, "Target0"));
  expect(await mod.expectError({ type: "timeout_user", username: "Target0", seconds: 59 })).toBe("Invalid timeout_user message: seconds: A timeout lasts at least 60 seconds");
  expect(await mod.expectError({ type: "timeout_user", username: "Target0", seconds: 86_401 })).toBe(
    "Invalid timeout_user message: seconds: A timeout lasts at most 86400 seconds",
  );
  expect(await mod.expectError({ type: "timeout_user", username: "Target0", seconds: 90.5 })).toBe("Invalid timeout_user message: seconds: seconds must be a whole number");
  expect(await mod.expectError({ type: "timeout_user", username: "Target0", seconds: "300" })).toBe("Invalid timeout_user message: seconds: seconds must be a number");
  expect(await mod.expectError({ type: "timeout_user", seconds: 300 })).toStartWith("Invalid timeout_user message: username");
  expect(await mod.expectError({ type: "timeout_user", username: "Keeper0", seconds: 300 })).toBe("You cannot time out yourself.");
  expect(await mod.expectError({ type: "timeout_user", username: "NoSuchSoul", seconds: 300 })).toBe("There is no user named 'NoSuchSoul'.");
  await WsClient.connect(app, await joinAs(app, "Keeper00", "MOD"));
  expect(await mod.expectError({ type: "timeout_user", username: "keeper00", seconds: 300 })).toBe("Only an admin can time out a moderator.");
  await adminOf(app);
  expect(await mod.expectError({ type: "timeout_user", username: "warden", seconds: 300 })).toBe("Admins cannot be timed out.");
  expect(await mod.expectError({ type: "lift_timeout", username: "Target0" })).toBe("Target0 is not timed out.");
  mod.close();
});

describe("a timeout", () => {
  test("mutes the viewer's lines and hearts with the time left; everyone sees a system line; others chat on", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Keeper1", "MOD"));
    const target = await WsClient.connect(app, await joinAs(app, "Wraith"));
    const other = await WsClient.connect(app, await joinAs(app, "Bystander"));
    mod.send({ type: "timeout_user", username: "wraith", seconds: 300 });

    for (const ws of [mod, target, other]) await ws.next("system_message", (e) => e.message === "Wraith has been timed out for 5 minutes.");
    expect(await target.next("chat_cooldown")).toEqual({ type: "chat_cooldown", reason: "timeout", seconds: 300 });
    await target.next("system_message", (e) => e.message === "A moderator has timed you out for 5 minutes. You can still watch.");

    expect(await refused(target, "let me speak")).toMatch(/^You are timed out\. You can chat again in (5 minutes|4 minutes 5\d seconds)\.$/);
    expect(target.of("chat_cooldown").at(-1)).toMatchObject({ reason: "timeout" });
    const hearts = app.ctx.chat.heartCount();
    expect(await target.expectError({ type: "send_heart" })).toMatch(/^You are timed out\. You can send hearts again in /);
    expect(app.ctx.chat.heartCount()).toBe(hearts);

    await say(other, "the rest of us carry on");
    await Bun.sleep(150);
    expect(other.of("chat").some((e) => e.message.text === "let me speak")).toBe(false);
    // Still watching: the socket is open and counts arrive.
    expect(target.socket.readyState).toBe(WebSocket.OPEN);
    for (const ws of [mod, target, other]) ws.close();
  });

  test("holds on a new socket and under a new chat name on the same code, and can be lifted early", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Keeper2", "MOD"));
    const viewer = await joinAs(app, "Revenant", "SKP");
    const first = await WsClient.connect(app, viewer);
    mod.send({ type: "timeout_user", username: "Revenant", seconds: 3600 });
    await first.next("chat_cooldown");
    first.close();

    const again = await WsClient.connect(app, viewer);
    const cooldown = await again.next("chat_cooldown");
    expect(cooldown.reason).toBe("timeout");
    expect(cooldown.seconds).toBeGreaterThan(3590);
    expect(await refused(again, "new socket, same me")).toStartWith("You are timed out. You can chat again in ");
    again.close();

    // The same code under another name (from its own device) is the same person.
    expect((await enter(viewer, viewer.accessCode, "NotRevenant", viewer.fingerprint)).body.valid).toBe(true);
    const renamed = await WsClient.connect(app, viewer);
    renamed.send({ type: "authenticate" });
    expect((await renamed.next("auth_ok")).username).toBe("NotRevenant");
    expect(await refused(renamed, "it's not me")).toStartWith("You are timed out. You can chat again in ");

    mod.send({ type: "lift_timeout", username: "NotRevenant" });
    expect(await renamed.next("chat_cooldown", (e) => e.seconds === 0)).toEqual({ type: "chat_cooldown", reason: "timeout", seconds: 0 });
    await mod.next("system_message", (e) => e.message === "NotRevenant can chat again.");
    await say(renamed, "free again");
    expect(await mod.expectError({ type: "lift_timeout", username: "NotRevenant" })).toBe("NotRevenant is not timed out.");
    mod.close();
    renamed.close();
  });

  test("an admin can time out a moderator", async () => {
    const admin = await WsClient.connect(app, await adminOf(app));
    const mod = await WsClient.connect(app, await joinAs(app, "Keeper3", "MOD"));
    admin.send({ type: "timeout_user", username: "Keeper3", seconds: 60 });
    expect((await mod.next("chat_cooldown")).seconds).toBe(60);
    expect(await refused(mod, "but I moderate")).toMatch(/^You are timed out\. You can chat again in (1 minute|\d+ seconds)\.$/);
    admin.close();
    mod.close();
  });

  test("a timed-out donor's money counts, but no donation line is shown and they are told why", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Keeper4", "MOD"));
    const donor = await joinAs(app, "Banshee");
    const donorWs = await WsClient.connect(app, donor);
    const watcher = await WsClient.connect(app, await joinAs(app, "Watcher"));
    mod.send({ type: "timeout_user", username: "Banshee", seconds: 600 });
    await donorWs.next("chat_cooldown");

    const before = await app.ctx.settings.donationTotal();
    const intent = await donor.post("/api/create-donation-intent", { amount: 700 });
    expect(intent.status).toBe(200);
    const paid = await donor.post("/api/demo/confirm-payment", { clientSecret: intent.body.clientSecret, cardNumber: "4242 4242 4242 4242" });
    expect(paid.status).toBe(200);
    await watcher.next("donation_update", (e) => e.current === before + 700);
    donorWs.send({ type: "donation", paymentIntentId: paid.body.paymentIntent.id });
    await donorWs.next("system_message", (e) => e.message.startsWith("Thank you: your donation counts, but it is not shown in the chat while you are timed out"));
    expect(watcher.of("chat").filter((e) => e.message.type === "donation")).toHaveLength(0);
    for (const ws of [mod, donorWs, watcher]) ws.close();
  });
});

test("a timeout survives a restart of the server", async () => {
  await acrossRestart(
    async (first) => {
      const viewer = await joinAs(first, "Poltergeist");
      const mod = await WsClient.connect(first, await joinAs(first, "Keeper5", "MOD"));
      const ws = await WsClient.connect(first, viewer);
      mod.send({ type: "timeout_user", username: "Poltergeist", seconds: 600 });
      await ws.next("chat_cooldown");
      return viewer;
    },
    async (second, viewer) => {
      const again = second.client();
      for (const [k, v] of viewer.cookies) again.cookies.set(k, v);
      const back = await WsClient.connect(second, again);
      const cooldown = await back.next("chat_cooldown");
      expect(cooldown.reason).toBe("timeout");
      expect(cooldown.seconds).toBeGreaterThan(590);
      expect(await refused(back, "did the lights reset it?")).toStartWith("You are timed out. You can chat again in ");
      back.close();
    },
  );
});

describe("slow mode", () => {
  test("set by a moderator: everyone is told, the server enforces it per person, moderators are exempt, then off", async () => {
    const mod = await WsClient.connect(app, await joinAs(app, "Keeper6", "MOD"));
    const viewer = await joinAs(app, "Sloth");
    const ws = await WsClient.connect(app, viewer);
    expect(await ws.next("slow_mode")).toEqual({ type: "slow_mode", seconds: 0 });
    expect(await mod.expectError({ type: "slow_mode", seconds: 7 })).toBe("Invalid slow_mode message: seconds: Slow mode must be 5, 10, 30, 60, 120 seconds or 0 (off)");

    mod.send({ type: "slow_mode", seconds: 5 });
    for (const c of [mod, ws]) {
      await c.next("slow_mode", (e) => e.seconds === 5);
      await c.next("system_message", (e) => e.message === "Slow mode is on: one message every 5 seconds.");
    }
    // A socket that joins now learns it at once.
    const late = await WsClient.connect(app, viewer);
    expect(await late.next("slow_mode")).toEqual({ type: "slow_mode", seconds: 5 });

    await say(ws, "first under slow mode");
    expect(await ws.next("chat_cooldown")).toEqual({ type: "chat_cooldown", reason: "slow_mode", seconds: 5 });
    // Any socket of the same person waits too.
    expect(await refused(late, "too soon")).toMatch(/^Slow mode is on\. You can send another message in [45] seconds\.$/);
    expect(await late.next("chat_cooldown")).toMatchObject({ reason: "slow_mode" });
    await say(mod, "moderators are exempt 1");
    await say(mod, "moderators are exempt 2");
    expect(mod.of("chat_cooldown")).toHaveLength(0);

    await Bun.sleep(5100);
    await say(ws, "second, after the wait");

    mod.send({ type: "slow_mode", seconds: 0 });
    await ws.next("system_message", (e) => e.message === "Slow mode is off.");
    await say(ws, "free flowing again");
    for (const c of [mod, ws, late]) c.close();
  }, 15_000);

  test("the admin panel's chat rules change slow mode in an open chat, and it survives in the log", async () => {
    const ws = await WsClient.connect(app, await joinAs(app, "Lurker"));
    const admin = await adminOf(app);
    const rules = (await admin.get("/api/admin/chat-rules")).body;
    expect((await admin.put("/api/admin/chat-rules", { ...rules, slowModeSeconds: 30 })).status).toBe(200);
    await ws.next("slow_mode", (e) => e.seconds === 30);
    await say(ws, "one");
    expect(await refused(ws, "two")).toMatch(/^Slow mode is on\. You can send another message in (30|29) seconds\.$/);
    expect((await admin.put("/api/admin/chat-rules", { ...rules, slowModeSeconds: 0 })).status).toBe(200);
    await ws.next("slow_mode", (e) => e.seconds === 0);
    await eventually(async () => (await app.ctx.chat.moderation.log.list({ action: "slow_mode" })).length >= 2);
    ws.close();
  });
});
