import type { z } from "zod";
import { chatLineFrame, clientFrameSchema, readChatText, WS_CLOSE_BANNED, type ChatMessage, type ClientFrame } from "../../contracts/chat.ts";
import { InvalidTextError, type Store } from "../../db/store.ts";
import { BUSY_MESSAGE } from "../../lib/errors.ts";
import { LastingFailure } from "../../lib/lasting-failure.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Limiter, SharedLimits } from "../../cluster/cluster.ts";
import { SoloCluster } from "../../cluster/solo-cluster.ts";
import { describeDuration } from "../../contracts/chat-limits.ts";
import { BANNED_MESSAGE } from "../../contracts/notices.ts";
import type { ChatIdentity } from "./connection.ts";
import type { ChatHub } from "./hub.ts";
import type { ChatRefusal } from "./moderation.ts";
import { ModeratorActions } from "./moderator-actions.ts";
import { checkMayActOn, findTarget, FrameRefused, isSamePerson } from "./targets.ts";
import { INVALID_TEXT_MESSAGE } from "../../http/error-answer.ts";

/** Hands a donation the viewer reports over to the payments side, which counts it once if it succeeded. */
export interface DonationReporter {
  /** Resolves to a message for the viewer when the report is refused, or null when it is (or already was) counted. */
  reportDonation(paymentIntentId: string, viewer: ChatIdentity): Promise<string | null>;
}

type Connection = NonNullable<ReturnType<ChatHub["connection"]>>;
type TargetFrame = Extract<ClientFrame, { type: "kick" | "kick_user" | "ban" | "ban_user" }>;
type TimeoutFrame = Extract<ClientFrame, { type: "timeout_user" }>;

export const CHAT_LIMIT = { burst: 3, burstWindowMs: 1000, sustained: 5, sustainedWindowMs: 5000 };
export const HEARTS_PER_SECOND = 10;
/** A report may ask the payment provider, so reports are few per person. */
export const DONATION_REPORTS_PER_MINUTE = 10;

function describeInvalidFrame(raw: unknown, error: z.ZodError): string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || ArrayBuffer.isView(raw)) {
    return "Messages must be JSON objects with a type";
  }
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== "string") return "Message type is missing";
  const issue = error.issues[0];
  if (issue?.code === "invalid_union" && issue.path.length === 1 && issue.path[0] === "type") return `Unknown message type '${type.slice(0, 40)}'`;
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return `Invalid ${type} message: ${where}${issue?.message ?? "malformed"}`;
}

/**
 * Routes each inbound frame on its `type`. Every right is checked here against the socket's identity;
 * names and codes inside frames are ignored.
 */
export class ChatFrameRouter {
  /** Per person, and in a cluster counted across every instance (a flooder gains nothing by reconnecting elsewhere). */
  private readonly chatBurst: Limiter;
  private readonly chatSustained: Limiter;
  private readonly hearts: Limiter;
  private readonly donationReports: Limiter;
  private readonly actions: ModeratorActions;
  /** Frames refused while the database is away: logged once while it lasts, not once per frame. */
  private readonly outage: LastingFailure;

  constructor(
    private readonly hub: ChatHub,
    private readonly log: Logger,
    private readonly donations: DonationReporter,
    private readonly store: Pick<Store, "isUnavailable">,
    cluster: SharedLimits = new SoloCluster("solo"),
  ) {
    this.chatBurst = cluster.limiter("chat-burst", CHAT_LIMIT.burst, CHAT_LIMIT.burstWindowMs);
    this.chatSustained = cluster.limiter("chat-sustained", CHAT_LIMIT.sustained, CHAT_LIMIT.sustainedWindowMs);
    this.hearts = cluster.limiter("hearts", HEARTS_PER_SECOND, 1000);
    this.donationReports = cluster.limiter("donation-reports", DONATION_REPORTS_PER_MINUTE, 60_000);
    this.actions = new ModeratorActions(hub);
    this.outage = new LastingFailure(log, "database unavailable, chat frames that need it are refused", "chat frames reach the database again", { quietMs: 30_000 });
  }

  /**
   * One frame from a socket. A socket's frames take effect in the order it sent them (a moderator's
   * delete then ban, a viewer's lines), each after the one before has finished with the database.
   */
  receive(connectionId: string, raw: unknown): Promise<void> {
    const connection = this.hub.connection(connectionId);
    if (!connection || !this.hub.takeFrame(connection)) return Promise.resolve();
    let frame: ClientFrame | null = chatLineFrame(raw);
    if (!frame) {
      const parsed = clientFrameSchema.safeParse(raw);
      if (!parsed.success) {
        this.refuse(connection, describeInvalidFrame(raw, parsed.error));
        return Promise.resolve();
      }
      frame = parsed.data;
    }
    const read = frame;
    const done = connection.frames.then(() => this.handle(connection, read));
    connection.frames = done;
    return done;
  }

  private async handle(connection: Connection, frame: ClientFrame): Promise<void> {
    if (connection.closing) return;
    try {
      await this.route(connection, frame);
    } catch (error) {
      if (error instanceof FrameRefused) return this.refuse(connection, error.message);
      if (error instanceof InvalidTextError) return this.refuse(connection, INVALID_TEXT_MESSAGE);
      // The database lost or busy: the sender is told to try again, and the socket stays open.
      if (this.store.isUnavailable(error)) {
        this.outage.failed(error);
        return this.refuse(connection, BUSY_MESSAGE);
      }
      this.log.error(`chat frame '${frame.type}' failed`, error);
      this.refuse(connection, "Something went wrong. Please try again.");
    }
  }

  private async route(c: Connection, frame: ClientFrame): Promise<void> {
    switch (frame.type) {
      case "authenticate":
        return this.authenticate(c);
      case "chat_message":
        return this.chat(c, frame.text);
      case "chat":
        return this.chat(c, frame.message.text);
      case "send_heart":
      case "heart":
        return this.heart(c);
      case "donation":
        return this.donation(c, frame.paymentIntentId);
      case "delete_message":
      case "delete":
        return this.deleteMessage(c, frame.messageId);
      case "pin":
        return this.togglePin(c, frame.messageId);
      case "kick_user":
      case "kick":
      case "ban_user":
      case "ban":
        return this.removeUser(c, frame);
      case "timeout_user":
        return this.timeout(c, frame);
      case "lift_timeout":
        return this.liftTimeout(c, frame.username);
      case "slow_mode":
        await this.requireModerator(c);
        return this.actions.setSlowMode(frame.seconds, c.identity.username);
    }
  }

  private refuse(c: Connection, message: string): void {
    this.hub.sendTo(c.socket, { type: "error", message });
  }

  private async authenticate(c: Connection): Promise<void> {
    const { identity } = c;
    if (!identity.isAdmin && (await this.hub.isBanned(identity.username, identity.accessCodeId))) {
      this.hub.disconnect(c, WS_CLOSE_BANNED, "Banned", BANNED_MESSAGE);
      return;
    }
    this.hub.sendTo(c.socket, { type: "auth_ok", username: identity.username, isModerator: identity.isModerator });
  }

  private async chat(c: Connection, rawText: string): Promise<void> {
    const text = readChatText(rawText);
    if (!text.ok) throw new FrameRefused(text.message);
    const held = this.hub.moderation.holdBack(c.identity);
    if (held) return this.refuseLine(c, held);
    const key = c.identity.key;
    // Both limits are counted for every line; in a cluster both go to Redis at once (one round trip, not
    // two). Alone both answer at once, and the line goes on without waiting a turn for them.
    const burst = this.chatBurst.hit(key);
    const sustained = this.chatSustained.hit(key);
    const wait = typeof burst === "number" && typeof sustained === "number" ? Math.max(burst, sustained) : Math.max(...(await Promise.all([burst, sustained])));
    if (wait > 0) {
      const seconds = Math.ceil(wait);
      this.hub.sendTo(c.socket, {
        type: "system_message",
        message: `You are sending messages too fast. Please wait ${seconds} second${seconds === 1 ? "" : "s"}.`,
      });
      return;
    }
    const screened = this.hub.moderation.screen(c.identity, text.text);
    if (!screened.accepted) return this.refuseLine(c, screened);
    const { identity } = c;
    const staff = identity.isAdmin ? "admin" : identity.isModerator ? "moderator" : undefined;
    const line = await this.hub.postLine({ userId: identity.userId, username: identity.username, text: screened.text, type: "user", staff });
    if (!line) return;
    const cooldown = this.hub.moderation.accepted(c.identity);
    if (cooldown) this.hub.sendTo(c.socket, { type: "chat_cooldown", ...cooldown });
  }

  /** A line the rules hold back: the sender alone is told why, and how long to wait if waiting helps. */
  private refuseLine(c: Connection, verdict: ChatRefusal): void {
    this.hub.sendTo(c.socket, { type: "system_message", message: verdict.notice });
    if (verdict.cooldown) this.hub.sendTo(c.socket, { type: "chat_cooldown", ...verdict.cooldown });
  }

  private heart(c: Connection): void | Promise<void> {
    const timedOut = this.hub.moderation.timeouts.secondsLeft(c.identity);
    if (timedOut > 0) throw new FrameRefused(`You are timed out. You can send hearts again in ${describeDuration(timedOut)}.`);
    const wait = this.hearts.hit(c.identity.key);
    if (wait === 0) this.hub.addHeart();
    else if (typeof wait !== "number") {
      return wait.then((seconds) => {
        if (seconds === 0) this.hub.addHeart();
      });
    }
  }

  private async donation(c: Connection, paymentIntentId: string): Promise<void> {
    if ((await this.donationReports.hit(c.identity.key)) > 0) throw new FrameRefused("Too many donation reports. Please wait a minute.");
    const refusal = await this.donations.reportDonation(paymentIntentId, c.identity);
    if (refusal) throw new FrameRefused(refusal);
    const timedOut = this.hub.moderation.timeouts.secondsLeft(c.identity);
    if (timedOut > 0) {
      this.hub.sendTo(c.socket, {
        type: "system_message",
        message: `Thank you: your donation counts, but it is not shown in the chat while you are timed out (${describeDuration(timedOut)} left).`,
      });
    }
  }

  /** A moderator, neither timed out nor banned: a moderator's powers go with their voice. */
  private async requireModerator(c: Connection): Promise<void> {
    const { identity } = c;
    if (!identity.isModerator) throw new FrameRefused("Only moderators can do that.");
    if (identity.isAdmin) return;
    const timedOut = this.hub.moderation.timeouts.secondsLeft(identity);
    if (timedOut > 0) throw new FrameRefused(`You are timed out: you cannot moderate for ${describeDuration(timedOut)}.`);
    if (await this.hub.isBanned(identity.username, identity.accessCodeId)) {
      this.hub.disconnect(c, WS_CLOSE_BANNED, "Banned", BANNED_MESSAGE);
      throw new FrameRefused(BANNED_MESSAGE);
    }
  }

  /** Moderators act on viewers' lines (and their own); an admin's or another moderator's only an admin touches. */
  private checkMayTouchLine(c: Connection, message: ChatMessage, verb: "delete" | "pin or unpin"): void {
    const { identity } = c;
    if (identity.isAdmin || message.staff === undefined || message.username.toLowerCase() === identity.username.toLowerCase()) return;
    throw new FrameRefused(`Only an admin can ${verb} ${message.staff === "admin" ? "an admin's" : "a moderator's"} message.`);
  }

  private async deleteMessage(c: Connection, messageId: string): Promise<void> {
    await this.requireModerator(c);
    const message = await this.hub.messages.find(messageId);
    if (message) this.checkMayTouchLine(c, message, "delete");
    if (!message || !(await this.hub.messages.delete(messageId))) throw new FrameRefused("That message no longer exists.");
    await this.hub.moderation.log.record({ action: "delete", moderator: c.identity.username, target: message.username, messageText: message.text });
    this.hub.broadcast({ type: "message_deleted", messageId });
  }

  private async togglePin(c: Connection, messageId: string): Promise<void> {
    await this.requireModerator(c);
    const message = await this.hub.messages.find(messageId);
    if (!message) throw new FrameRefused("That message no longer exists.");
    this.checkMayTouchLine(c, message, "pin or unpin");
    // Pinning one line unpins the one before: a staff member's pinned line stays unless an admin replaces it.
    const pinned = message.isPinned ? null : await this.hub.messages.pinned();
    if (pinned) this.checkMayTouchLine(c, pinned, "pin or unpin");
    const changed = await this.hub.messages.togglePin(messageId);
    if (!changed) throw new FrameRefused("That message no longer exists.");
    const target = changed.at(-1)!;
    await this.hub.moderation.log.record({ action: target.isPinned ? "pin" : "unpin", moderator: c.identity.username, target: target.username, messageText: target.text });
    for (const message of changed) this.hub.broadcast({ type: "message_updated", message });
  }

  private async removeUser(c: Connection, frame: TargetFrame): Promise<void> {
    await this.requireModerator(c);
    const banning = frame.type === "ban" || frame.type === "ban_user";
    const target = await findTarget(this.hub, frame);
    checkMayActOn(c.identity, target, banning ? "ban" : "kick");
    const messageText = await this.textOf(frame.messageId);
    const reason = banning ? frame.reason?.trim() || null : null;
    if (banning) await this.hub.ban(target.username, target.accessCodeId, c.identity.username, reason);
    else await this.hub.kick(target);
    await this.hub.moderation.log.record({ action: banning ? "ban" : "kick", moderator: c.identity.username, target: target.username, messageText, detail: reason });
  }

  private async timeout(c: Connection, frame: TimeoutFrame): Promise<void> {
    await this.requireModerator(c);
    const target = await findTarget(this.hub, { targetUsername: frame.username });
    checkMayActOn(c.identity, target, "time out");
    await this.actions.timeout(target, frame.seconds, c.identity);
  }

  /** Nobody lifts their own timeout, and only an admin lifts one an admin set. */
  private async liftTimeout(c: Connection, username: string): Promise<void> {
    await this.requireModerator(c);
    const { identity } = c;
    const target = await findTarget(this.hub, { targetUsername: username });
    if (isSamePerson(identity, target)) throw new FrameRefused("You cannot lift your own timeout.");
    if (!identity.isAdmin && (await this.hub.moderation.timeouts.setByAdmin(target))) throw new FrameRefused("Only an admin can lift a timeout an admin set.");
    if (!(await this.actions.liftTimeout(target, identity.username))) throw new FrameRefused(`${username.slice(0, 40)} is not timed out.`);
  }

  private async textOf(messageId: string | undefined): Promise<string | null> {
    return messageId ? ((await this.hub.messages.find(messageId))?.text ?? null) : null;
  }
}
