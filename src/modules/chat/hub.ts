import type { Cluster } from "../../cluster/cluster.ts";
import { SoloCluster } from "../../cluster/solo-cluster.ts";
import type { People, PeopleAction } from "../../cluster/messages.ts";
import type { Store } from "../../db/store.ts";
import type { ChatMessage, ServerEvent, StreamSettingsUpdate } from "../../contracts/chat.ts";
import { WS_CLOSE_STAFF_RECHECK } from "../../contracts/chat-limits.ts";
import { BANNED_MESSAGE, STAFF_RECHECK_MESSAGE } from "../../contracts/notices.ts";
import { forbidden } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { BanList, type BannedUser } from "./bans.ts";
import { newConnection, type ChatIdentity, type ChatSocket, type Connection, type TopicPublisher } from "./connection.ts";
import { LiveCounters } from "./counters.ts";
import { CountsTick } from "./counts-tick.ts";
import { DonationMeter, type CountedDonation } from "./donation-meter.ts";
import { ChatFanout, DEFAULT_CHAT_BATCHING, type ChatBatching } from "./fanout.ts";
import { HistoryFrame } from "./history-frame.ts";
import { ChatKicks, type KickTarget } from "./kicks.ts";
import { LiveStats, type LiveStatsReading } from "./live-stats.ts";
import { ChatMessageStore, type NewMessage, type Stored } from "./messages.ts";
import { ChatModeration } from "./moderation.ts";
import { ModerationEffects, type ViewerSessionBans } from "./moderation-effects.ts";
import { PeerPresence } from "./peer-presence.ts";
import { PeerSync } from "./peer-sync.ts";
import type { SendPath } from "./send-path.ts";
import { SocketLimits } from "./socket-limits.ts";

/** The settings the hub reads: goal and donation total (pence) and the fake viewer setting. */
export interface HubSettingsSource {
  get(): Promise<{ donationGoal: number; fakeViewersEnabled: boolean; fakeViewersTarget: number }>;
  donationTotal(): Promise<number>;
}

export const BROADCAST_TOPIC = "live";

/**
 * The live event's hub: who is connected, and the send path — the fan-out to everyone (one JSON string
 * per event, Bun's pub/sub), to the other instances of a cluster, and private sends. The rest is
 * delegated to the parts its constructor builds: socket limits, kicks, moderation effects, the donation
 * meter, the heart and viewer counters with their tick, live stats, and the other instances' presence and sync.
 */
export class ChatHub {
  readonly messages: ChatMessageStore;
  readonly bans: BanList;
  /** Timeouts, slow mode, filters and the moderation log. */
  readonly moderation: ChatModeration;
  private readonly connections = new Map<string, Connection>();
  private readonly limits: SocketLimits;
  private readonly kicks: ChatKicks;
  private readonly effects: ModerationEffects;
  private publisher: TopicPublisher | null = null;
  private readonly counters: LiveCounters;
  private readonly fanout: ChatFanout;
  private readonly history: HistoryFrame;
  private readonly donations: DonationMeter;
  private stopped = false;
  /** What this instance has handled since it started, for the metrics. */
  private readonly stats = new LiveStats();
  /** In a cluster: what each other instance last said it serves. */
  private readonly presence: PeerPresence;
  /** In a cluster: the other instances' events and gaps, applied here. */
  private readonly peers: PeerSync;
  private readonly ticks: CountsTick;

  constructor(
    private readonly store: Store,
    private readonly settings: HubSettingsSource,
    private readonly sessions: ViewerSessionBans,
    private readonly log: Logger,
    batching: ChatBatching = DEFAULT_CHAT_BATCHING,
    private readonly cluster: Cluster = new SoloCluster("solo"),
  ) {
    // What the parts below reach viewers through.
    const send: SendPath = {
      broadcast: (event) => this.broadcast(event),
      deliver: (event) => this.deliver(event),
      postLine: (draft) => this.postLine(draft),
      toPeople: (who, action) => this.toPeople(who, action),
      applyToPeople: (who, action) => this.applyToPeople(who, action),
    };
    this.limits = new SocketLimits(cluster);
    this.kicks = new ChatKicks(cluster, send);
    this.fanout = new ChatFanout(
      (frame) => {
        this.stats.frame();
        if (this.publisher && this.connections.size > 0) this.publisher.publish(BROADCAST_TOPIC, frame);
      },
      batching,
      undefined,
      (drafts) => this.storeLines(drafts),
    );
    this.messages = new ChatMessageStore(store);
    this.bans = new BanList(store);
    this.moderation = new ChatModeration(store);
    this.history = new HistoryFrame(this.messages, this.fanout);
    this.donations = new DonationMeter(settings, this.moderation.timeouts, send);
    this.effects = new ModerationEffects({ kicks: this.kicks, bans: this.bans, sessions, messages: this.messages, fanout: this.fanout, log: this.moderation.log }, send);
    this.counters = new LiveCounters(store, log);
    this.counters.onSaved = (total) => this.cluster.send({ k: "hearts", total });
    this.presence = new PeerPresence(cluster, log);
    const { messages, bans, moderation, counters, kicks, presence, fanout, donations } = this;
    this.peers = new PeerSync(cluster, log, { messages, bans, moderation, counters, kicks, presence, fanout, donations }, send, {
      openViewers: () => [...this.connections.values()].filter((c) => !c.closing && !c.identity.isAdmin),
      disconnect: (connection, code, reason, notice) => this.disconnect(connection, code, reason, notice),
      resendHistory: () => {
        const history = this.history.frame();
        for (const c of this.connections.values()) if (!c.closing) c.socket.send(history);
      },
    });
    this.ticks = new CountsTick(cluster, counters, this.stats, this.peers, send, {
      here: () => ({ viewers: this.limits.people(), sockets: this.connections.size }),
      realViewerCount: () => this.realViewerCount(),
    });
  }

  /** Reads what the live event keeps in memory (history, rules, timeouts, hearts, the meter) and starts the ticks. */
  async load(): Promise<void> {
    const settings = await this.settings.get();
    await this.messages.load();
    await this.moderation.load();
    await this.counters.load({ enabled: settings.fakeViewersEnabled, target: settings.fakeViewersTarget });
    this.donations.show(await this.settings.donationTotal(), settings.donationGoal);
    if (!this.stopped) this.ticks.start();
  }

  // --- connections ----------------------------------------------------------------------------------

  /** Refuses an upgrade the person may not make: banned, just kicked, or too many sockets open (for them or their address). */
  async admit(identity: ChatIdentity, ip = ""): Promise<void> {
    if (this.stopped) throw forbidden("The server is shutting down");
    if (!identity.isAdmin && (await this.isBanned(identity.username, identity.accessCodeId))) throw forbidden(BANNED_MESSAGE);
    this.kicks.refuseKickedOut(identity);
    await this.limits.check(identity.key, ip);
  }

  /** A socket has opened: it joins the broadcast and gets the history and the current counts. */
  open(id: string, socket: ChatSocket, identity: ChatIdentity, publisher: TopicPublisher | null, ip = ""): void {
    if (this.stopped) {
      socket.close(1001, "Server shutting down");
      return;
    }
    this.publisher ??= publisher;
    this.connections.set(id, newConnection(socket, identity, ip));
    this.limits.opened(identity.key, ip);
    this.ticks.wake();
    socket.subscribe(BROADCAST_TOPIC);
    socket.cork(() => {
      socket.send(this.history.frame());
      for (const event of this.counters.snapshot(this.realViewerCount())) this.sendTo(socket, event);
      this.sendTo(socket, this.donations.event());
      this.sendTo(socket, { type: "slow_mode", seconds: this.moderation.slowModeSeconds() });
      const timedOut = this.moderation.timeouts.secondsLeft(identity);
      if (timedOut > 0) this.sendTo(socket, { type: "chat_cooldown", reason: "timeout", seconds: timedOut });
    });
  }

  closed(id: string): void {
    const connection = this.connections.get(id);
    if (!connection) return;
    this.connections.delete(id);
    this.limits.closed(connection.identity.key, connection.ip);
    this.ticks.maybeRest();
  }

  /** Open sockets in all, and the addresses holding them (for tests and the log). */
  socketStats(): { sockets: number; people: number; addresses: number } {
    return { sockets: this.connections.size, people: this.limits.people(), addresses: this.limits.addresses() };
  }

  /** The open connection behind a socket id; undefined once it is closed or closing. */
  connection(id: string): Connection | undefined {
    const connection = this.connections.get(id);
    return connection?.closing ? undefined : connection;
  }

  /** Counts a frame against the socket's budget; false means drop it unread. */
  takeFrame(connection: Connection): boolean {
    return this.limits.takeFrame(connection);
  }

  /** Sockets of that chat name (case-insensitive); admins only when `includeAdmins`. */
  socketsOf(username: string, includeAdmins = false): Connection[] {
    const wanted = username.toLowerCase();
    return [...this.connections.values()].filter((c) => !c.closing && c.identity.username.toLowerCase() === wanted && (includeAdmins || !c.identity.isAdmin));
  }

  // --- sending ----------------------------------------------------------------------------------------

  /**
   * One JSON string for everyone, through the server's pub/sub; chat lines batched while the chat is busy.
   * In a cluster the event goes once to the other instances, which send it to their own viewers.
   */
  broadcast(event: ServerEvent): void {
    if (event.type === "chat") this.stats.line();
    this.cluster.send({ k: "event", event });
    this.deliver(event);
  }

  /**
   * A viewer's new line: stored and sent to everyone, in a busy chat with the others of its window (one
   * write for them all). Resolves once it has gone out, to null when its author was kicked or banned first.
   */
  postLine(draft: NewMessage): Promise<ChatMessage | null> {
    return this.fanout.submit(draft);
  }

  /**
   * A window's new lines stored at once; those stored go to the other instances, as a broadcast would.
   * Always in a transaction of their own: the event that sends them may come from inside another one.
   */
  private async storeLines(drafts: NewMessage[]): Promise<Stored[]> {
    const results = await this.store.outside(() => this.messages.addMany(drafts));
    for (const result of results) {
      if (!("line" in result)) continue;
      this.stats.line();
      this.cluster.send({ k: "event", event: { type: "chat", message: result.line } });
    }
    return results;
  }

  /** To this instance's viewers. */
  private deliver(event: ServerEvent): void {
    if (event.type === "chat") this.fanout.line(event.message);
    else this.fanout.event(event);
  }

  /**
   * Frames for some people's sockets, or their sockets closed — here and on every other instance: viewers'
   * sockets under the name, of that user, or opened with that code; a team member's only by their id.
   */
  toPeople(who: People, action: PeopleAction): void {
    this.cluster.send({ k: "people", who, ...action });
    this.applyToPeople(who, action);
  }

  private applyToPeople(who: People, action: PeopleAction): void {
    const name = who.username?.toLowerCase();
    for (const c of [...this.connections.values()]) {
      const { identity } = c;
      if (c.closing) continue;
      const matches = identity.isAdmin
        ? who.adminId != null && identity.key === `admin:${who.adminId}`
        : (name !== undefined && identity.username.toLowerCase() === name) ||
          (who.userId != null && identity.userId === who.userId) ||
          (who.accessCodeId != null && identity.accessCodeId === who.accessCodeId);
      if (!matches) continue;
      if (action.moderator !== undefined) {
        identity.isModerator = action.moderator;
        this.sendTo(c.socket, { type: "auth_ok", username: identity.username, isModerator: action.moderator });
      }
      for (const event of action.send ?? []) this.sendTo(c.socket, event);
      if (action.close) this.disconnect(c, action.close.code, action.close.reason, action.close.notice);
    }
  }

  /** Timeouts or chat rules were saved here: the other instances read them again. */
  moderationChanged(): void {
    this.cluster.send({ k: "reload", what: "moderation" });
  }

  sendTo(socket: ChatSocket, event: ServerEvent): void {
    socket.send(JSON.stringify(event));
  }

  // --- moderation effects -----------------------------------------------------------------------------

  /** Kicked (by name, user or code) less than the cool-down ago: the stream relay refuses them too until then. */
  isKickedOut(who: KickTarget): boolean {
    return this.kicks.isKickedOut(who);
  }

  /** Hides the person's messages and closes their sockets for a minute (see ModerationEffects.kick). */
  kick(target: KickTarget): Promise<void> {
    return this.effects.kick(target);
  }

  /** Stores the ban by name and code, tells everyone, hides their messages and closes their sockets. */
  ban(username: string, accessCodeId: number | null, bannedBy: string, reason: string | null = null): Promise<void> {
    return this.effects.ban(username, accessCodeId, bannedBy, reason);
  }

  /** A code revoked after a refund or dispute: its sockets close with a notice and do not reconnect. */
  closeCode(accessCodeId: number, notice?: string): void {
    this.effects.closeCode(accessCodeId, notice);
  }

  /**
   * A team member's rights changed: their sockets on every instance close (with a code that reconnects),
   * and each comes back with what its session may do now (staff, a viewer, or nobody).
   */
  recheckStaff(adminId: number): void {
    this.toPeople({ adminId }, { close: { code: WS_CLOSE_STAFF_RECHECK, reason: "Rights changed", notice: STAFF_RECHECK_MESSAGE } });
  }

  /** An admin reset the code's device: the device that held it loses the chat on every instance. */
  closeResetDevice(accessCodeId: number): void {
    this.effects.closeResetDevice(accessCodeId);
  }

  /** For the admin panel: lifts a ban (logged). False when that name was not banned. */
  unban(username: string, by: string): Promise<boolean> {
    return this.effects.unban(username, by);
  }

  /** For the admin panel: every ban, newest first. */
  listBans(): Promise<BannedUser[]> {
    return this.bans.list();
  }

  isBanned(username: string, accessCodeId: number | null): Promise<boolean> {
    return this.sessions.isBanned(username, accessCodeId);
  }

  /** A last notice to that socket, then close it. */
  disconnect(connection: Connection, code: number, reason: string, notice: string): void {
    if (connection.closing) return;
    connection.closing = true;
    this.sendTo(connection.socket, { type: "system_message", message: notice });
    connection.socket.close(code, reason);
  }

  // --- chat lines ---------------------------------------------------------------------------------------

  /** Called by the payments side once per counted donation: a donation line and the new progress. */
  announceDonation(donation: CountedDonation): Promise<void> {
    return this.donations.announce(donation);
  }

  /** After a refund or dispute changed the donation total: every viewer's meter moves. */
  broadcastDonationTotal(): Promise<void> {
    return this.donations.refresh(true);
  }

  /** For the settings side after the admin saves: title, embed, goal… to everyone watching. */
  broadcastSettings(settings: StreamSettingsUpdate): Promise<void> {
    return this.donations.settingsSaved(settings);
  }

  // --- counters ---------------------------------------------------------------------------------------

  addHeart(): void {
    this.stats.heart();
    this.counters.addHeart();
  }

  /** Chat lines and hearts taken here, and frames fanned out, since the start; lines and hearts a second over the last ten seconds. */
  liveStats(): LiveStatsReading {
    return this.stats.read();
  }

  heartCount(): number {
    return this.counters.heartCount();
  }

  /** Distinct people connected plus the fake viewers. */
  viewerCount(): number {
    return this.realViewerCount() + this.counters.currentFakeViewers();
  }

  /** Distinct people connected (to every instance of a cluster), without the fake viewers. */
  realViewerCount(): number {
    return this.limits.people() + this.presence.viewers();
  }

  /** In a cluster: the other instances heard from lately, with the people and sockets each serves. */
  peerStats(): { name: string; viewers: number; sockets: number }[] {
    return this.presence.stats();
  }

  currentFakeViewers(): number {
    return this.counters.currentFakeViewers();
  }

  /** For the admin panel after it saves the fake viewer setting (target 0–5000); the count then moves there gradually. */
  applyFakeViewerSettings(enabled: boolean, target: number): void {
    this.counters.applyFakeViewerSettings(enabled, target);
    this.cluster.send({ k: "fake", enabled, target });
  }

  // --- shutdown ---------------------------------------------------------------------------------------

  /** Stops the timers, keeps the heart count and closes every socket with 1001 going away. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.ticks.stop();
    // The others stop counting this instance's viewers now rather than when its presence runs out.
    if (this.cluster.clustered) this.presence.say(0, 0, null);
    this.fanout.flush();
    await this.fanout.settled();
    try {
      await this.counters.save();
    } catch (error) {
      this.log.error("could not save the heart count", error);
    }
    for (const c of this.connections.values()) c.socket.close(1001, "Server shutting down");
    this.connections.clear();
    this.limits.clear();
  }
}
