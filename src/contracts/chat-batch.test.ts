import { describe, expect, test } from "bun:test";
import type { ChatMessage } from "./chat.ts";
import { chatBatchFrame, packChatLine, readServerFrame, unpackChatLine } from "./chat-batch.ts";

const at = Date.UTC(2026, 9, 31, 23, 59, 59, 123);
const viewerLine: ChatMessage = { id: "mhf0k2x3c9a1b2c3d", username: "Ghoul", text: "it's behind you", timestamp: new Date(at).toISOString(), type: "user", isPinned: false };
const donationLine: ChatMessage = { ...viewerLine, id: "mhf0k2x3d00000001", text: "Ghoul donated £5.00", type: "donation", donation: 5 };
const pinnedSystem: ChatMessage = { ...viewerLine, id: "mhf0k2x3d00000002", username: "System", text: "Welcome", type: "system", isPinned: true };

describe("chat_batch lines", () => {
  test("a viewer's line packs to id, name, text and time; anything else adds what differs", () => {
    expect(packChatLine(viewerLine)).toEqual([viewerLine.id, "Ghoul", "it's behind you", at]);
    expect(packChatLine(donationLine)).toEqual([donationLine.id, "Ghoul", "Ghoul donated £5.00", at, "donation", 0, 5]);
    expect(packChatLine(pinnedSystem)).toEqual([pinnedSystem.id, "System", "Welcome", at, "system", 1]);
  });

  test("every line reads back as the message it was, to the millisecond", () => {
    const frame = chatBatchFrame([viewerLine, donationLine, pinnedSystem]);
    expect(readServerFrame(JSON.parse(frame))).toEqual({ type: "chat_batch", messages: [viewerLine, donationLine, pinnedSystem] });
  });

  test("a donation line carries the currency it was paid in, and reads back with it", () => {
    const inEuros: ChatMessage = { ...donationLine, text: "donated €50.00", donation: 50, currency: "eur" };
    expect(packChatLine(inEuros)).toEqual([inEuros.id, "Ghoul", "donated €50.00", at, "donation", 0, 50, "eur"]);
    expect(readServerFrame(JSON.parse(chatBatchFrame([inEuros, viewerLine])))).toEqual({ type: "chat_batch", messages: [inEuros, viewerLine] });
    for (const bad of [
      ["a", "b", "c", 1, "donation", 0, 5, 3],
      ["a", "b", "c", 1, "donation", 0, 5, "eur", "x"],
    ])
      expect(unpackChatLine(bad)).toBeNull();
  });

  test("a line an admin or a moderator wrote carries the staff mark, pinned or not, and reads back with it", () => {
    const byAdmin: ChatMessage = { ...viewerLine, username: "warden", staff: "admin" };
    const byModerator: ChatMessage = { ...viewerLine, username: "Mod Mike", staff: "moderator", isPinned: true };
    expect(packChatLine(byAdmin)).toEqual([byAdmin.id, "warden", "it's behind you", at, "user", 2]);
    expect(packChatLine(byModerator)).toEqual([byModerator.id, "Mod Mike", "it's behind you", at, "user", 5]);
    expect(readServerFrame(JSON.parse(chatBatchFrame([byAdmin, viewerLine, byModerator])))).toEqual({ type: "chat_batch", messages: [byAdmin, viewerLine, byModerator] });
  });

  test("the frame is about half the bytes of the same lines as message objects", () => {
    const lines = Array.from({ length: 12 }, (_, i) => ({ ...viewerLine, id: `mhf0k2x3c${String(i).padStart(8, "0")}`, username: `Viewer ${i}` }));
    const packed = chatBatchFrame(lines).length;
    const objects = JSON.stringify({ type: "chat_batch", messages: lines }).length;
    expect(packed / objects).toBeLessThan(0.6);
  });

  test("a line that is not one reads as null", () => {
    for (const bad of [
      null,
      "x",
      [],
      ["a", "b", "c"],
      ["a", "b", "c", "soon"],
      ["a", "b", "c", 1, "admin"],
      ["a", "b", "c", 1, "user", 6],
      ["a", "b", "c", 1, "user", 8],
      ["a", "b", "c", 1, "user", "2"],
      ["a", "b", "c", 1, "donation", 0, "5"],
      ["a", 1, "c", 1],
      ["a", "b", "c", 8.64e15 + 1],
      ["a", "b", "c", 1, "user", 0, 1, 2],
    ]) {
      expect(unpackChatLine(bad)).toBeNull();
    }
    expect(readServerFrame({ type: "chat_batch", lines: [["a", "b", "c", 0], "junk"] })).toEqual({
      type: "chat_batch",
      messages: [{ id: "a", username: "b", text: "c", timestamp: "1970-01-01T00:00:00.000Z", type: "user", isPinned: false }],
    });
  });

  test("a batch in the earlier object form, from an instance not yet upgraded, still reads as its messages", () => {
    expect(readServerFrame({ type: "chat_batch", messages: [viewerLine, null, "junk", donationLine] })).toEqual({ type: "chat_batch", messages: [viewerLine, donationLine] });
  });

  test("any other frame is left as it is", () => {
    const hearts = { type: "hearts", count: 3 };
    expect(readServerFrame(hearts)).toBe(hearts);
  });
});
