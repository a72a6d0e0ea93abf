import type { Cluster } from "../../cluster/cluster.ts";
import type { LiveCounters } from "./counters.ts";
import type { LiveStats } from "./live-stats.ts";
import type { PeerSync } from "./peer-sync.ts";
import type { SendPath } from "./send-path.ts";

/**
 * The counts go out on a tick, never per click: at most hearts + viewer_count + stats per tick, so a
 * 600 ms tick keeps every viewer at ≤ 5 count frames a second however fast hearts come or viewers
 * arrive (a 250 ms tick sent hearts + stats four times a second, 8 frames, through a heart storm).
 */
export const COUNTS_TICK_MS = 600;

/** What the tick reads of the hub's sockets. */
export interface CountsTickSockets {
  /** Distinct people with a socket open here, and the sockets. */
  here(): { viewers: number; sockets: number };
  /** Distinct people connected to every instance, without the fake viewers. */
  realViewerCount(): number;
}

/** The counts' tick (and the fake viewers' job, on the one instance that holds it). */
export class CountsTick {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly cluster: Cluster,
    private readonly counters: LiveCounters,
    private readonly stats: LiveStats,
    private readonly peers: PeerSync,
    private readonly send: Pick<SendPath, "deliver">,
    private readonly sockets: CountsTickSockets,
  ) {}

  start(): void {
    if (this.timer !== null) return;
    this.stats.start();
    this.timer = setInterval(() => this.tick(), COUNTS_TICK_MS);
    this.cluster.single("fake-viewers", this.counters.fakeViewersJob());
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }

  /**
   * At most one hearts / viewer_count / stats frame per tick, only on change; the hearts counted here are
   * added to the total. In a cluster each instance says what it serves, and the counts its viewers see are
   * the cluster's.
   */
  private tick(): void {
    this.stats.tick();
    if (this.cluster.clustered) {
      const here = this.sockets.here();
      this.peers.tick(here.viewers, here.sockets, this.counters.fakeViewersToTell());
    }
    for (const event of this.counters.changes(this.sockets.realViewerCount())) this.send.deliver(event);
    this.counters.keep();
  }
}
