import { describe, expect, test } from "bun:test";
import type { ChatMessage } from "@contracts/chat";
import type { ReplayChat } from "@contracts/replay";
import { chatAtCut, chatCutAt, indexReplayChat, sameCut } from "./replay-chat";

const T0 = Date.parse("2026-10-31T21:00:00.000Z");
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const line = (id: string, seconds: number): ChatMessage => ({ id, username: "Nyx", text: `line ${id}`, timestamp: iso(seconds), type: "user", isPinned: false });

const CHAT: ReplayChat = {
  lines: [line("a", 1), line("b", 5), line("c", 9), line("d", 12)],
  events: [
    { messageId: "a", kind: "pin", at: iso(6) },
    { messageId: "b", kind: "delete", at: iso(8) },
    { messageId: "c", kind: "pin", at: iso(10) },
    { messageId: "c", kind: "unpin", at: iso(13) },
  ],
};

const index = indexReplayChat(CHAT);
const shown = (seconds: number | null, visible = 10) => {
  const { lines, pinned } = chatAtCut(index, chatCutAt(index, seconds === null ? null : T0 + seconds * 1000), visible);
  return { lines: lines.map((l) => l.id), pinned: pinned?.id ?? null };
};

describe("the replay's chat at a moment of the night", () => {
  test("only the lines said by then, each from its own time on", () => {
    expect(shown(null)).toEqual({ lines: [], pinned: null });
    expect(shown(0)).toEqual({ lines: [], pinned: null });
    expect(shown(1)).toEqual({ lines: ["a"], pinned: null });
    expect(shown(5.5)).toEqual({ lines: ["a", "b"], pinned: null });
  });

  test("pins, unpins and deletions apply from when they happened", () => {
    expect(shown(6)).toEqual({ lines: ["a", "b"], pinned: "a" });
    expect(shown(8)).toEqual({ lines: ["a"], pinned: "a" });
    // Pinning another line takes the pin from the first.
    expect(shown(11)).toEqual({ lines: ["a", "c"], pinned: "c" });
    expect(shown(13)).toEqual({ lines: ["a", "c", "d"], pinned: null });
  });

  test("going back takes lines away again", () => {
    expect(shown(13).lines).toEqual(["a", "c", "d"]);
    expect(shown(4).lines).toEqual(["a"]);
  });

  test("only the newest lines are kept in view; the pinned one is found however old", () => {
    expect(shown(11, 1)).toEqual({ lines: ["c"], pinned: "c" });
    expect(shown(7, 1)).toEqual({ lines: ["b"], pinned: "a" });
  });

  test("the pinned line is marked pinned; the lines themselves are as they were said", () => {
    const { pinned, lines } = chatAtCut(index, chatCutAt(index, T0 + 7000), 10);
    expect(pinned?.isPinned).toBe(true);
    expect(lines.every((l) => !l.isPinned)).toBe(true);
  });

  test("the cut changes only when a line or an event is reached", () => {
    expect(sameCut(chatCutAt(index, T0 + 1500), chatCutAt(index, T0 + 4900))).toBe(true);
    expect(sameCut(chatCutAt(index, T0 + 4900), chatCutAt(index, T0 + 5000))).toBe(false);
  });

  test("a line moderators took down keeps its place from its own time until its deletion", () => {
    const removed = { id: "x", username: "", text: "", timestamp: iso(2), type: "user" as const, isPinned: false, removed: true as const };
    const taken = indexReplayChat({ lines: [line("a", 1), removed, line("b", 3)], events: [{ messageId: "x", kind: "delete", at: iso(4) }] });
    expect(chatAtCut(taken, chatCutAt(taken, T0 + 3000), 10).lines).toEqual([line("a", 1), removed, line("b", 3)]);
    expect(chatAtCut(taken, chatCutAt(taken, T0 + 4000), 10).lines.map((l) => l.id)).toEqual(["a", "b"]);
  });

  test("lines sent out of order are shown in the order they were said", () => {
    const shuffled = indexReplayChat({ lines: [line("late", 3), line("early", 2)], events: [] });
    expect(chatAtCut(shuffled, chatCutAt(shuffled, T0 + 5000), 10).lines.map((l) => l.id)).toEqual(["early", "late"]);
  });
});
