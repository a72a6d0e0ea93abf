import type { z } from "zod";
import { chatTextSchema, clientFrameSchema, WS_CLOSE_BANNED, type ClientFrame } from "../../contracts/chat.ts";
import type { Logger } from "../../lib/logger.ts";
import { RateLimiter } from "../../lib/rate-limit.ts";
import { BANNED_MESSAGE, type ChatHub, type ChatIdentity } from "./hub.ts";

/** Hands a donation the viewer reports over to the payments side, which counts it once if it succeeded. */
export interface DonationReporter {
  /** Resolves to a message for the viewer when the report is refused, or null when it is (or already was) counted. */
  reportDonation(paymentIntentId: string, viewer: ChatIdentity): Promise<string | null>;
}

/** A refusal the sender sees as an `error` event. */
class FrameRefused extends Error {}

type Connection = NonNullable<ReturnType<ChatHub["connection"]>>;
type TargetFrame = Extract<ClientFrame, { type: "kick" | "kick_user" | "ban" | "ban_user" }>;

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
  private readonly chatBurst = new RateLimiter(CHAT_LIMIT.burst, CHAT_LIMIT.burstWindowMs);
  private readonly chatSustained = new RateLimiter(CHAT_LIMIT.sustained, CHAT_LIMIT.sustainedWindowMs);
  private readonly hearts = new RateLimiter(HEARTS_PER_SECOND, 1000);
  private readonly donationReports = new RateLimiter(DONATION_REPORTS_PER_MINUTE, 60_000);

  constructor(
    private readonly hub: ChatHub,
    private readonly log: Logger,
    private readonly donations: DonationReporter,
  ) {}

  async receive(connectionId: string, raw: unknown): Promise<void> {
    const connection = this.hub.connection(connectionId);
    if (!connection || !this.hub.takeFrame(connection)) return;
    const parsed = clientFrameSchema.safeParse(raw);
    if (!parsed.success) return this.refuse(connection, describeInvalidFrame(raw, parsed.error));
    try {
      await this.route(connection, parsed.data);
    } catch (error) {
      if (error instanceof FrameRefused) return this.refuse(connection, error.message);
      this.log.error(`chat frame '${parsed.data.type}' failed`, error);
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
        if (this.hearts.hit(c.identity.key) === 0) this.hub.addHeart();
        return;
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
    }
  }

  private refuse(c: Connection, message: string): void {
    this.hub.sendTo(c.socket, { type: "error", message });
  }

  private authenticate(c: Connection): void {
    const { identity } = c;
    if (!identity.isAdmin && this.hub.isBanned(identity.username, identity.accessCodeId)) {
      this.hub.disconnect(c, WS_CLOSE_BANNED, "Banned", BANNED_MESSAGE);
      return;
    }
    this.hub.sendTo(c.socket, { type: "auth_ok", username: identity.username, isModerator: identity.isModerator });
  }

  private chat(c: Connection, rawText: string): void {
    const text = chatTextSchema.safeParse(rawText);
    if (!text.success) throw new FrameRefused(text.error.issues[0]?.message ?? "Invalid message");
    const key = c.identity.key;
    const wait = Math.max(this.chatBurst.hit(key), this.chatSustained.hit(key));
    if (wait > 0) {
      const seconds = Math.ceil(wait);
      this.hub.sendTo(c.socket, {
        type: "system_message",
        message: `You are sending messages too fast. Please wait ${seconds} second${seconds === 1 ? "" : "s"}.`,
      });
      return;
    }
    const line = this.hub.messages.add({ userId: c.identity.userId, username: c.identity.username, text: text.data, type: "user" });
    this.hub.broadcast({ type: "chat", message: line });
  }

  private async donation(c: Connection, paymentIntentId: string): Promise<void> {
    if (this.donationReports.hit(c.identity.key) > 0) throw new FrameRefused("Too many donation reports. Please wait a minute.");
    const refusal = await this.donations.reportDonation(paymentIntentId, c.identity);
    if (refusal) throw new FrameRefused(refusal);
  }

  private requireModerator(c: Connection): void {
    if (!c.identity.isModerator) throw new FrameRefused("Only moderators can do that.");
  }

  private deleteMessage(c: Connection, messageId: string): void {
    this.requireModerator(c);
    if (!this.hub.messages.delete(messageId)) throw new FrameRefused("That message no longer exists.");
    this.hub.broadcast({ type: "message_deleted", messageId });
  }

  private togglePin(c: Connection, messageId: string): void {
    this.requireModerator(c);
    const changed = this.hub.messages.togglePin(messageId);
    if (!changed) throw new FrameRefused("That message no longer exists.");
    for (const message of changed) this.hub.broadcast({ type: "message_updated", message });
  }

  private removeUser(c: Connection, frame: TargetFrame): void {
    this.requireModerator(c);
    const banning = frame.type === "ban" || frame.type === "ban_user";
    const verb = banning ? "ban" : "kick";
    const target = this.findTarget(frame);
    if (target.username.toLowerCase() === c.identity.username.toLowerCase()) throw new FrameRefused(`You cannot ${verb} yourself.`);
    if (target.isAdmin) throw new FrameRefused("Admins cannot be kicked or banned.");
    if (target.isModerator && !c.identity.isAdmin) throw new FrameRefused("Only an admin can remove a moderator.");
    if (banning) this.hub.ban(target.username, target.accessCodeId, c.identity.username);
    else this.hub.kick(target.username);
  }

  /** The user a kick or ban names: targetUsername, else the author of messageId, else username. */
  private findTarget(frame: TargetFrame): { username: string; accessCodeId: number | null; isModerator: boolean; isAdmin: boolean } {
    let name = frame.targetUsername?.trim();
    if (!name && frame.messageId) {
      const message = this.hub.messages.find(frame.messageId);
      if (!message) throw new FrameRefused("That message no longer exists.");
      name = message.username;
    }
    name ||= frame.username?.trim();
    if (!name) throw new FrameRefused("Say which user to act on.");

    const online = this.hub.socketsOf(name)[0]?.identity;
    if (online) return { username: online.username, accessCodeId: online.accessCodeId, isModerator: online.isModerator, isAdmin: false };
    const known = this.hub.bans.findViewer(name);
    if (known) return { username: known.username, accessCodeId: known.accessCodeId, isModerator: known.codeKind === "MOD", isAdmin: false };
    if (this.hub.socketsOf(name, true).length > 0 || this.hub.bans.isAdminName(name)) {
      return { username: name, accessCodeId: null, isModerator: true, isAdmin: true };
    }
    throw new FrameRefused(`There is no user named '${name.slice(0, 40)}'.`);
  }
}
