import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ChatMessage } from "../../src/contracts/chat.ts";
import { DEFAULT_CHAT_BATCHING } from "../../src/modules/chat/fanout.ts";
import { adminOf, startTestApp, type TestApp } from "../support/app.ts";
import { cookieOf, rawUpgrade, WsClient } from "../support/ws.ts";
import { joinAs, type Viewer } from "../support/viewer.ts";
import { eventually } from "../support/eventually.ts";

/** More people than the busy threshold, so one line from each makes the chat busy. */
const CROWD = DEFAULT_CHAT_BATCHING.busyPerSecond + 6;
const WINDOW_MS = 300;

let app: TestApp;
let crowd: Viewer[];
let sockets: WsClient[];
let watcher: WsClient;
let burstNo = 0;

beforeAll(async () => {
  app = await startTestApp({ chatBatchMs: WINDOW_MS, trustProxy: ["127.0.0.1"] });
  crowd = [];
  // Each from an address of its own, as a crowd is: one address would meet the code-check limit.
  for (let i = 0; i < CROWD; i++) crowd.push(await joinAs(app, `Crowd${i}`, "SCP", { "x-forwarded-for": `198.18.7.${i + 1}` }));
  sockets = await Promise.all(crowd.map((v) => WsClient.connect(app, v)));
  watcher = await WsClient.connect(app, await adminOf(app));
}, 60_000);
afterAll(() => app.close());

/** Waits out the busy second and the per-person chat limits, then everyone says one line at once. */
async function burst(): Promise<string[]> {
  await Bun.sleep(1100);
  const n = ++burstNo;
  const texts = sockets.map((_, i) => `burst ${n} from ${i}`);
  sockets.forEach((ws, i) => ws.send({ type: "chat_message", text: texts[i] }));
  return texts;
}

const texts = (lines: ChatMessage[]) => lines.map((m) => m.text);
const framesCarrying = (ws: WsClient, wanted: Set<string>) =>
  ws.events.flatMap((e, index) => ((e.type === "chat" && wanted.has(e.message.text)) || (e.type === "chat_batch" && e.messages.some((m) => wanted.has(m.text))) ? [index] : []));

describe("batched chat fan-out", () => {
  test("a quiet chat is never held: each line goes out alone, as a chat frame", async () => {
    const from = watcher.events.length;
    for (let i = 0; i < 5; i++) {
      sockets[i]!.send({ type: "chat_message", text: `quiet ${i}` });
      await watcher.next("chat", (e) => e.message.text === `quiet ${i}`);
      await Bun.sleep(120);
    }
    const frames = watcher.events.slice(from).filter((e) => e.type === "chat" || e.type === "chat_batch");
    expect(frames.map((e) => e.type)).toEqual(["chat", "chat", "chat", "chat", "chat"]);
  });

  test("a busy chat goes out in batches: every line to every viewer once, in the stored order", async () => {
    const sent = await burst();
    const wanted = new Set(sent);
    for (const ws of [watcher, ...sockets]) {
      await eventually(() => texts(ws.lines()).filter((t) => wanted.has(t)).length === sent.length, 5000);
    }
    const stored = app.ctx.chat.messages
      .history()
      .filter((m) => wanted.has(m.text))
      .map((m) => m.text);
    expect(stored).toHaveLength(sent.length);
    for (const ws of [watcher, ...sockets]) {
      expect(texts(ws.lines()).filter((t) => wanted.has(t))).toEqual(stored);
    }
    const frames = framesCarrying(watcher, wanted).map((i) => watcher.events[i]!);
    expect(frames.length).toBeLessThan(sent.length);
    expect(frames.some((e) => e.type === "chat_batch" && e.messages.length > 1)).toBe(true);
  });

  test("a socket that joins while lines are held gets each of them once: in the batch, not also in its history", async () => {
    const sent = await burst();
    const late = await WsClient.connect(app, crowd[0]!);
    const wanted = new Set(sent);
    await eventually(
      () => texts(late.lines()).filter((t) => wanted.has(t)).length + texts(late.of("chatHistory")[0]!.messages).filter((t) => wanted.has(t)).length === sent.length,
      5000,
    );
    const fromHistory = texts(late.of("chatHistory")[0]!.messages).filter((t) => wanted.has(t));
    const live = texts(late.lines()).filter((t) => wanted.has(t));
    expect([...fromHistory, ...live].sort()).toEqual([...sent].sort());
    expect(live.length).toBeGreaterThan(0);
    late.close();
  });

  test("a delete and a ban sent while lines are held come after those lines", async () => {
    const earlier = watcher.lines().find((m) => m.text === "quiet 0")!;
    const target = crowd.at(-1)!;
    const sent = await burst();
    const wanted = new Set(sent);
    await eventually(() => app.ctx.chat.messages.history().filter((m) => wanted.has(m.text)).length === sent.length);
    watcher.send({ type: "delete_message", messageId: earlier.id });
    watcher.send({ type: "ban_user", username: target.username });
    const deleted = await watcher.next("message_deleted", (e) => e.messageId === earlier.id);
    const banned = await watcher.next("user_banned", (e) => e.username === target.username);
    const carrying = framesCarrying(watcher, wanted);
    expect(carrying.length).toBeGreaterThan(0);
    expect(Math.max(...carrying)).toBeLessThan(watcher.events.indexOf(deleted));
    expect(watcher.events.indexOf(deleted)).toBeLessThan(watcher.events.indexOf(banned));
    expect((await sockets.at(-1)!.closed).code).toBe(4003);
  });
});

test("in a busy chat a client that stops reading is still dropped, and the others get every line", async () => {
  const own = await startTestApp();
  try {
    const reader = await WsClient.connect(own, await joinAs(own, "Reader"));
    const stalled = await rawUpgrade(own, { origin: own.origin, cookie: cookieOf(await joinAs(own, "Stalled")) });
    expect(stalled.status).toBe(101);
    stalled.socket.pause();
    await Bun.sleep(50);
    const text = "y".repeat(200);
    let sent = 0;
    for (; sent < 60_000 && own.ctx.chat.realViewerCount() === 2; sent++) {
      // Straight to the fan-out (what is tested here), not through the database.
      const message = { id: `line${sent}`, username: "Narrator", text: `${sent} ${text}`, timestamp: new Date().toISOString(), type: "user" as const, isPinned: false };
      own.ctx.chat.broadcast({ type: "chat", message });
      if (sent % 20 === 0) await Bun.sleep(1);
    }
    expect(own.ctx.chat.realViewerCount()).toBe(1);
    await eventually(() => reader.lines().length >= sent, 5000);
    expect(reader.lines().map((m) => Number(m.text.split(" ")[0]))).toEqual(Array.from({ length: sent }, (_, i) => i));
    expect(reader.of("chat_batch").length).toBeGreaterThan(0);
    stalled.socket.destroy();
  } finally {
    await own.close();
  }
}, 30_000);
