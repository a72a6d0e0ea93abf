import { describeDuration } from "../../contracts/chat-limits.ts";
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

  /** Mutes the target for `seconds` (they keep watching), by name, user and code. */
  async timeout(target: TimeoutTarget, seconds: number, by: string, messageText: string | null = null): Promise<void> {
    const { moderation } = this.hub;
    await moderation.timeouts.add(target, seconds, by);
    await moderation.log.record({ action: "timeout", moderator: by, target: target.username, messageText, detail: describeDuration(seconds) });
    this.hub.broadcast({ type: "system_message", message: `${target.username} has been timed out for ${describeDuration(seconds)}.` });
    for (const c of this.socketsOf(target)) {
      this.hub.sendTo(c.socket, { type: "chat_cooldown", reason: "timeout", seconds });
      this.hub.sendTo(c.socket, { type: "system_message", message: `A moderator has timed you out for ${describeDuration(seconds)}. You can still watch.` });
    }
  }

  /** Ends a timeout early; false when none was running. */
  async liftTimeout(target: TimeoutTarget, by: string): Promise<boolean> {
    const { moderation } = this.hub;
    if (!(await moderation.timeouts.lift(target))) return false;
    await moderation.log.record({ action: "lift_timeout", moderator: by, target: target.username });
    this.hub.broadcast({ type: "system_message", message: `${target.username} can chat again.` });
    for (const c of this.socketsOf(target)) this.hub.sendTo(c.socket, { type: "chat_cooldown", reason: "timeout", seconds: 0 });
    return true;
  }

  async setSlowMode(seconds: number, by: string): Promise<void> {
    await this.saveRules({ ...this.hub.moderation.getRules(), slowModeSeconds: seconds }, by);
  }

  /** Saves the chat rules; they apply to the next line. A slow-mode change is announced to everyone. */
  async saveRules(rules: ChatRules, by: string): Promise<ChatRules> {
    const before = this.hub.moderation.slowModeSeconds();
    const saved = await this.hub.moderation.saveRules(rules, by);
    if (saved.slowModeSeconds !== before) {
      this.hub.broadcast({ type: "slow_mode", seconds: saved.slowModeSeconds });
      const detail = slowModeDetail(saved.slowModeSeconds);
      this.hub.broadcast({ type: "system_message", message: saved.slowModeSeconds === 0 ? "Slow mode is off." : `Slow mode is on: ${detail}.` });
    }
    return saved;
  }

  /** A viewer was made a moderator (or stopped being one) in the panel: their open sockets change at once. */
  moderatorChanged(userId: number, isModerator: boolean): void {
    for (const c of this.hub.socketsWhere((identity) => identity.userId === userId)) {
      c.identity.isModerator = isModerator;
      this.hub.sendTo(c.socket, { type: "auth_ok", username: c.identity.username, isModerator });
    }
  }

  private socketsOf(target: TimeoutTarget) {
    const name = target.username.toLowerCase();
    return this.hub.socketsWhere(
      (i) =>
        !i.isAdmin &&
        (i.username.toLowerCase() === name ||
          (target.userId !== null && i.userId === target.userId) ||
          (target.accessCodeId !== null && i.accessCodeId === target.accessCodeId)),
    );
  }
}
