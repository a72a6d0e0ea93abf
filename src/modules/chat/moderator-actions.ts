import { describeDuration } from "../../contracts/chat-limits.ts";
import type { People } from "../../cluster/messages.ts";
import type { ChatRules } from "../../contracts/moderation.ts";
import type { ChatHub } from "./hub.ts";
import { slowModeDetail } from "./moderation.ts";
import type { TimeoutTarget } from "./timeouts.ts";

/**
 * What a moderator's timeout, slow mode or rule change does to the live chat: stored and logged through
 * the hub's moderation rules, then announced to everyone and to the person concerned. Used by the chat
 * frames and by the admin panel.
 */
export class ModeratorActions {
  constructor(private readonly hub: ChatHub) {}

  /** Mutes the target for `seconds` (they keep watching), by name, user and code; one an admin sets, only an admin lifts. */
  async timeout(target: TimeoutTarget, seconds: number, by: { username: string; isAdmin: boolean }, messageText: string | null = null): Promise<void> {
    const { moderation } = this.hub;
    await moderation.timeouts.add(target, seconds, by.username, by.isAdmin);
    this.hub.moderationChanged();
    await moderation.log.record({ action: "timeout", moderator: by.username, target: target.username, messageText, detail: describeDuration(seconds) });
    this.hub.broadcast({ type: "system_message", message: `${target.username} has been timed out for ${describeDuration(seconds)}.` });
    this.hub.toPeople(peopleOf(target), {
      send: [
        { type: "chat_cooldown", reason: "timeout", seconds },
        { type: "system_message", message: `A moderator has timed you out for ${describeDuration(seconds)}. You can still watch.` },
      ],
    });
  }

  /** Ends a timeout early; false when none was running. */
  async liftTimeout(target: TimeoutTarget, by: string): Promise<boolean> {
    const { moderation } = this.hub;
    if (!(await moderation.timeouts.lift(target))) return false;
    this.hub.moderationChanged();
    await moderation.log.record({ action: "lift_timeout", moderator: by, target: target.username });
    this.hub.broadcast({ type: "system_message", message: `${target.username} can chat again.` });
    this.hub.toPeople(peopleOf(target), { send: [{ type: "chat_cooldown", reason: "timeout", seconds: 0 }] });
    return true;
  }

  async setSlowMode(seconds: number, by: string): Promise<void> {
    await this.saveRules({ ...this.hub.moderation.getRules(), slowModeSeconds: seconds }, by);
  }

  /** Saves the chat rules; they apply to the next line. A slow-mode change is announced to everyone. */
  async saveRules(rules: ChatRules, by: string): Promise<ChatRules> {
    const before = this.hub.moderation.slowModeSeconds();
    const saved = await this.hub.moderation.saveRules(rules, by);
    this.hub.moderationChanged();
    if (saved.slowModeSeconds !== before) {
      this.hub.broadcast({ type: "slow_mode", seconds: saved.slowModeSeconds });
      const detail = slowModeDetail(saved.slowModeSeconds);
      this.hub.broadcast({ type: "system_message", message: saved.slowModeSeconds === 0 ? "Slow mode is off." : `Slow mode is on: ${detail}.` });
    }
    return saved;
  }

  /** A viewer was made a moderator (or stopped being one) in the panel: their open sockets change at once. */
  moderatorChanged(userId: number, isModerator: boolean): void {
    this.hub.toPeople({ userId }, { moderator: isModerator });
  }
}

/** A timeout's target as sockets are matched: by name, by user and by code. */
function peopleOf(target: TimeoutTarget): People {
  return { username: target.username, userId: target.userId, accessCodeId: target.accessCodeId };
}
