import { describe, expect, test } from "bun:test";
import type { ChatMessage, ServerEvent } from "../../contracts/chat.ts";
import { ChatFanout } from "./fanout.ts";

const line = (n: number): ChatMessage => ({ id: String(n), username: "Mara", text: `line ${n}`, timestamp: new Date(0).toISOString(), type: "user", isPinned: false });

/** A fan-out on a clock the test moves, recording what it publishes. */
function setup(windowMs = 50, busyPerSecond = 5) {
  let clock = 0;
  const frames: ServerEvent[] = [];
  const fanout = new ChatFanout((frame) => frames.push(JSON.parse(frame)), { windowMs, busyPerSecond }, () => clock);
  return { fanout, frames, advance: (ms: number) => (clock += ms) };
}

describe("ChatFanout", () => {
  test("a chat slower than the threshold sends each line at once, as a chat frame", () => {
    const { fanout, frames, advance } = setup();
    for (let n = 1; n <= 20; n++) {
      fanout.line(line(n));
      expect(frames.at(-1)).toEqual({ type: "chat", message: line(n) });
      advance(250);
    }
    expect(frames).toHaveLength(20);
  });

  test("from the threshold on, lines are held and go out together, in order, once the window ends", async () => {
    const { fanout, frames, advance } = setup(30, 5);
    for (let n = 1; n <= 12; n++) {
      fanout.line(line(n));
      advance(10);
    }
    // The first five arrive before the chat is busy; the sixth opens a window.
    expect(frames.map((f) => f.type)).toEqual(["chat", "chat", "chat", "chat", "chat"]);
    expect(fanout.held().map((m) => m.id)).toEqual(["6", "7", "8", "9", "10", "11", "12"]);
    await Bun.sleep(60);
    expect(frames.at(-1)).toEqual({ type: "chat_batch", messages: [6, 7, 8, 9, 10, 11, 12].map(line) });
    expect(fanout.held()).toHaveLength(0);
  });

  test("any other event sends the held lines first, so it keeps its place after them", () => {
    const { fanout, frames, advance } = setup(1000, 2);
    for (let n = 1; n <= 4; n++) {
      fanout.line(line(n));
      advance(5);
    }
    fanout.event({ type: "message_deleted", messageId: "4" });
    fanout.line(line(5));
    fanout.event({ type: "user_banned", username: "Mara" });
    expect(frames).toEqual([
      { type: "chat", message: line(1) },
      { type: "chat", message: line(2) },
      { type: "chat_batch", messages: [line(3), line(4)] },
      { type: "message_deleted", messageId: "4" },
      { type: "chat", message: line(5) },
      { type: "user_banned", username: "Mara" },
    ]);
  });

  test("a window of 0 turns batching off however busy the chat", () => {
    const { fanout, frames } = setup(0, 2);
    for (let n = 1; n <= 50; n++) fanout.line(line(n));
    expect(frames).toEqual(Array.from({ length: 50 }, (_, i) => ({ type: "chat", message: line(i + 1) })));
  });

  test("a quiet spell after a busy one sends at once again", async () => {
    const { fanout, frames, advance } = setup(20, 3);
    for (let n = 1; n <= 6; n++) fanout.line(line(n));
    await Bun.sleep(40);
    advance(1500);
    fanout.line(line(7));
    expect(frames.at(-1)).toEqual({ type: "chat", message: line(7) });
  });
});
