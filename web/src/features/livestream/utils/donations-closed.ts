import { WS_CLOSE_BANNED, WS_CLOSE_KICKED } from "@contracts/chat-limits";
import { BANNED_MESSAGE, PASS_ENDED_MESSAGE } from "@contracts/notices";
import type { ConnectionStatus } from "@/lib/chat-socket";

/**
 * Why this viewer can no longer donate, from how the chat let them go: banned, or their pass refunded or
 * disputed (closed as a kick, with its own reason). Null while they can: a kick lasts a minute and leaves
 * their session, so donating still works.
 */
export function donationsClosedReason(status: ConnectionStatus): string | null {
  if (status.removedWith === WS_CLOSE_BANNED) return BANNED_MESSAGE;
  if (status.removedWith === WS_CLOSE_KICKED && status.removedBecause === "Revoked") return PASS_ENDED_MESSAGE;
  return null;
}
