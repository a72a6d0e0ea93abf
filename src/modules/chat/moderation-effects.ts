import { WS_CLOSE_BANNED, WS_CLOSE_KICKED, WS_CLOSE_SESSION_ENDED } from "../../contracts/chat.ts";
import { DEVICE_RESET_MESSAGE } from "../../contracts/chat-limits.ts";
import { BANNED_MESSAGE, PASS_ENDED_MESSAGE } from "../../contracts/notices.ts";
import type { BanList } from "./bans.ts";
import type { ChatFanout } from "./fanout.ts";
import type { ChatKicks, KickTarget } from "./kicks.ts";
import type { ChatMessageStore } from "./messages.ts";
import type { ModerationLog } from "./moderation-log.ts";
import type { SendPath } from "./send-path.ts";

/** The viewer-session side: ban checks by name or code, and ending a banned code's sessions. */
export interface ViewerSessionBans {
  isBanned(username: string, accessCodeId: number | null): Promise<boolean>;
  endAllForCode(accessCodeId: number): Promise<void>;
}

/** What the moderation effects change: the chat's stores and its fan-out. */
export interface ModerationEffectParts {
  kicks: ChatKicks;
  bans: BanList;
  sessions: ViewerSessionBans;
  messages: ChatMessageStore;
  fanout: ChatFanout;
  log: ModerationLog;
}

/**
 * What a kick, a ban, a revoked pass or a reset device does to the live chat: the person's lines hidden,
 * everyone told, and their sockets closed on every instance.
 */
export class ModerationEffects {
  constructor(
    private readonly parts: ModerationEffectParts,
    private readonly send: Pick<SendPath, "broadcast" | "toPeople">,
  ) {}

  /**
   * Tells everyone the user was kicked, hides their messages and closes their sockets for a minute: those
   * under the name, of that user and opened with that code, which cannot come back under another name.
   */
  async kick(target: KickTarget): Promise<void> {
    const kick = this.parts.kicks.start(target);
    this.parts.fanout.drop(kick.username);
    await this.parts.messages.deleteAllBy(kick.username);
    this.send.broadcast({ type: "user_kicked", username: kick.username });
    this.parts.kicks.closeSockets(kick);
  }

  /** Stores the ban by name and code, tells everyone, hides their messages and closes their sockets. */
  async ban(username: string, accessCodeId: number | null, bannedBy: string, reason: string | null): Promise<void> {
    this.parts.fanout.drop(username);
    await this.parts.bans.ban(username, accessCodeId, bannedBy, reason);
    if (accessCodeId !== null) await this.parts.sessions.endAllForCode(accessCodeId);
    await this.parts.messages.deleteAllBy(username);
    this.send.broadcast({ type: "user_banned", username });
    // Every socket under that name, and any opened with the same code under another name.
    this.send.toPeople({ username, accessCodeId }, { close: { code: WS_CLOSE_BANNED, reason: "Banned", notice: BANNED_MESSAGE } });
  }

  /** Lifts a ban (logged). False when that name was not banned. */
  async unban(username: string, by: string): Promise<boolean> {
    const lifted = await this.parts.bans.unban(username);
    if (lifted) await this.parts.log.record({ action: "unban", moderator: by, target: username.trim() });
    return lifted;
  }

  /** A code revoked after a refund or dispute: its sockets close with a notice and do not reconnect. */
  closeCode(accessCodeId: number, notice = PASS_ENDED_MESSAGE): void {
    this.send.toPeople({ accessCodeId }, { close: { code: WS_CLOSE_KICKED, reason: "Revoked", notice } });
  }

  /**
   * An admin reset the code's device (its sessions are already ended): the device that held it loses the
   * chat at once, here and on every other instance, and its page goes back to /access.
   */
  closeResetDevice(accessCodeId: number): void {
    this.send.toPeople({ accessCodeId }, { close: { code: WS_CLOSE_SESSION_ENDED, reason: "Device reset", notice: DEVICE_RESET_MESSAGE } });
  }
}
