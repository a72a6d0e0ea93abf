import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { acrossRestart, adminOf, startTestApp, type TestApp } from "../support/app.ts";
import { joinAs } from "../support/viewer.ts";
import { WsClient } from "../support/ws.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("chat between viewers", () => {
  test("a message from one viewer reaches both, with the server's shape", async () => {
    const alice = await WsClient.connect(app, await joinAs(app, "Alice"));
    const bram = await WsClient.connect(app, await joinAs(app, "Bram"));
    alice.send({ type: "chat_message", text: "Is anyone else hearing that?" });
    for (const ws of [alice, bram]) {
      const { message } = await ws.next("chat", (e) => e.message.text === "Is anyone else hearing that?");
      expect(message).toMatchObject({ username: "Alice", type: "user", isPinned: false });
      expect(typeof message.id).toBe("string");
      expect(new Date(message.timestamp).toISOString()).toBe(message.timestamp);
      expect(message.donation).toBeUndefined();
    }
    alice.close();
    bram.close();
  });

  test("the `chat` spelling works, and the name always comes from the session", async () => {
    const viewer = await joinAs(app, "Corvus");
    const ws = await WsClient.connect(app, viewer);
    ws.send({ type: "chat", message: { text: "from the old client" }, username: "Impostor", accessCode: "SCP-NOT-MINE" });
    const { message } = await ws.next("chat", (e) => e.message.text === "from the old client");
    expect(message.username).toBe("Corvus");
    ws.close();
  });

  test("authenticate is answered with the session's name and moderator flag, whatever the frame says", async () => {
    const ws = await WsClient.connect(app, await joinAs(app, "Dread"));
    ws.send({ type: "authenticate", username: "SomeoneElse", accessCode: "MOD-FAKE-CODE", isTestCode: true });
    expect(await ws.next("auth_ok")).toEqual({ type: "auth_ok", username: "Dread", isModerator: false });
    ws.close();
  });

  test("a new socket gets the history, the counts and the donation progress first", async () => {
    const writer = await WsClient.connect(app, await joinAs(app, "Elspeth"));
    writer.send({ type: "chat_message", text: "remember me" });
    await writer.next("chat");
    const late = await WsClient.connect(app, await joinAs(app, "Fenwick"));
    await late.next("donation_update");
    expect(late.events.slice(0, 5).map((e) => e.type)).toEqual(["chatHistory", "hearts", "viewer_count", "stats", "donation_update"]);
    const history = late.of("chatHistory")[0]!.messages;
    expect(history.at(-1)).toMatchObject({ username: "Elspeth", text: "remember me" });
    expect(late.of("donation_update")[0]).toEqual({ type: "donation_update", current: 0, goal: 5000 });
    writer.close();
    late.close();
  });

  test("history holds the last 100 messages, oldest first", async () => {
    const fresh = await startTestApp();
    try {
      for (let i = 1; i <= 120; i++) await fresh.ctx.chat.messages.add({ userId: null, username: "Ghoul", text: `line ${i}`, type: "user" });
      const ws = await WsClient.connect(fresh, await joinAs(fresh, "Hollow"));
      const history = ws.of("chatHistory")[0]!.messages;
      expect(history).toHaveLength(100);
      expect(history[0]!.text).toBe("line 21");
      expect(history[99]!.text).toBe("line 120");
      ws.close();
    } finally {
      await fresh.close();
    }
  });

  test("a window's lines stored in one write keep their order in the database; a line it refuses costs only itself", async () => {
    const fresh = await startTestApp();
    try {
      const { messages } = fresh.ctx.chat;
      await messages.add({ userId: null, username: "Ghoul", text: "before", type: "user" });
      const texts = ["one", "two", "bad", "three", "four"];
      // A line the database refuses (a type its check constraint does not allow).
      const results = await messages.addMany(texts.map((text) => ({ userId: null, username: "Ghoul", text, type: (text === "bad" ? "bogus" : "user") as "user" })));
      expect(results.map((r) => ("line" in r ? r.line.text : "refused"))).toEqual(["one", "two", "refused", "three", "four"]);
      const ids = results.flatMap((r) => ("line" in r ? [r.line.id] : []));
      expect(new Set(ids).size).toBe(4);
      // Read back from the database: the order they were sent in, after the line stored before them.
      await messages.load();
      expect(messages.history().map((m) => m.text)).toEqual(["before", "one", "two", "three", "four"]);
      expect(
        messages
          .history()
          .slice(1)
          .map((m) => m.id),
      ).toEqual(ids);
    } finally {
      await fresh.close();
    }
  });

  test("lines held by a busy chat are stored in their own transaction, even when an event sent from inside another one sends them", async () => {
    const fresh = await startTestApp();
    try {
      const { chat, store } = fresh.ctx;
      const post = (i: number) => chat.postLine({ userId: null, username: "Ghoul", text: `held ${i}`, type: "user" });
      const sent = Array.from({ length: 30 }, (_, i) => post(i));
      await Promise.all(sent);
      // Past 30 lines a second the next ones are held for the window; an event sent now sends them first,
      // from inside a transaction that then fails.
      for (let i = 30; i < 40; i++) sent.push(post(i));
      await store
        .tx(async () => {
          chat.broadcast({ type: "slow_mode", seconds: 0 });
          await Bun.sleep(50);
          throw new Error("this transaction fails");
        })
        .catch(() => {});
      const lines = await Promise.all(sent);
      expect(lines.map((l) => l?.text)).toEqual(Array.from({ length: 40 }, (_, i) => `held ${i}`));
      const stored = await store.all<{ text: string }>("SELECT text FROM chat_messages WHERE username = 'Ghoul' ORDER BY seq");
      expect(stored.map((r) => r.text)).toEqual(lines.map((l) => l!.text));
    } finally {
      await fresh.close();
    }
  });
});

describe("message text", () => {
  test("200 characters are accepted and 201 refused with an error event", async () => {
    const ws = await WsClient.connect(app, await joinAs(app, "Ichabod"));
    ws.send({ type: "chat_message", text: "x".repeat(200) });
    expect((await ws.next("chat")).message.text).toHaveLength(200);
    expect(await ws.expectError({ type: "chat_message", text: "y".repeat(201) })).toBe("Message must be 200 characters or less");
    await Bun.sleep(100);
    expect(ws.of("chat").some((e) => e.message.text.startsWith("y"))).toBe(false);
    ws.close();
  });

  test("text is trimmed, control characters stripped, and blank text refused", async () => {
    const ws = await WsClient.connect(app, await joinAs(app, "Jinx"));
    ws.send({ type: "chat_message", text: "  boo\u0000\u0007 \u202Egnirts\nline two\t " });
    expect((await ws.next("chat")).message.text).toBe("boo gnirts line two");
    expect(await ws.expectError({ type: "chat_message", text: "   \u0000 " })).toBe("Message cannot be empty");
    ws.close();
  });

  test("a viewer sending too fast gets a notice and the extra messages are dropped", async () => {
    const ws = await WsClient.connect(app, await joinAs(app, "Krampus"));
    for (let i = 1; i <= 8; i++) ws.send({ type: "chat_message", text: `spam ${i}` });
    const notice = await ws.next("system_message");
    expect(notice.message).toMatch(/^You are sending messages too fast\. Please wait \d+ seconds?\.$/);
    await Bun.sleep(200);
    const sent = ws.of("chat").filter((e) => e.message.username === "Krampus");
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeLessThanOrEqual(5);
    ws.close();
  });
});

test("the history survives a restart of the app on the same data dir", async () => {
  await acrossRestart(
    async (first) => {
      const viewer = await joinAs(first, "Lilith");
      const ws = await WsClient.connect(first, viewer);
      ws.send({ type: "chat_message", text: "still here after the lights go out" });
      await ws.next("chat");
      return viewer;
    },
    async (second, viewer) => {
      const again = second.client();
      for (const [k, v] of viewer.cookies) again.cookies.set(k, v);
      const back = await WsClient.connect(second, again);
      expect(back.of("chatHistory")[0]!.messages.map((m) => m.text)).toContain("still here after the lights go out");
      back.close();
    },
  );
});

test("saving the stream settings in the panel reaches everyone watching", async () => {
  const ws = await WsClient.connect(app, await joinAs(app, "Mothman"));
  const admin = await adminOf(app);
  const settings = {
    eventTitle: "The Hollow Hour",
    thumbnailUrl: "/assets/default-thumbnail.jpg",
    embedUrl: "https://player.example.com/embed/123",
    donationGoal: 10_000,
    isActive: true,
    startDate: "2030-10-31T23:00:00.000Z",
  };
  expect((await admin.put("/api/admin/livestream-settings", settings)).status).toBe(200);
  // With the night's phase: before the start, the doors not opened early.
  expect((await ws.next("settings_update")).settings).toEqual({
    ...settings,
    phase: "upcoming",
    night: { onAir: false, openedAt: null, wentLiveAt: null, endedAt: null, latestEnd: null, onSale: true, cancelledAt: null, cancelNote: "" },
  });
  expect((await ws.next("donation_update", (e) => e.goal === 10_000)).current).toBe(0);
  ws.close();
});
