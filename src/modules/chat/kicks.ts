import type { Cluster } from "../../cluster/cluster.ts";
import type { People } from "../../cluster/messages.ts";
import { WS_CLOSE_KICKED } from "../../contracts/chat-limits.ts";
import { KICKED_MESSAGE } from "../../contracts/notices.ts";
import { forbidden } from "../../lib/errors.ts";
import type { SendPath } from "./send-path.ts";

export const KICK_COOLDOWN_MS = 60_000;
/** How a kicked person's sockets close. */
const KICK_CLOSE = { code: WS_CLOSE_KICKED, reason: "Kicked", notice: KICKED_MESSAGE };

/** Whom a kick is for: the name, and when known the user and the access code behind it. */
export interface KickTarget {
  username: string;
  userId: number | null;
  accessCodeId: number | null;
}

/** A kick as it is kept and told to the other instances of a cluster. */
export interface Kick extends KickTarget {
  /** Epoch ms: the person may rejoin from then. */
  until: number;
}

/**
 * The kicks' cool-downs, in memory. A kick holds the person as a timeout or a ban does: by name, by user and
 * by code, so a new chat name on the same code (`bob` kicked, back as `bob2` a moment later) does not undo it.
 */
export class KickList {
  private readonly byName = new Map<string, Kick>();
  private readonly byUser = new Map<number, number>();
  private readonly byCode = new Map<number, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps a kick, or the later end of it and one already kept for that person. */
  keep(kick: Kick): void {
    const name = kick.username.toLowerCase();
    const before = this.byName.get(name);
    this.byName.set(name, {
      username: kick.username,
      userId: kick.userId ?? before?.userId ?? null,
      accessCodeId: kick.accessCodeId ?? before?.accessCodeId ?? null,
      until: Math.max(kick.until, before?.until ?? 0),
    });
    if (kick.userId !== null) this.byUser.set(kick.userId, Math.max(kick.until, this.byUser.get(kick.userId) ?? 0));
    if (kick.accessCodeId !== null) this.byCode.set(kick.accessCodeId, Math.max(kick.until, this.byCode.get(kick.accessCodeId) ?? 0));
  }

  /** Epoch ms until which this person is kicked out (by name, user or code); 0 when they are not. */
  until(who: KickTarget): number {
    const until = Math.max(
      this.byName.get(who.username.toLowerCase())?.until ?? 0,
      who.userId === null ? 0 : (this.byUser.get(who.userId) ?? 0),
      who.accessCodeId === null ? 0 : (this.byCode.get(who.accessCodeId) ?? 0),
    );
    return until > this.now() ? until : 0;
  }

  /** The kicks still running. */
  running(): Kick[] {
    this.prune();
    return [...this.byName.values()];
  }

  /** Forgets the kicks run out. */
  prune(): void {
    const now = this.now();
    for (const [name, kick] of this.byName) if (kick.until <= now) this.byName.delete(name);
    for (const [id, until] of this.byUser) if (until <= now) this.byUser.delete(id);
    for (const [id, until] of this.byCode) if (until <= now) this.byCode.delete(id);
  }
}

/**
 * The chat's kicks: each one's cool-down, told to the other instances of a cluster (and kept in Redis for
 * one that cannot hear it now), and the kicked person's sockets closed on every instance.
 */
export class ChatKicks {
  private readonly list = new KickList();

  constructor(
    private readonly cluster: Cluster,
    private readonly send: Pick<SendPath, "toPeople" | "applyToPeople">,
  ) {}

  /** Kicked (by name, user or code) less than the cool-down ago. */
  isKickedOut(who: KickTarget): boolean {
    return this.list.until(who) > 0;
  }

  /** Refuses a new socket of someone kicked, saying when they can rejoin. */
  refuseKickedOut(who: KickTarget): void {
    const until = this.list.until(who);
    if (until > 0) {
      const seconds = Math.ceil((until - Date.now()) / 1000);
      throw forbidden(`You were removed from the chat. You can rejoin in ${seconds} seconds.`);
    }
  }

  /** A kick made here: its cool-down starts now, here and on the other instances. */
  start(target: KickTarget): Kick {
    const kick: Kick = { username: target.username, userId: target.userId, accessCodeId: target.accessCodeId, until: Date.now() + KICK_COOLDOWN_MS };
    this.list.prune();
    this.list.keep(kick);
    this.tell(kick);
    return kick;
  }

  /** The kicked person's sockets close, here and on every other instance. */
  closeSockets(kick: KickTarget): void {
    this.send.toPeople(peopleOf(kick), { close: KICK_CLOSE });
  }

  /** A kick another instance made. */
  heard(kick: Kick): void {
    this.list.keep(kick);
  }

  /**
   * Kicks outlive a gap: those made here while the others could not hear are told again (and kept in Redis
   * for an instance not yet back), and those made elsewhere meanwhile close their sockets here.
   */
  async share(): Promise<void> {
    for (const kick of this.list.running()) {
      this.tell(kick);
      this.closeSockets(kick);
    }
    for (const [member, until] of await this.cluster.marks("kick")) {
      if (until <= Date.now()) continue;
      const who = kickOfMark(member);
      this.list.keep({ ...who, until });
      this.send.applyToPeople(who, { close: KICK_CLOSE });
    }
  }

  /** A kick's cool-down, to the other instances now and in Redis for one that cannot hear it now. */
  private tell(kick: Kick): void {
    const { username, userId, accessCodeId, until } = kick;
    this.cluster.send({ k: "kick", username, userId, accessCodeId, until });
    this.cluster.mark("kick", JSON.stringify({ username: username.toLowerCase(), userId, accessCodeId }), until);
  }
}

/** The sockets a kick closes: under the name, of the user, opened with the code. */
function peopleOf(kick: KickTarget): People {
  return { username: kick.username, userId: kick.userId, accessCodeId: kick.accessCodeId };
}

/** Whom a kick kept in Redis is for: its member as written (an earlier version wrote the name alone). */
function kickOfMark(member: string): KickTarget {
  try {
    const kick = JSON.parse(member) as Partial<KickTarget>;
    if (typeof kick.username === "string" && kick.username) {
      return {
        username: kick.username,
        userId: typeof kick.userId === "number" ? kick.userId : null,
        accessCodeId: typeof kick.accessCodeId === "number" ? kick.accessCodeId : null,
      };
    }
  } catch {
    // The name alone.
  }
  return { username: member, userId: null, accessCodeId: null };
}
