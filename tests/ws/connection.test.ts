import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { WS_MAX_FRAME_BYTES } from "../../src/contracts/chat.ts";
import { adminOf, startTestApp, type TestApp } from "../support/app.ts";
import { cookieOf, rawUpgrade, upgradeStatus, WsClient } from "../support/ws.ts";
import { joinAs, type Viewer } from "../support/viewer.ts";

let app: TestApp;
let viewer: Viewer;
beforeAll(async () => {
  app = await startTestApp({ publicUrl: "https://live.example.com" });
  viewer = await joinAs(app, "Umbra");
});
afterAll(() => app.close());

describe("the upgrade", () => {
  const cases: { name: string; headers: () => Record<string, string>; status: number }[] = [
    { name: "no session cookie", headers: () => ({ origin: app.origin }), status: 401 },
    { name: "an unknown session cookie", headers: () => ({ origin: app.origin, cookie: `dreadcast_viewer=${"a".repeat(64)}` }), status: 401 },
    { name: "another site's Origin", headers: () => ({ origin: "https://evil.example", cookie: cookieOf(viewer) }), status: 403 },
    { name: "a look-alike Origin", headers: () => ({ origin: `${app.origin}.evil.example`, cookie: cookieOf(viewer) }), status: 403 },
    { name: "no Origin at all", headers: () => ({ cookie: cookieOf(viewer) }), status: 403 },
    { name: "a session and our own Origin", headers: () => ({ origin: app.origin, cookie: cookieOf(viewer) }), status: 101 },
    { name: "a session and the public URL's Origin", headers: () => ({ origin: "https://live.example.com", cookie: cookieOf(viewer) }), status: 101 },
  ];
  for (const c of cases) {
    test(`with ${c.name} answers ${c.status}`, async () => {
      expect(await upgradeStatus(app, c.headers())).toBe(c.status);
    });
  }

  test("a refused upgrade leaves no socket behind and the server keeps serving", async () => {
    await Bun.sleep(50);
    const before = app.ctx.chat.realViewerCount();
    expect(await upgradeStatus(app, { origin: "https://evil.example", cookie: cookieOf(viewer) })).toBe(403);
    await Bun.sleep(50);
    expect(app.ctx.chat.realViewerCount()).toBe(before);
    expect((await app.client().get("/healthz")).status).toBe(200);
  });

  test("one person may hold only a few sockets at once", async () => {
    const person = await joinAs(app, "Manytabs");
    const tabs = [];
    for (let i = 0; i < 5; i++) tabs.push(await WsClient.connect(app, person));
    expect(await upgradeStatus(app, { origin: app.origin, cookie: cookieOf(person) })).toBe(429);
    tabs.pop()!.close();
    await Bun.sleep(50);
    tabs.push(await WsClient.connect(app, person));
    for (const t of tabs) t.close();
  });
});

describe("malformed frames get an error event and the socket stays open", () => {
  const cases: { name: string; frame: string | Uint8Array; error: string }[] = [
    { name: "not JSON", frame: "hello there", error: "Messages must be JSON objects with a type" },
    { name: "broken JSON", frame: '{"type": "chat_message", "text": ', error: "Messages must be JSON objects with a type" },
    { name: "a number", frame: "123", error: "Messages must be JSON objects with a type" },
    { name: "a JSON string", frame: '"chat_message"', error: "Messages must be JSON objects with a type" },
    { name: "an array", frame: '[{"type":"heart"}]', error: "Messages must be JSON objects with a type" },
    { name: "null", frame: "null", error: "Messages must be JSON objects with a type" },
    { name: "binary", frame: new Uint8Array([1, 2, 3]), error: "Messages must be JSON objects with a type" },
    { name: "no type", frame: '{"text":"hi"}', error: "Message type is missing" },
    { name: "an unknown type", frame: '{"type":"summon_demon"}', error: "Unknown message type 'summon_demon'" },
    { name: "a field of the wrong type", frame: '{"type":"chat_message","text":42}', error: "Invalid chat_message message: text: Invalid input: expected string, received number" },
    { name: "a missing messageId", frame: '{"type":"delete_message"}', error: "Invalid delete_message message: messageId: Invalid input: expected string, received undefined" },
    {
      name: "a big frame under the limit",
      frame: JSON.stringify({ type: "chat_message", text: "z".repeat(WS_MAX_FRAME_BYTES - 100) }),
      error: "Message must be 200 characters or less",
    },
  ];
  let ws: WsClient;
  beforeAll(async () => {
    ws = await WsClient.connect(app, viewer);
  });
  afterAll(() => ws.close());

  for (const c of cases) {
    test(c.name, async () => {
      expect(await ws.expectError(c.frame)).toBe(c.error);
      expect(ws.socket.readyState).toBe(WebSocket.OPEN);
    });
  }

  test("the socket still chats after all that", async () => {
    ws.send({ type: "chat_message", text: "still alive" });
    expect((await ws.next("chat", (e) => e.message.text === "still alive")).message.username).toBe("Umbra");
  });
});

test("a frame over the size limit closes only that socket (1009); others and the server carry on", async () => {
  const bystander = await WsClient.connect(app, await joinAs(app, "Bystander"));
  const flooder = await WsClient.connect(app, await joinAs(app, "Flooder"));
  flooder.send(JSON.stringify({ type: "chat_message", text: "w".repeat(64 * 1024) }));
  expect((await flooder.closed).code).toBe(1009);
  bystander.send({ type: "chat_message", text: "unbothered" });
  await bystander.next("chat", (e) => e.message.text === "unbothered");
  const again = await WsClient.connect(app, viewer);
  again.close();
  bystander.close();
});

test("a client that stops reading is dropped instead of buffered forever; the others keep up", async () => {
  const own = await startTestApp();
  try {
    const reader = await WsClient.connect(own, await joinAs(own, "Reader"));
    const stalled = await rawUpgrade(own, { origin: own.origin, cookie: cookieOf(await joinAs(own, "Stalled")) });
    expect(stalled.status).toBe(101);
    stalled.socket.pause();
    await Bun.sleep(50);
    expect(own.ctx.chat.realViewerCount()).toBe(2);
    const text = "x".repeat(32 * 1024);
    for (let i = 0; i < 1000 && own.ctx.chat.realViewerCount() === 2; i++) {
      own.ctx.chat.broadcast({ type: "system_message", message: text });
      await Bun.sleep(1);
    }
    expect(own.ctx.chat.realViewerCount()).toBe(1);
    reader.send({ type: "chat_message", text: "I kept up" });
    await reader.next("chat", (e) => e.message.text === "I kept up");
    stalled.socket.destroy();
  } finally {
    await own.close();
  }
}, 20_000);

test("shutting down closes sockets with 1001 going away", async () => {
  const own = await startTestApp();
  const ws = await WsClient.connect(own, await adminOf(own));
  await own.close();
  expect((await ws.closed).code).toBe(1001);
});
