/**
 * The `chat_batch` frame on the wire. A busy chat sends every viewer a frame of 10–20 lines ten times a
 * second, so its bytes are most of what the server sends: each line goes as an array rather than as a
 * message object (no key names, no defaults), about half the bytes. Apart from the zod schemas so the
 * stream page can read it without loading the schema library.
 *
 *   { "type": "chat_batch", "lines": [[id, username, text, at], …] }
 *
 * `at` is the line's time in milliseconds since the epoch (its `timestamp`, to the millisecond). A line
 * that is not a plain viewer's adds its `type`, then its flags (1 when it is pinned, 2 when an admin wrote
 * it, 4 when a moderator did; else 0), then its donation in pounds, then the currency it was paid in:
 * `[id, username, text, at, "donation", 0, 5, "gbp"]`, `[id, "warden", text, at, "user", 2]`. Read, the
 * frame is the `chat_batch` event with its `messages`, oldest first.
 */
import type { ChatMessage } from "./chat.ts";

export type PackedChatLine = [id: string, username: string, text: string, at: number, type?: ChatMessage["type"], flags?: number, donation?: number, currency?: string];

const LINE_TYPES = new Set<unknown>(["user", "system", "donation"]);
const PINNED = 1;
const STAFF_FLAGS = { admin: 2, moderator: 4 } as const;
/** Flags a line can carry: pinned or not, and at most one of the staff marks. */
const VALID_FLAGS = new Set<unknown>([0, PINNED, STAFF_FLAGS.admin, STAFF_FLAGS.admin | PINNED, STAFF_FLAGS.moderator, STAFF_FLAGS.moderator | PINNED]);

export function packChatLine(message: ChatMessage): PackedChatLine {
  const line: PackedChatLine = [message.id, message.username, message.text, Date.parse(message.timestamp)];
  const flags = (message.isPinned ? PINNED : 0) | (message.staff ? STAFF_FLAGS[message.staff] : 0);
  if (message.type !== "user" || flags !== 0 || message.donation !== undefined) line.push(message.type, flags);
  if (message.donation !== undefined) line.push(message.donation);
  if (message.donation !== undefined && message.currency !== undefined) line.push(message.currency);
  return line;
}

/** The frame for these lines, serialised. */
export function chatBatchFrame(messages: readonly ChatMessage[]): string {
  return JSON.stringify({ type: "chat_batch", lines: messages.map(packChatLine) });
}

/** A packed line as a message, or null when it is not one. */
export function unpackChatLine(line: unknown): ChatMessage | null {
  if (!Array.isArray(line) || line.length < 4 || line.length > 8) return null;
  const [id, username, text, at, type = "user", flags = 0, donation, currency] = line as unknown[];
  if (typeof id !== "string" || typeof username !== "string" || typeof text !== "string" || typeof at !== "number" || !Number.isFinite(at)) return null;
  if (!LINE_TYPES.has(type) || !VALID_FLAGS.has(flags) || (donation !== undefined && typeof donation !== "number")) return null;
  if (currency !== undefined && (typeof currency !== "string" || donation === undefined)) return null;
  const time = new Date(at);
  if (Number.isNaN(time.getTime())) return null;
  const bits = flags as number;
  const message: ChatMessage = { id, username, text, timestamp: time.toISOString(), type: type as ChatMessage["type"], isPinned: (bits & PINNED) !== 0 };
  if (donation !== undefined) message.donation = donation;
  if (typeof currency === "string") message.currency = currency;
  if (bits & STAFF_FLAGS.admin) message.staff = "admin";
  else if (bits & STAFF_FLAGS.moderator) message.staff = "moderator";
  return message;
}

/**
 * A parsed server frame as the event it stands for: a `chat_batch` frame's packed lines become its
 * `messages` (a line that is not one is skipped); any other frame is returned as it is. A batch that
 * already carries `messages`, as servers before the packed form sent it (an instance not yet upgraded,
 * in a cluster being upgraded one instance at a time), is read as it is too.
 */
export function readServerFrame<T extends { type?: unknown }>(frame: T): T | { type: "chat_batch"; messages: ChatMessage[] } {
  if (frame.type !== "chat_batch") return frame;
  const lines = (frame as { lines?: unknown }).lines;
  const earlier = (frame as { messages?: unknown }).messages;
  if (lines === undefined && Array.isArray(earlier)) {
    return {
      type: "chat_batch",
      messages: earlier.filter(
        (m): m is ChatMessage => typeof m === "object" && m !== null && typeof (m as ChatMessage).id === "string" && typeof (m as ChatMessage).text === "string",
      ),
    };
  }
  const messages: ChatMessage[] = [];
  if (Array.isArray(lines)) {
    for (const line of lines) {
      const message = unpackChatLine(line);
      if (message) messages.push(message);
    }
  }
  return { type: "chat_batch", messages };
}
