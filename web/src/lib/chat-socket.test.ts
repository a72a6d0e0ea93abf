import { describe, expect, test } from "bun:test";
import type { ServerEvent } from "@contracts/chat";
import { ChatSocket, chatSocketUrl, parseEvent, reconnectDelay, type ChatSocketEnvironment, type ConnectionStatus } from "./chat-socket";

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: ((close: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.();
  }
  serverSends(event: unknown) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  serverCloses(code = 1006, reason = "") {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

function harness(options: { pathname?: string; protocol?: string } = {}) {
  FakeSocket.all = [];
  const timers: { ms: number; run: () => void; cleared: boolean }[] = [];
  const listeners = new Map<string, () => void>();
  const document = {
    visibilityState: "visible" as DocumentVisibilityState,
    addEventListener: (type: string, listener: () => void) => listeners.set(type, listener),
    removeEventListener: (type: string) => listeners.delete(type),
  };
  const environment = {
    WebSocket: FakeSocket,
    document,
    location: { protocol: options.protocol ?? "http:", host: "event.example:8080", pathname: options.pathname ?? "/livestream" },
    setTimeout: (run: () => void, ms: number) => {
      const timer = { ms, run, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer: unknown) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  } as unknown as ChatSocketEnvironment;
  const events: ServerEvent[] = [];
  const statuses: ConnectionStatus[] = [];
  const socket = new ChatSocket({
    environment,
    onEvent: (event) => events.push(event),
    onStatus: (status) => statuses.push(status),
    authenticate: () => ({ type: "authenticate", username: "Ghoul", accessCode: "SKP-ABCDEFGH", isTestCode: false }),
  });
  const pending = () => timers.filter((t) => !t.cleared);
  const runTimers = () => {
    for (const timer of pending()) {
      timer.cleared = true;
      timer.run();
    }
  };
  return { socket, events, statuses, timers, pending, runTimers, document, listeners, last: () => FakeSocket.all.at(-1)! };
}

describe("reconnectDelay", () => {
  test("grows 1.5× from 1 s and stops at 30 s", () => {
    expect([0, 1, 2, 3, 4].map(reconnectDelay)).toEqual([1000, 1500, 2250, 3375, 5062.5]);
    expect(reconnectDelay(8)).toBeCloseTo(25_628.9, 1);
    expect(reconnectDelay(9)).toBe(30_000);
    expect(reconnectDelay(50)).toBe(30_000);
  });
});

describe("chatSocketUrl", () => {
  test("uses ws on http pages and wss on https pages, on the page's host", () => {
    expect(chatSocketUrl({ protocol: "http:", host: "localhost:3000" })).toBe("ws://localhost:3000/ws");
    expect(chatSocketUrl({ protocol: "https:", host: "event.example" })).toBe("wss://event.example/ws");
  });
});

describe("parseEvent", () => {
  test("accepts the protocol's events and ignores anything else", () => {
    expect(parseEvent('{"type":"hearts","count":3}')).toEqual({ type: "hearts", count: 3 });
    expect(parseEvent('{"type":"nope"}')).toBeNull();
    expect(parseEvent('{"type":"toString"}')).toBeNull();
    expect(parseEvent("[1]")).toBeNull();
    expect(parseEvent("not json")).toBeNull();
  });

  test("reads a busy chat's packed batch as its messages, skipping a line that is not one", () => {
    const frame = JSON.stringify({
      type: "chat_batch",
      lines: [
        ["m1", "Ghoul", "first", Date.UTC(2026, 9, 31, 23, 0, 0, 5)],
        ["m2", "Ghoul", "broken", "yesterday"],
        ["m3", "Banshee", "Banshee donated £5.00", Date.UTC(2026, 9, 31, 23, 0, 1), "donation", 0, 5],
        ["m4", "System", "welcome", Date.UTC(2026, 9, 31, 23, 0, 2), "system", 1],
      ],
    });
    expect(parseEvent(frame)).toEqual({
      type: "chat_batch",
      messages: [
        { id: "m1", username: "Ghoul", text: "first", timestamp: "2026-10-31T23:00:00.005Z", type: "user", isPinned: false },
        { id: "m3", username: "Banshee", text: "Banshee donated £5.00", timestamp: "2026-10-31T23:00:01.000Z", type: "donation", isPinned: false, donation: 5 },
        { id: "m4", username: "System", text: "welcome", timestamp: "2026-10-31T23:00:02.000Z", type: "system", isPinned: true },
      ],
    });
    expect(parseEvent('{"type":"chat_batch","lines":"nope"}')).toEqual({ type: "chat_batch", messages: [] });
  });
});

describe("ChatSocket", () => {
  test("connects to /ws, authenticates once open and hands events over", () => {
    const h = harness({ protocol: "https:" });
    h.socket.start();
    expect(h.last().url).toBe("wss://event.example:8080/ws");
    expect(h.socket.state).toBe("connecting");
    h.last().serverOpens();
    expect(h.socket.state).toBe("open");
    expect(JSON.parse(h.last().sent[0]!)).toEqual({ type: "authenticate", username: "Ghoul", accessCode: "SKP-ABCDEFGH", isTestCode: false });
    h.last().serverSends({ type: "viewer_count", count: 12 });
    expect(h.events).toEqual([{ type: "viewer_count", count: 12 }]);
    expect(h.socket.send({ type: "send_heart" })).toBe(true);
    expect(h.last().sent[1]).toBe('{"type":"send_heart"}');
  });

  test("never connects on admin routes", () => {
    const h = harness({ pathname: "/admin/dashboard" });
    h.socket.start();
    expect(FakeSocket.all).toHaveLength(0);
    expect(h.socket.send({ type: "send_heart" })).toBe(false);
  });

  test("reconnects with the backoff while visible and resets the attempts on open", () => {
    const h = harness();
    h.socket.start();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      h.last().serverCloses();
      delays.push(h.pending()[0]!.ms);
      h.runTimers();
    }
    expect(delays).toEqual([1000, 1500, 2250, 3375]);
    expect(FakeSocket.all).toHaveLength(5);
    expect(h.statuses.at(-1)!.attempt).toBe(4);
    h.last().serverOpens();
    expect(h.statuses.at(-1)).toEqual({ state: "open", attempt: 0, removedWith: null });
    h.last().serverCloses();
    expect(h.pending()[0]!.ms).toBe(1000);
  });

  test("waits while the page is hidden, then reconnects when it becomes visible", () => {
    const h = harness();
    h.socket.start();
    h.last().serverOpens();
    h.document.visibilityState = "hidden";
    h.last().serverCloses();
    expect(h.pending()).toHaveLength(0);
    expect(FakeSocket.all).toHaveLength(1);
    h.document.visibilityState = "visible";
    h.listeners.get("visibilitychange")!();
    expect(FakeSocket.all).toHaveLength(2);
  });

  test("a kick or ban stops automatic reconnects; the manual reconnect still works", () => {
    const h = harness();
    h.socket.start();
    h.last().serverOpens();
    h.last().serverCloses(4003, "Banned");
    expect(h.pending()).toHaveLength(0);
    expect(h.statuses.at(-1)).toEqual({ state: "closed", attempt: 0, removedWith: 4003, removedBecause: "Banned" });
    h.listeners.get("visibilitychange")!();
    expect(FakeSocket.all).toHaveLength(1);
    h.socket.reconnect();
    expect(FakeSocket.all).toHaveLength(2);
    expect(h.socket.state).toBe("connecting");
  });

  test("the manual reconnect drops a pending retry and starts from the first delay", () => {
    const h = harness();
    h.socket.start();
    h.last().serverCloses();
    h.runTimers();
    h.last().serverCloses();
    expect(h.pending()).toHaveLength(1);
    h.socket.reconnect();
    expect(h.pending()).toHaveLength(0);
    expect(FakeSocket.all).toHaveLength(3);
    h.last().serverCloses();
    expect(h.pending()[0]!.ms).toBe(1000);
  });

  test("stop closes the socket and plans nothing more", () => {
    const h = harness();
    h.socket.start();
    const first = h.last();
    first.serverOpens();
    h.socket.stop();
    expect(first.closedWith).toBe(1000);
    first.serverCloses(1000);
    expect(h.pending()).toHaveLength(0);
    expect(h.listeners.has("visibilitychange")).toBe(false);
  });
});
