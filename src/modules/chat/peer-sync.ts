import type { Cluster } from "../../cluster/cluster.ts";
import type { ClusterMessage } from "../../cluster/messages.ts";
import { WS_CLOSE_BANNED, WS_CLOSE_KICKED, type ServerEvent } from "../../contracts/chat.ts";
import { BANNED_MESSAGE, PASS_ENDED_MESSAGE } from "../../contracts/notices.ts";
import type { Logger } from "../../lib/logger.ts";
import type { BanList } from "./bans.ts";
import type { Connection } from "./connection.ts";
import type { LiveCounters } from "./counters.ts";
import type { DonationMeter } from "./donation-meter.ts";
import type { ChatFanout } from "./fanout.ts";
import type { ChatKicks } from "./kicks.ts";
import type { ChatMessageStore } from "./messages.ts";
import type { ChatModeration } from "./moderation.ts";
import type { PeerPresence } from "./peer-presence.ts";
import type { SendPath } from "./send-path.ts";

/** What the hub keeps in memory that the other instances' messages change. */
export interface PeerSyncParts {
  messages: ChatMessageStore;
  bans: BanList;
  moderation: ChatModeration;
  counters: LiveCounters;
  kicks: ChatKicks;
  presence: PeerPresence;
  fanout: ChatFanout;
  donations: DonationMeter;
}

/** The hub's sockets, as a gap in the other instances' messages reaches them. */
export interface PeerSyncSockets {
  /** The viewers' sockets open here (not closing). */
  openViewers(): Connection[];
  /** A last notice to that socket, then close it. */
  disconnect(connection: Connection, code: number, reason: string, notice: string): void;
  /** The chat's history to every socket here, replacing their list as it does when they reconnect. */
  resendHistory(): void;
}

/**
 * In a cluster: the other instances' messages, applied in the order they came, so that what this instance
 * keeps in memory and what its viewers see follow what was done elsewhere; after a gap in them, what they
 * changed is read from the database.
 */
export class PeerSync {
  /** The other instances' events, applied in the order they came. */
  private applied: Promise<void> = Promise.resolve();

  constructor(
    cluster: Cluster,
    private readonly log: Logger,
    private readonly parts: PeerSyncParts,
    private readonly send: Pick<SendPath, "deliver" | "applyToPeople">,
    private readonly sockets: PeerSyncSockets,
  ) {
    cluster.listen((message, from) => this.fromPeer(message, from));
    cluster.onResync(() => this.inOrder(() => this.resync(), "could not read the chat again after a gap"));
  }

  /**
   * Every tick: forgets the instances not heard from lately, then says what this one serves. One that died
   * may have stored a line it never got to tell the others about, so the history is read again.
   */
  tick(viewers: number, sockets: number, fake: number | null): void {
    if (this.parts.presence.prune()) this.inOrder(() => this.parts.messages.load(), "could not read the chat history again");
    this.parts.presence.say(viewers, sockets, fake);
  }

  private fromPeer(message: ClusterMessage, from: string): void {
    const { moderation, counters, kicks, presence } = this.parts;
    switch (message.k) {
      case "event": {
        const { event } = message;
        this.inOrder(() => this.applyPeerEvent(event), `could not apply '${event.type}' from ${from}`);
        return;
      }
      case "presence":
        presence.heard(from, message.viewers, message.sockets);
        if (message.fake !== null) counters.followFakeViewers(message.fake);
        return;
      case "hearts":
        counters.seeTotal(message.total);
        return;
      case "people":
        this.send.applyToPeople(message.who, message);
        return;
      case "kick":
        kicks.heard({ username: message.username, userId: message.userId ?? null, accessCodeId: message.accessCodeId ?? null, until: message.until });
        return;
      case "reload":
        if (message.what === "moderation") this.inOrder(() => moderation.load(), "could not read the chat rules again");
        return;
      case "fake":
        counters.applyFakeViewerSettings(message.enabled, message.target);
        return;
    }
  }

  /** Another instance's event: what this instance keeps in memory follows it, then its viewers get it. */
  private async applyPeerEvent(event: ServerEvent): Promise<void> {
    switch (event.type) {
      case "chat":
        this.parts.messages.remember(event.message);
        break;
      case "message_deleted":
      case "message_updated":
        // The change may reach anywhere into the history: read again, as the instance that made it did.
        await this.parts.messages.load();
        break;
      case "user_banned":
      case "user_kicked":
        this.parts.fanout.drop(event.username);
        // Their lines are hidden again here: one this instance was storing as the other hid them is hidden
        // too (the replay and the history never bring it back). The history is read again with it.
        await this.parts.messages.deleteAllBy(event.username);
        break;
      case "donation_update":
        this.parts.donations.show(event.current, event.goal);
        break;
    }
    this.send.deliver(event);
  }

  /** After a gap in the other instances' messages (Redis lost and back): what they changed is read from the database. */
  private async resync(): Promise<void> {
    await this.parts.messages.load();
    await this.parts.moderation.load();
    await this.parts.counters.reload();
    await this.parts.donations.refresh(false);
    await this.closeWhatWasEndedElsewhere();
    await this.parts.kicks.share();
    // What this instance's viewers missed (lines sent elsewhere, deletes, pins, bans, kicks): the history
    // replaces their list, as it does when they reconnect.
    this.sockets.resendHistory();
  }

  /** Sockets here of people banned, or passes revoked, on another instance while its messages could not arrive. */
  private async closeWhatWasEndedElsewhere(): Promise<void> {
    const bans = await this.parts.bans.names();
    const names = new Set(bans.map((b) => b.username.toLowerCase()));
    const codes = new Set(bans.flatMap((b) => (b.accessCodeId === null ? [] : [b.accessCodeId])));
    const open = this.sockets.openViewers();
    for (const c of open) {
      if (names.has(c.identity.username.toLowerCase()) || (c.identity.accessCodeId !== null && codes.has(c.identity.accessCodeId))) {
        this.sockets.disconnect(c, WS_CLOSE_BANNED, "Banned", BANNED_MESSAGE);
      }
    }
    const held = [...new Set(open.flatMap((c) => (c.closing || c.identity.accessCodeId === null ? [] : [c.identity.accessCodeId])))];
    const revoked = new Set(await this.parts.bans.revokedAmong(held));
    for (const c of open) {
      if (!c.closing && c.identity.accessCodeId !== null && revoked.has(c.identity.accessCodeId)) this.sockets.disconnect(c, WS_CLOSE_KICKED, "Revoked", PASS_ENDED_MESSAGE);
    }
  }

  private inOrder(task: () => Promise<void>, failure: string): void {
    this.applied = this.applied.then(task).catch((error: unknown) => this.log.error(failure, error));
  }
}
