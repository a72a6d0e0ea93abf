import { describe, expect, test } from "bun:test";
import type { ChatMessage, ServerEvent } from "../../contracts/chat.ts";
import { readServerFrame } from "../../contracts/chat-batch.ts";
import { ChatFanout, type CommitLines } from "./fanout.ts";
import type { NewMessage } from "./messages.ts";

const line = (n: number): ChatMessage => ({ id: String(n), username: "Mara", text: `line ${n}`, timestamp: new Date(0).toISOString(), type: "user", isPinned: false });

/** A fan-out on a clock the test moves, recording what it publishes. */
function setup(windowMs = 50, busyPerSecond = 5) {
  let clock = 0;
  const frames: ServerEvent[] = [];
  const fanout = new ChatFanout(
    (frame) => frames.push(readServerFrame(JSON.parse(frame))),
    { windowMs, busyPerSecond },
    () => clock,
  );
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

  describe("lines sent here, stored as they go out", () => {
    const draft = (n: number, username = "Mara"): NewMessage => ({ userId: 1, username, text: `line ${n}`, type: "user" });
    const stored = (d: NewMessage, n: number): ChatMessage => ({
      id: `s${n}`,
      username: d.username,
      text: d.text,
      timestamp: new Date(0).toISOString(),
      type: "user",
      isPinned: false,
    });

    /** A store that records each write and answers when the test lets it. */
    function storing(windowMs = 50, busyPerSecond = 3) {
      let clock = 0;
      let next = 0;
      const frames: ServerEvent[] = [];
      const writes: string[][] = [];
      let hold: Promise<void> = Promise.resolve();
      const refuse = new Set<string>();
      const commit: CommitLines = async (drafts) => {
        writes.push(drafts.map((d) => d.text));
        await hold;
        return drafts.map((d) => (refuse.has(d.text) ? { error: new Error(`refused ${d.text}`) } : { line: stored(d, ++next) }));
      };
      const fanout = new ChatFanout(
        (frame) => frames.push(readServerFrame(JSON.parse(frame))),
        { windowMs, busyPerSecond },
        () => clock,
        commit,
      );
      return {
        fanout,
        frames,
        writes,
        refuse,
        advance: (ms: number) => (clock += ms),
        holdWrites: () => {
          let release!: () => void;
          hold = new Promise((resolve) => (release = resolve));
          return release;
        },
      };
    }

    test("in a quiet chat a line is stored at once, goes out alone, and its sender hears back after it went out", async () => {
      const { fanout, frames, writes } = storing();
      const line = await fanout.submit(draft(1));
      expect(line).toEqual(stored(draft(1), 1));
      expect(writes).toEqual([["line 1"]]);
      expect(frames).toEqual([{ type: "chat", message: line! }]);
    });

    test("a busy window's lines are stored in one write, then go out in one frame, in the log's order", async () => {
      const { fanout, frames, writes, advance } = storing(40, 3);
      const sent: Promise<ChatMessage | null>[] = [];
      for (let n = 1; n <= 8; n++) {
        sent.push(fanout.submit(draft(n)));
        // The first three come before the chat counts as busy: each is stored and goes out before the next.
        if (n <= 3) await sent[n - 1];
        advance(5);
      }
      fanout.line(line(100));
      const lines = await Promise.all(sent);
      expect(writes).toEqual([["line 1"], ["line 2"], ["line 3"], ["line 4", "line 5", "line 6", "line 7", "line 8"]]);
      expect(frames).toEqual([
        { type: "chat", message: lines[0]! },
        { type: "chat", message: lines[1]! },
        { type: "chat", message: lines[2]! },
        // Line 100 was stored elsewhere before the window's lines were: it comes first, as in the history.
        { type: "chat_batch", messages: [line(100), ...lines.slice(3)] as ChatMessage[] },
      ]);
    });

    test("lines stored elsewhere go before the window's own up to an event, which keeps its place", async () => {
      const { fanout, frames, writes, advance } = storing(1000, 1);
      fanout.line(line(0));
      advance(5);
      const sent = [fanout.submit(draft(1))];
      fanout.line(line(50));
      sent.push(fanout.submit(draft(2)));
      fanout.line(line(51));
      // The event sends what is held: line 50 and 51 first, then this window's 1 and 2, then the event.
      fanout.event({ type: "message_deleted", messageId: "x" });
      sent.push(fanout.submit(draft(3)));
      fanout.line(line(52));
      await Promise.all(sent.slice(0, 2));
      fanout.flush();
      await Promise.all(sent);
      await fanout.settled();
      expect(writes).toEqual([["line 1", "line 2"], ["line 3"]]);
      expect(frames).toEqual([
        { type: "chat", message: line(0) },
        { type: "chat_batch", messages: [line(50), line(51), stored(draft(1), 1), stored(draft(2), 2)] },
        { type: "message_deleted", messageId: "x" },
        { type: "chat_batch", messages: [line(52), stored(draft(3), 3)] },
      ]);
    });

    test("in a quiet chat, lines that waited behind a slow write still go out one to a frame", async () => {
      const { fanout, frames, writes, holdWrites, advance } = storing(50, 3);
      const release = holdWrites();
      const sent = [fanout.submit(draft(1))];
      advance(300);
      sent.push(fanout.submit(draft(2)));
      advance(300);
      sent.push(fanout.submit(draft(3)));
      release();
      const lines = await Promise.all(sent);
      expect(writes).toEqual([["line 1"], ["line 2", "line 3"]]);
      expect(frames).toEqual(lines.map((message) => ({ type: "chat", message: message! })));
    });

    test("an event waits behind the write under way, and what came after it waits behind the event", async () => {
      const { fanout, frames, holdWrites, advance } = storing(1000, 2);
      await fanout.submit(draft(1));
      advance(5);
      const release = holdWrites();
      const second = fanout.submit(draft(2));
      fanout.event({ type: "message_deleted", messageId: "s1" });
      fanout.line(line(50));
      expect(frames).toHaveLength(1);
      release();
      await second;
      await fanout.settled();
      expect(frames.slice(1)).toEqual([
        { type: "chat", message: stored(draft(2), 2) },
        { type: "message_deleted", messageId: "s1" },
        { type: "chat", message: line(50) },
      ]);
    });

    test("a kicked or banned author's lines not yet stored never go out; the others do", async () => {
      const { fanout, frames, writes, advance } = storing(1000, 1);
      // One line out makes the chat busy (a threshold of one a second): the next ones are held.
      fanout.line(line(0));
      const sent = [fanout.submit(draft(1, "Troll")), fanout.submit(draft(2, "Mara")), fanout.submit(draft(3, "troll"))];
      advance(5);
      fanout.drop("TROLL");
      fanout.event({ type: "user_banned", username: "Troll" });
      expect(await Promise.all(sent)).toEqual([null, stored(draft(2), 1), null]);
      expect(writes).toEqual([["line 2"]]);
      expect(frames).toEqual([
        { type: "chat", message: line(0) },
        { type: "chat", message: stored(draft(2), 1) },
        { type: "user_banned", username: "Troll" },
      ]);
    });

    test("a line the store refuses costs only itself: its sender hears why, the others go out", async () => {
      const { fanout, frames, refuse } = storing(1000, 1);
      refuse.add("line 2");
      fanout.line(line(0));
      const sent = [1, 2, 3].map((n) =>
        fanout.submit(draft(n)).then(
          (l) => l,
          (e: Error) => e.message,
        ),
      );
      fanout.flush();
      expect(await Promise.all(sent)).toEqual([stored(draft(1), 1), "refused line 2", stored(draft(3), 2)]);
      expect(frames).toEqual([
        { type: "chat", message: line(0) },
        { type: "chat_batch", messages: [stored(draft(1), 1), stored(draft(3), 2)] },
      ]);
    });

    test("a write that fails whole tells every sender of the window, and the chat goes on", async () => {
      let fail = true;
      const frames: ServerEvent[] = [];
      const fanout = new ChatFanout(
        (frame) => frames.push(readServerFrame(JSON.parse(frame))),
        { windowMs: 10, busyPerSecond: 1 },
        () => 0,
        async (drafts) => {
          if (fail) throw new Error("database is locked");
          return drafts.map((d, i) => ({ line: stored(d, i + 1) }));
        },
      );
      const sent = [fanout.submit(draft(1)), fanout.submit(draft(2))].map((p) => p.catch((e: Error) => e.message));
      expect(await Promise.all(sent)).toEqual(["database is locked", "database is locked"]);
      expect(frames).toEqual([]);
      fail = false;
      expect(await fanout.submit(draft(3))).toEqual(stored(draft(3), 1));
      expect(frames).toEqual([{ type: "chat", message: stored(draft(3), 1) }]);
    });
  });
});
