/**
 * The chat protocol's limits and close codes, apart from its zod schemas so the stream page can use them
 * without loading the schema library. `chat.ts` re-exports them.
 */
export const CHAT_MESSAGE_MAX_LENGTH = 200;
export const CHAT_HISTORY_LIMIT = 100;
/** Largest frame the server accepts; a bigger one closes the socket (1009). */
export const WS_MAX_FRAME_BYTES = 4 * 1024;

/** Close codes the server uses besides the standard ones (1001 going away on shutdown, 1009 frame too big). */
export const WS_CLOSE_KICKED = 4001;
export const WS_CLOSE_BANNED = 4003;
/** The session behind the socket was ended (an admin reset the code's device): it does not reconnect; the page goes back to /access. */
export const WS_CLOSE_SESSION_ENDED = 4004;
/** A team member's rights changed (the team requires two factors, their role, their sessions): the socket closes and the page reconnects with the rights its session has now. */
export const WS_CLOSE_STAFF_RECHECK = 4005;
/** What the device that held a code is told when an admin resets the code's device. */
export const DEVICE_RESET_MESSAGE = "This access code was reset for use on another device, so this device no longer has access.";

/** Slow mode: the seconds a person waits between messages (0 = off). Moderators and admins are exempt. */
export const SLOW_MODE_CHOICES = [0, 5, 10, 30, 60, 120] as const;
/** The timeouts the moderator menu offers, in seconds; any whole number in the range is accepted. */
export const TIMEOUT_CHOICES = [60, 300, 600, 3600] as const;
export const TIMEOUT_MIN_SECONDS = 60;
export const TIMEOUT_MAX_SECONDS = 86_400;
export const BLOCKED_WORD_NOTICE = "Your message was not sent: it contains a blocked word.";
export const BLOCKED_LINK_NOTICE = "Your message was not sent: links are not allowed in this chat.";

/** "30 seconds", "5 minutes", "1 hour", "1 hour 30 minutes": how long a timeout or slow mode lasts. */
export function describeDuration(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return plural(seconds, "second");
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts = [hours ? plural(hours, "hour") : "", minutes ? plural(minutes, "minute") : "", !hours && rest ? plural(rest, "second") : ""];
  return parts.filter(Boolean).join(" ");
}
