import { z } from "zod";
import { EVENT_PHASES } from "./event-phase.ts";

/**
 * The live event's WebSocket protocol at `/ws`, shared by the server and the web app.
 *
 * Every frame is a JSON object with a `type`. Identity always comes from the session cookie the socket
 * was opened with; `username` / `accessCode` fields some clients send are accepted and ignored.
 * Money in `donation_update` is pence; `ChatMessage.donation` is pounds (as the chat shows it).
 */

import {
  CHAT_HISTORY_LIMIT,
  CHAT_MESSAGE_MAX_LENGTH,
  SLOW_MODE_CHOICES,
  TIMEOUT_MAX_SECONDS,
  TIMEOUT_MIN_SECONDS,
  WS_CLOSE_BANNED,
  WS_CLOSE_KICKED,
  WS_CLOSE_SESSION_ENDED,
  WS_MAX_FRAME_BYTES,
} from "./chat-limits.ts";

export { CHAT_HISTORY_LIMIT, CHAT_MESSAGE_MAX_LENGTH, WS_CLOSE_BANNED, WS_CLOSE_KICKED, WS_CLOSE_SESSION_ENDED, WS_MAX_FRAME_BYTES };

// Control characters and line/paragraph separators become spaces; bidi overrides and marks that could
// spoof other lines are dropped; a run of combining marks is cut to a few, so no line grows into a tower.
const SPACE_LIKE_CONTROLS = /[\t\n\r\v\f\u2028\u2029]+/g;
const STRIPPED_CHARACTERS = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
const MARK_RUN = /(\p{M}{3})\p{M}+/gu;
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
export const COMBINING_MARKS_KEPT = 3;

export function cleanChatText(text: string): string {
  return text.normalize("NFC").replace(SPACE_LIKE_CONTROLS, " ").replace(STRIPPED_CHARACTERS, "").replace(MARK_RUN, "$1").trim();
}

/** A chat line as typed, read: cleaned, or why it is refused. */
export type ChatText = { ok: true; text: string } | { ok: false; message: string };

const EMPTY_MESSAGE = "Message cannot be empty";
const TOO_LONG_MESSAGE = `Message must be ${CHAT_MESSAGE_MAX_LENGTH} characters or less`;

/** Characters as a person counts them: a surrogate pair (an emoji) is one, as the schemas count them. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * A chat line as typed: cleaned, trimmed, 1–200 characters, at least one of them visible. Read by hand
 * rather than through a schema: it runs once for every line of a busy night.
 */
export function readChatText(raw: string): ChatText {
  const text = cleanChatText(raw);
  if (text.length === 0) return { ok: false, message: EMPTY_MESSAGE };
  if (text.length > CHAT_MESSAGE_MAX_LENGTH && codePoints(text) > CHAT_MESSAGE_MAX_LENGTH) return { ok: false, message: TOO_LONG_MESSAGE };
  if (!VISIBLE.test(text)) return { ok: false, message: EMPTY_MESSAGE };
  return { ok: true, text };
}

// ---------------------------------------------------------------------------------------------------
// Client → server

const ignored = {
  username: z.string().max(100).optional(),
  accessCode: z.string().max(200).optional(),
};
const messageId = z.string().min(1, "messageId is required").max(64);
const target = {
  ...ignored,
  /** The user to act on (`kick_user` / `ban_user` name it in `username`). */
  targetUsername: z.string().max(100).optional(),
  /** Act on the author of this message instead of naming them. */
  messageId: messageId.optional(),
};
/** Why a ban was made, kept with it and in the moderation log. */
const banReason = z.string().max(200, "The reason must be 200 characters or less").optional();
const targetName = z.string().trim().min(1, "username is required").max(100);

/** Slow mode's interval: one of the choices, in seconds (0 = off). */
export const slowModeSecondsSchema = z
  .number({ error: "seconds must be a number" })
  .refine((n) => (SLOW_MODE_CHOICES as readonly number[]).includes(n), `Slow mode must be ${SLOW_MODE_CHOICES.slice(1).join(", ")} seconds or 0 (off)`);

export const clientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("authenticate"), ...ignored, isTestCode: z.boolean().optional() }),
  z.object({ type: z.literal("chat_message"), text: z.string() }),
  z.object({ type: z.literal("chat"), message: z.object({ text: z.string() }), ...ignored }),
  z.object({ type: z.literal("send_heart"), ...ignored }),
  z.object({ type: z.literal("heart"), ...ignored }),
  z.object({
    type: z.literal("donation"),
    /** The PaymentIntent the viewer just paid; the amount shown comes from the payment, not from `amount`. */
    paymentIntentId: z.string().min(1, "paymentIntentId is required").max(255),
    amount: z.number().optional(),
    ...ignored,
  }),
  z.object({ type: z.literal("delete_message"), messageId, ...ignored }),
  z.object({ type: z.literal("delete"), messageId, ...ignored }),
  /** Toggles: pins an unpinned message (unpinning any other), unpins a pinned one. */
  z.object({ type: z.literal("pin"), messageId, ...ignored }),
  z.object({ type: z.literal("kick_user"), ...target }),
  z.object({ type: z.literal("kick"), ...target }),
  z.object({ type: z.literal("ban_user"), ...target, reason: banReason }),
  z.object({ type: z.literal("ban"), ...target, reason: banReason }),
  /** Mutes a viewer for 60–86,400 seconds: they still watch, but cannot chat, send hearts or show donation lines. */
  z.object({
    type: z.literal("timeout_user"),
    username: targetName,
    seconds: z
      .number({ error: "seconds must be a number" })
      .int("seconds must be a whole number")
      .min(TIMEOUT_MIN_SECONDS, `A timeout lasts at least ${TIMEOUT_MIN_SECONDS} seconds`)
      .max(TIMEOUT_MAX_SECONDS, `A timeout lasts at most ${TIMEOUT_MAX_SECONDS} seconds`),
    accessCode: ignored.accessCode,
  }),
  /** Ends a timeout early. */
  z.object({ type: z.literal("lift_timeout"), username: targetName, accessCode: ignored.accessCode }),
  z.object({ type: z.literal("slow_mode"), seconds: slowModeSecondsSchema, ...ignored }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

/**
 * A chat line's frame (`{"type":"chat_message","text":…}`, most of the frames a night brings) read
 * without the schema, giving what the schema would (the other keys dropped); null for any other frame,
 * which the schema reads.
 */
export function chatLineFrame(raw: unknown): Extract<ClientFrame, { type: "chat_message" }> | null {
  if (typeof raw !== "object" || raw === null) return null;
  const { type, text } = raw as { type?: unknown; text?: unknown };
  return type === "chat_message" && typeof text === "string" ? { type, text } : null;
}
export type ClientFrameType = ClientFrame["type"];

// ---------------------------------------------------------------------------------------------------
// Server → client

export const chatMessageSchema = z.object({
  id: z.string(),
  username: z.string(),
  text: z.string(),
  /** ISO 8601. */
  timestamp: z.string(),
  type: z.enum(["system", "user", "donation"]),
  isPinned: z.boolean(),
  /** Pounds, only on donation lines. */
  donation: z.number().optional(),
  /** The currency the donation was paid in (ISO 4217, lower case), only on donation lines; the event's when missing. */
  currency: z.string().optional(),
  /** Written by an admin or a moderator: set by the server from who sent it (the page shows a badge), never typed. */
  staff: z.enum(["admin", "moderator"]).optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** What a `settings_update` carries when the admin saves the stream settings. Money in pence. */
export const streamSettingsUpdateSchema = z.object({
  eventTitle: z.string(),
  embedUrl: z.string(),
  thumbnailUrl: z.string(),
  donationGoal: z.number(),
  isActive: z.boolean(),
  startDate: z.string(),
  /** The night's phase and its times (contracts/event-phase.ts), as GET /api/livestream-settings has them. */
  phase: z.enum(EVENT_PHASES),
  night: z.object({
    onAir: z.boolean(),
    openedAt: z.string().nullable(),
    wentLiveAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    latestEnd: z.string().nullable(),
    onSale: z.boolean(),
    // An instance of an earlier version (a cluster mid-upgrade) sends neither: not cancelled.
    cancelledAt: z.string().nullable().default(null),
    cancelNote: z.string().default(""),
  }),
});
export type StreamSettingsUpdate = z.infer<typeof streamSettingsUpdateSchema>;

export const serverEventSchema = z.discriminatedUnion("type", [
  /** Once, right after the socket opens: the last 100 visible messages, oldest first. Replaces the list. */
  z.object({ type: z.literal("chatHistory"), messages: z.array(chatMessageSchema) }),
  /** A new line (user, donation or system). */
  z.object({ type: z.literal("chat"), message: chatMessageSchema }),
  /**
   * Several new lines at once, oldest first: how a busy chat is sent (one frame instead of one per line).
   * On the wire each line is packed into an array, `{ type, lines }` (see `chat-batch.ts`); read, it is this.
   */
  z.object({ type: z.literal("chat_batch"), messages: z.array(chatMessageSchema) }),
  /** A message changed; today that is its pin state. Pinning one message unpins the previous one. */
  z.object({ type: z.literal("message_updated"), message: chatMessageSchema }),
  z.object({ type: z.literal("message_deleted"), messageId: z.string() }),
  /** The user was removed from the chat; remove their messages from view. */
  z.object({ type: z.literal("user_kicked"), username: z.string() }),
  z.object({ type: z.literal("user_banned"), username: z.string() }),
  /** A notice shown as a system line: to this client only (rate limit, kicked, banned, refused) or to everyone (timeouts, slow mode). */
  z.object({ type: z.literal("system_message"), message: z.string() }),
  /** The slow-mode interval in seconds (0 = off): on joining and whenever a moderator changes it. */
  z.object({ type: z.literal("slow_mode"), seconds: z.number() }),
  /**
   * To this viewer only: the seconds before they may chat again, because of slow mode (after each message
   * they send) or a timeout (when it starts, on joining while it lasts, and 0 when it is lifted).
   */
  z.object({ type: z.literal("chat_cooldown"), reason: z.enum(["slow_mode", "timeout"]), seconds: z.number() }),
  /** Total hearts of the event. Coalesced: at most a few per second. */
  z.object({ type: z.literal("hearts"), count: z.number() }),
  /** Distinct connected viewers plus the admin's fake viewers. */
  z.object({ type: z.literal("viewer_count"), count: z.number() }),
  z.object({ type: z.literal("stats"), stats: z.object({ heartCount: z.number(), viewerCount: z.number() }) }),
  /** Donations so far and the goal, both in pence. */
  z.object({ type: z.literal("donation_update"), current: z.number(), goal: z.number() }),
  z.object({ type: z.literal("settings_update"), settings: streamSettingsUpdateSchema }),
  /** Reply to `authenticate`: who the server knows this socket as. */
  z.object({ type: z.literal("auth_ok"), username: z.string(), isModerator: z.boolean() }),
  /** A frame was refused (malformed, not allowed, not found). The socket stays open. */
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type ServerEvent = z.infer<typeof serverEventSchema>;
export type ServerEventType = ServerEvent["type"];
