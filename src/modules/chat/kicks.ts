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
