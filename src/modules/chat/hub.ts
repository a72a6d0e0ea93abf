import { intervalJob, type Cluster } from "../../cluster/cluster.ts";
import { SoloCluster } from "../../cluster/solo-cluster.ts";
import type { ClusterMessage, People, PeopleAction } from "../../cluster/messages.ts";
import type { Store } from "../../db/store.ts";
import type { ChatMessage, ServerEvent, StreamSettingsUpdate } from "../../contracts/chat.ts";
import { WS_CLOSE_BANNED, WS_CLOSE_KICKED, WS_CLOSE_SESSION_ENDED } from "../../contracts/chat.ts";
import { DEVICE_RESET_MESSAGE } from "../../contracts/chat-limits.ts";
import { formatMoney } from "../../contracts/money.ts";
import { BANNED_MESSAGE, PASS_ENDED_MESSAGE } from "../../contracts/notices.ts";
import { forbidden } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { BanList, type BannedUser } from "./bans.ts";
import { newConnection, type ChatIdentity, type ChatSocket, type Connection, type TopicPublisher } from "./connection.ts";
import { LiveCounters } from "./counters.ts";
import { ChatFanout, DEFAULT_CHAT_BATCHING, type ChatBatching } from "./fanout.ts";
import { ChatKicks, type KickTarget } from "./kicks.ts";
import { ChatMessageStore, type NewMessage, type Stored } from "./messages.ts";
import { ChatModeration } from "./moderation.ts";
import { SocketLimits } from "./socket-limits.ts";

/** A donation the payments side has counted (once, after its intent succeeded). Money in minor units. */
export interface CountedDonation {
  userId: number | null;
  username: string;
  amount: number;
  currency: string;
  /** All counted donations, this one included. */
  total: number;
  goal: number;
}

/** The settings the hub reads: goal and donation total (pence) and the fake viewer setting. */
export interface HubSettingsSource {
  get(): Promise<{ donationGoal: number; fakeViewersEnabled: boolean; fakeViewersTarget: number }>;
  donationTotal(): Promise<number>;
}

/** The viewer-session side: ban checks by name or code, and ending a banned code's sessions. */
export interface ViewerSessionBans {
  isBanned(username: string, accessCodeId: number | null): Promise<boolean>;
  endAllForCode(accessCodeId: number): Promise<void>;
}

export const BROADCAST_TOPIC = "live";
/**
 * The counts go out on a tick, never per click: at most hearts + viewer_count + stats per tick, so a
 * 600 ms tick keeps every viewer at ≤ 5 count frames a second however fast hearts come or viewers
 * arrive (a 250 ms tick sent hearts + stats four times a second, 8 frames, through a heart storm).
 */
export const COUNTS_TICK_MS = 600;
export const FAKE_VIEWERS_TICK_MS = 2000;
/** In a cluster: an instance not heard from for this long (its presence goes out every tick) no longer counts. */
export const PEER_TTL_MS = 3000;

/**
 * The live event's hub: who is connected, the fan-out to everyone (one JSON string per event, Bun's
 * pub/sub), private sends, the coalesced heart and viewer counters and the fake viewers.
 */
export class ChatHub {
  readonly messages: ChatMessageStore;
  readonly bans: BanList;
  /** Timeouts, slow mode, filters and the moderation log. */
  readonly moderation: ChatModeration;
  private readonly connections = new Map<string, Connection>();
  private readonly limits: SocketLimits;
  private readonly kicks: ChatKicks;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private publisher: TopicPublisher | null = null;
  private readonly counters: LiveCounters;
  private readonly fanout: ChatFanout;
  /** The `chatHistory` frame, serialised once per change of the log (and of the lines held) rather than once per joining socket. */
  private history = { key: "", frame: "" };
  /** The donation meter as every viewer last saw it; a joining socket gets it without a query. */
  private donation = { current: 0, goal: 0 };
  private stopped = false;
  /** In a cluster: what each other instance last said it serves, and when. */
  private readonly peers = new Map<string, { viewers: number; sockets: number; at: number }>();
  /** In a cluster: the other instances' events, applied in the order they came. */
  private peerEvents: Promise<void> = Promise.resolve();
  /** What this instance has handled since it started, for the metrics. */
  private readonly live = { lines: 0, hearts: 0, frames: 0 };
  /** The counters as they were at each tick of the last ten seconds (for the per-second rates). */
  private readonly liveHistory: { at: number; lines: number; hearts: number }[] = [];
  /** This instance steps the fake viewers (alone, always; in a cluster, while it holds that job). */
  private runsFakeViewers = false;

  constructor(
    private readonly store: Store,
    private readonly settings: HubSettingsSource,
    private readonly sessions: ViewerSessionBans,
    private readonly log: Logger,
    batching: ChatBatching = DEFAULT_CHAT_BATCHING,
    private readonly cluster: Cluster = new SoloCluster("solo"),
  ) {
    this.limits = new SocketLimits(cluster);
    this.kicks = new ChatKicks(cluster, { everywhere: (who, action) => this.toPeople(who, action), here: (who, action) => this.applyToPeople(who, action) });
    this.fanout = new ChatFanout(
      (frame) => {
        this.live.frames++;
        if (this.publisher && this.connections.size > 0) this.publisher.publish(BROADCAST_TOPIC, frame);
      },
      batching,
      undefined,
      (drafts) => this.storeLines(drafts),
    );
    this.messages = new ChatMessageStore(store);
    this.bans = new BanList(store);
    this.moderation = new ChatModeration(store);
    this.counters = new LiveCounters(store, log);
    this.counters.onSaved = (total) => this.cluster.send({ k: "hearts", total });
    cluster.listen((message, from) => this.fromPeer(message, from));
    cluster.onResync(() => {
      this.peerEvents = this.peerEvents.then(() => this.resync()).catch((error: unknown) => this.log.error("could not read the chat again after a gap", error));
    });
  }

  /** Reads what the live event keeps in memory (history, rules, timeouts, hearts, the meter) and starts the ticks. */
  async load(): Promise<void> {
    const settings = await this.settings.get();
    await this.messages.load();
    await this.moderation.load();
    await this.counters.load({ enabled: settings.fakeViewersEnabled, target: settings.fakeViewersTarget });
    this.donation = { current: await this.settings.donationTotal(), goal: settings.donationGoal };
    if (this.stopped || this.timers.length > 0) return;
    this.liveHistory.push({ at: Date.now(), lines: 0, hearts: 0 });
    this.timers.push(setInterval(() => this.publishChangedCounts(), COUNTS_TICK_MS));
    this.cluster.single(
      "fake-viewers",
      intervalJob(() => this.counters.stepFakeViewers(), FAKE_VIEWERS_TICK_MS, { owned: (owned) => (this.runsFakeViewers = owned) }),
    );
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
    socket.subscribe(BROADCAST_TOPIC);
    socket.cork(() => {
      socket.send(this.historyFrame());
      for (const event of this.counters.snapshot(this.realViewerCount())) this.sendTo(socket, event);
      this.sendTo(socket, { type: "donation_update", current: this.donation.current, goal: this.donation.goal });
      this.sendTo(socket, { type: "slow_mode", seconds: this.moderation.slowModeSeconds() });
      const timedOut = this.moderation.timeouts.secondsLeft(identity);
      if (timedOut > 0) this.sendTo(socket, { type: "chat_cooldown", reason: "timeout", seconds: timedOut });
    });
  }

  /** The stored lines, less those still held for the next batch: the joining socket gets those in the batch, once. */
  private historyFrame(): string {
    const held = this.fanout.held();
    const key = `${this.messages.revision}:${held.length}`;
    if (this.history.key !== key) {
      const heldIds = new Set(held.map((m) => m.id));
      const messages = this.messages.history().filter((m) => !heldIds.has(m.id));
      this.history = { key, frame: JSON.stringify({ type: "chatHistory", messages } satisfies ServerEvent) };
    }
    return this.history.frame;
  }

  closed(id: string): void {
    const connection = this.connections.get(id);
    if (!connection) return;
    this.connections.delete(id);
    this.limits.closed(connection.identity.key, connection.ip);
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
    return [...this.connections.values()].filter(
      (c) => !c.closing && c.identity.username.toLowerCase() === wanted && (includeAdmins || !c.identity.isAdmin),
    );
  }

  // --- sending ----------------------------------------------------------------------------------------

  /**
   * One JSON string for everyone, through the server's pub/sub; chat lines batched while the chat is busy.
   * In a cluster the event goes once to the other instances, which send it to their own viewers.
   */
  broadcast(event: ServerEvent): void {
    if (event.type === "chat") this.live.lines++;
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
      this.live.lines++;
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
   * Frames for some people's sockets, or their sockets closed — here and on every other instance. Viewer
   * sockets only (an admin's never): those under the name, of that user, or opened with that code.
   */
  toPeople(who: People, action: PeopleAction): void {
    this.cluster.send({ k: "people", who, ...action });
    this.applyToPeople(who, action);
  }

  private applyToPeople(who: People, action: PeopleAction): void {
    const name = who.username?.toLowerCase();
    for (const c of [...this.connections.values()]) {
      const { identity } = c;
      if (c.closing || identity.isAdmin) continue;
      const matches =
        (name !== undefined && identity.username.toLowerCase() === name) ||
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

  // --- the other instances of a cluster ------------------------------------------------------------------

  private fromPeer(message: ClusterMessage, from: string): void {
    switch (message.k) {
      case "event": {
        const { event } = message;
        this.peerEvents = this.peerEvents.then(() => this.applyPeerEvent(event)).catch((error: unknown) => this.log.error(`could not apply '${event.type}' from ${from}`, error));
        return;
      }
      case "presence":
        this.peers.set(from, { viewers: message.viewers, sockets: message.sockets, at: Date.now() });
        if (message.fake !== null && !this.runsFakeViewers) this.counters.followFakeViewers(message.fake);
        return;
      case "hearts":
        this.counters.seeTotal(message.total);
        return;
      case "people":
        this.applyToPeople(message.who, message);
        return;
      case "kick":
        this.kicks.heard({ username: message.username, userId: message.userId ?? null, accessCodeId: message.accessCodeId ?? null, until: message.until });
        return;
      case "reload":
        if (message.what === "moderation") {
          this.peerEvents = this.peerEvents.then(() => this.moderation.load()).catch((error: unknown) => this.log.error("could not read the chat rules again", error));
        }
        return;
      case "fake":
        this.counters.applyFakeViewerSettings(message.enabled, message.target);
        return;
    }
  }

  /** Another instance's event: what this instance keeps in memory follows it, then its viewers get it. */
  private async applyPeerEvent(event: ServerEvent): Promise<void> {
    switch (event.type) {
      case "chat":
        this.messages.remember(event.message);
        break;
      case "message_deleted":
      case "message_updated":
      case "user_banned":
      case "user_kicked":
        if (event.type === "user_banned" || event.type === "user_kicked") this.fanout.drop(event.username);
        // The change may reach anywhere into the history: read again, as the instance that made it did.
        await this.messages.load();
        break;
      case "donation_update":
        this.donation = { current: event.current, goal: event.goal };
        break;
    }
    this.deliver(event);
  }

  /** After a gap in the other instances' messages (Redis lost and back): what they changed is read from the database. */
  private async resync(): Promise<void> {
    await this.messages.load();
    await this.moderation.load();
    await this.counters.reload();
    await this.broadcastDonationTotal(false);
    await this.closeWhatWasEndedElsewhere();
    await this.kicks.share();
    // What this instance's viewers missed (lines sent elsewhere, deletes, pins, bans, kicks): the history
    // replaces their list, as it does when they reconnect.
    const history = this.historyFrame();
    for (const c of this.connections.values()) if (!c.closing) c.socket.send(history);
  }

  /** Sockets here of people banned, or passes revoked, on another instance while its messages could not arrive. */
  private async closeWhatWasEndedElsewhere(): Promise<void> {
    const bans = await this.bans.names();
    const names = new Set(bans.map((b) => b.username.toLowerCase()));
    const codes = new Set(bans.flatMap((b) => (b.accessCodeId === null ? [] : [b.accessCodeId])));
    const open = [...this.connections.values()].filter((c) => !c.closing && !c.identity.isAdmin);
    for (const c of open) {
      if (names.has(c.identity.username.toLowerCase()) || (c.identity.accessCodeId !== null && codes.has(c.identity.accessCodeId))) {
        this.disconnect(c, WS_CLOSE_BANNED, "Banned", BANNED_MESSAGE);
      }
    }
    const held = [...new Set(open.flatMap((c) => (c.closing || c.identity.accessCodeId === null ? [] : [c.identity.accessCodeId])))];
    const revoked = new Set(await this.bans.revokedAmong(held));
    for (const c of open) {
      if (!c.closing && c.identity.accessCodeId !== null && revoked.has(c.identity.accessCodeId)) this.disconnect(c, WS_CLOSE_KICKED, "Revoked", PASS_ENDED_MESSAGE);
    }
  }

  sendTo(socket: ChatSocket, event: ServerEvent): void {
    socket.send(JSON.stringify(event));
  }

  // --- moderation effects -----------------------------------------------------------------------------

  /** Kicked (by name, user or code) less than the cool-down ago: the stream relay refuses them too until then. */
  isKickedOut(who: KickTarget): boolean {
    return this.kicks.isKickedOut(who);
  }

  /**
   * Tells everyone the user was kicked, hides their messages and closes their sockets for a minute: those
   * under the name, of that user and opened with that code, which cannot come back under another name.
   */
  async kick(target: KickTarget): Promise<void> {
    const kick = this.kicks.start(target);
    this.fanout.drop(kick.username);
    await this.messages.deleteAllBy(kick.username);
    this.broadcast({ type: "user_kicked", username: kick.username });
    this.kicks.closeSockets(kick);
  }

  /** Stores the ban by name and code, tells everyone, hides their messages and closes their sockets. */
  async ban(username: string, accessCodeId: number | null, bannedBy: string, reason: string | null = null): Promise<void> {
    this.fanout.drop(username);
    await this.bans.ban(username, accessCodeId, bannedBy, reason);
    if (accessCodeId !== null) await this.sessions.endAllForCode(accessCodeId);
    await this.messages.deleteAllBy(username);
    this.broadcast({ type: "user_banned", username });
    // Every socket under that name, and any opened with the same code under another name.
    this.toPeople({ username, accessCodeId }, { close: { code: WS_CLOSE_BANNED, reason: "Banned", notice: BANNED_MESSAGE } });
  }

  /** A code revoked after a refund or dispute: its sockets close with a notice and do not reconnect. */
  closeCode(accessCodeId: number, notice = PASS_ENDED_MESSAGE): void {
    this.toPeople({ accessCodeId }, { close: { code: WS_CLOSE_KICKED, reason: "Revoked", notice } });
  }

  /**
   * An admin reset the code's device (its sessions are already ended): the device that held it loses the
   * chat at once, here and on every other instance, and its page goes back to /access.
   */
  closeResetDevice(accessCodeId: number): void {
    this.toPeople({ accessCodeId }, { close: { code: WS_CLOSE_SESSION_ENDED, reason: "Device reset", notice: DEVICE_RESET_MESSAGE } });
  }

  /** For the admin panel: lifts a ban (logged). False when that name was not banned. */
  async unban(username: string, by: string): Promise<boolean> {
    const lifted = await this.bans.unban(username);
    if (lifted) await this.moderation.log.record({ action: "unban", moderator: by, target: username.trim() });
    return lifted;
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
  async announceDonation(donation: CountedDonation): Promise<void> {
    this.donation = { current: donation.total, goal: donation.goal };
    // A timed-out donor's money counts, but no donation line goes to the chat.
    if (this.moderation.timeouts.secondsLeft({ userId: donation.userId, username: donation.username, accessCodeId: null }) > 0) {
      this.broadcast({ type: "donation_update", current: donation.total, goal: donation.goal });
      return;
    }
    await this.postLine({
      userId: donation.userId,
      username: donation.username,
      text: `donated ${formatMoney(donation.amount, donation.currency)}`,
      type: "donation",
      donationPence: donation.amount,
      donationCurrency: donation.currency,
    });
    this.broadcast({ type: "donation_update", current: donation.total, goal: donation.goal });
  }

  /** After a refund or dispute changed the donation total: every viewer's meter moves. */
  async broadcastDonationTotal(everywhere = true): Promise<void> {
    this.donation = { current: await this.settings.donationTotal(), goal: (await this.settings.get()).donationGoal };
    const event: ServerEvent = { type: "donation_update", ...this.donation };
    if (everywhere) this.broadcast(event);
    else this.deliver(event);
  }

  /** For the settings side after the admin saves: title, embed, goal… to everyone watching. */
  async broadcastSettings(settings: StreamSettingsUpdate): Promise<void> {
    const current = await this.settings.donationTotal();
    this.donation = { current, goal: settings.donationGoal };
    this.broadcast({ type: "settings_update", settings });
    this.broadcast({ type: "donation_update", current, goal: settings.donationGoal });
  }

  // --- counters ---------------------------------------------------------------------------------------

  addHeart(): void {
    this.live.hearts++;
    this.counters.addHeart();
  }

  /** Chat lines and hearts taken here, and frames fanned out, since the start; lines and hearts a second over the last ten seconds. */
  liveStats(): { lines: number; hearts: number; frames: number; linesPerSecond: number; heartsPerSecond: number } {
    const oldest = this.liveHistory[0];
    const seconds = oldest ? (Date.now() - oldest.at) / 1000 : 0;
    return {
      ...this.live,
      linesPerSecond: oldest && seconds > 0 ? (this.live.lines - oldest.lines) / seconds : 0,
      heartsPerSecond: oldest && seconds > 0 ? (this.live.hearts - oldest.hearts) / seconds : 0,
    };
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
    let viewers = this.limits.people();
    if (this.peers.size === 0) return viewers;
    const now = Date.now();
    for (const peer of this.peers.values()) if (now - peer.at <= PEER_TTL_MS) viewers += peer.viewers;
    return viewers;
  }

  /**
   * Forgets the instances not heard from lately. One that died may have stored a line it never got to
   * tell the others about, so the history is read again.
   */
  private prunePeers(): void {
    const now = Date.now();
    let gone = false;
    for (const [name, peer] of this.peers) {
      if (now - peer.at <= PEER_TTL_MS) continue;
      this.peers.delete(name);
      this.log.info(`[${this.cluster.name}] instance ${name} is no longer heard from; its viewers are no longer counted`);
      gone = true;
    }
    if (gone) this.peerEvents = this.peerEvents.then(() => this.messages.load()).catch((error: unknown) => this.log.error("could not read the chat history again", error));
  }

  /** In a cluster: the other instances heard from lately, with the people and sockets each serves. */
  peerStats(): { name: string; viewers: number; sockets: number }[] {
    const now = Date.now();
    return [...this.peers].filter(([, p]) => now - p.at <= PEER_TTL_MS).map(([name, p]) => ({ name, viewers: p.viewers, sockets: p.sockets }));
  }

  currentFakeViewers(): number {
    return this.counters.currentFakeViewers();
  }

  /** For the admin panel after it saves the fake viewer setting (target 0–5000); the count then moves there gradually. */
  applyFakeViewerSettings(enabled: boolean, target: number): void {
    this.counters.applyFakeViewerSettings(enabled, target);
    this.cluster.send({ k: "fake", enabled, target });
  }

  /**
   * The coalescing tick: at most one hearts / viewer_count / stats frame per tick, only on change; the
   * hearts counted here are added to the total. In a cluster each instance says what it serves, and the
   * counts its viewers see are the cluster's.
   */
  private publishChangedCounts(): void {
    const now = Date.now();
    this.liveHistory.push({ at: now, lines: this.live.lines, hearts: this.live.hearts });
    while (this.liveHistory.length > 1 && now - this.liveHistory[0]!.at > 10_000) this.liveHistory.shift();
    if (this.cluster.clustered) {
      this.prunePeers();
      this.cluster.send({ k: "presence", viewers: this.limits.people(), sockets: this.connections.size, fake: this.runsFakeViewers ? this.counters.currentFakeViewers() : null });
    }
    for (const event of this.counters.changes(this.realViewerCount())) this.deliver(event);
    this.counters.keep();
  }

  // --- shutdown ---------------------------------------------------------------------------------------

  /** Stops the timers, keeps the heart count and closes every socket with 1001 going away. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    // The others stop counting this instance's viewers now rather than when its presence runs out.
    if (this.cluster.clustered) this.cluster.send({ k: "presence", viewers: 0, sockets: 0, fake: null });
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
