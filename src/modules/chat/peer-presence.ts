import type { Cluster } from "../../cluster/cluster.ts";
import type { Logger } from "../../lib/logger.ts";

/** In a cluster: an instance not heard from for this long (its presence goes out every tick) no longer counts. */
export const PEER_TTL_MS = 3000;

/** In a cluster: what each other instance last said it serves, and what this one says in turn. */
export class PeerPresence {
  private readonly peers = new Map<string, { viewers: number; sockets: number; at: number }>();

  constructor(
    private readonly cluster: Cluster,
    private readonly log: Logger,
  ) {}

  /** Tells the others the people and sockets this instance serves, and the fake viewers if it runs them. */
  say(viewers: number, sockets: number, fake: number | null): void {
    this.cluster.send({ k: "presence", viewers, sockets, fake });
  }

  heard(from: string, viewers: number, sockets: number): void {
    this.peers.set(from, { viewers, sockets, at: Date.now() });
  }

  /** The people the other instances heard from lately serve. */
  viewers(): number {
    if (this.peers.size === 0) return 0;
    const now = Date.now();
    let viewers = 0;
    for (const peer of this.peers.values()) if (now - peer.at <= PEER_TTL_MS) viewers += peer.viewers;
    return viewers;
  }

  /** The other instances heard from lately, with the people and sockets each serves. */
  stats(): { name: string; viewers: number; sockets: number }[] {
    const now = Date.now();
    return [...this.peers].filter(([, p]) => now - p.at <= PEER_TTL_MS).map(([name, p]) => ({ name, viewers: p.viewers, sockets: p.sockets }));
  }

  /** Forgets the instances not heard from lately; true when there was one. */
  prune(): boolean {
    const now = Date.now();
    let gone = false;
    for (const [name, peer] of this.peers) {
      if (now - peer.at <= PEER_TTL_MS) continue;
      this.peers.delete(name);
      this.log.info(`[${this.cluster.name}] instance ${name} is no longer heard from; its viewers are no longer counted`);
      gone = true;
    }
    return gone;
  }
}
