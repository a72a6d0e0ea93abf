import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { prng } from "../../tests/support/prng.ts";
import { CHAT_MESSAGE_MAX_LENGTH, chatLineFrame, cleanChatText, clientFrameSchema, readChatText } from "./chat.ts";

/** The schema a chat line was read with before it was read by hand: the hand reader must agree with it. */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const schemaReading = z
  .string()
  .transform(cleanChatText)
  .pipe(
    z
      .string()
      .min(1, "Message cannot be empty")
      .max(CHAT_MESSAGE_MAX_LENGTH, `Message must be ${CHAT_MESSAGE_MAX_LENGTH} characters or less`)
      .refine((text) => VISIBLE.test(text), "Message cannot be empty"),
  );

function bySchema(raw: string) {
  const read = schemaReading.safeParse(raw);
  return read.success ? { ok: true, text: read.data } : { ok: false, message: read.error.issues[0]!.message };
}

const PIECES = ["a", "Z", "7", " ", "\t", "\n", "\u2028", "\u202e", "\u200f", "\u0301", "\u0300", "e\u0301", "🙂", "!", "\u0000", "\u001b", "ℌ", "  ", "\u00a0", "漢", "\ud800"];

describe("a chat line read by hand", () => {
  test("agrees with the schema it replaced, on lines built from the characters that matter", () => {
    const random = prng(20261204).next;
    const lines = [
      "🙂".repeat(200),
      "🙂".repeat(201),
      "\ud800".repeat(201),
      "",
      " ",
      "\t\n",
      "\u0301\u0301",
      "hi",
      " hi ",
      "x".repeat(CHAT_MESSAGE_MAX_LENGTH),
      "x".repeat(CHAT_MESSAGE_MAX_LENGTH + 1),
      " ".repeat(300),
      "\u0301".repeat(300),
    ];
    for (let i = 0; i < 3000; i++) {
      const length = Math.floor(random() * (random() < 0.1 ? 260 : 12));
      let line = "";
      for (let j = 0; j < length; j++) line += PIECES[Math.floor(random() * PIECES.length)];
      lines.push(line);
    }
    for (const line of lines) expect({ line, read: readChatText(line) }).toEqual({ line, read: bySchema(line) as never });
  });

  test("says why a line is refused", () => {
    expect(readChatText("   ")).toEqual({ ok: false, message: "Message cannot be empty" });
    expect(readChatText("\u0301\u0301")).toEqual({ ok: false, message: "Message cannot be empty" });
    expect(readChatText("y".repeat(201))).toEqual({ ok: false, message: "Message must be 200 characters or less" });
    expect(readChatText("🙂".repeat(200))).toEqual({ ok: true, text: "🙂".repeat(200) });
    expect(readChatText("🙂".repeat(201))).toEqual({ ok: false, message: "Message must be 200 characters or less" });
    expect(readChatText("  boo \u202e ")).toEqual({ ok: true, text: "boo" });
  });
});

describe("a chat line's frame read without the schema", () => {
  const frames: unknown[] = [
    { type: "chat_message", text: "hello" },
    { type: "chat_message", text: "hello", username: "ignored", extra: 1 },
    { type: "chat_message", text: 5 },
    { type: "chat_message" },
    { type: "chat", message: { text: "hi" } },
    { type: "send_heart" },
    ["chat_message", "text"],
    "chat_message",
    null,
    7,
  ];
  test("reads what the schema reads, and leaves every other frame to it", () => {
    for (const raw of frames) {
      const fast = chatLineFrame(raw);
      const parsed = clientFrameSchema.safeParse(raw);
      if (fast) expect(parsed.success && parsed.data).toEqual(fast);
      else expect(parsed.success && parsed.data.type === "chat_message").toBe(false);
    }
    expect(chatLineFrame({ type: "chat_message", text: "hello", username: "x" })).toEqual({ type: "chat_message", text: "hello" });
  });
});
