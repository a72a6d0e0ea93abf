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

/**
 * The counts' tick (and the fake viewers' job, on the one instance that holds it). Alone, with no socket
 * open, nobody is there to be told and nothing can be counted: the tick rests until a socket opens.
 */
export class CountsTick {
  private timer: ReturnType<typeof setInterval> | null = null;
  private started = false;

  constructor(
    private readonly cluster: Cluster,
    private readonly counters: LiveCounters,
    private readonly stats: LiveStats,
    private readonly peers: PeerSync,
    private readonly send: Pick<SendPath, "deliver">,
    private readonly sockets: CountsTickSockets,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stats.start();
    this.cluster.single("fake-viewers", this.counters.fakeViewersJob());
    if (this.cluster.clustered || this.sockets.here().sockets > 0) this.run();
  }

  stop(): void {
    this.started = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** A socket opened: the counts go out again (from the next tick; the socket was sent them as it opened). */
  wake(): void {
    if (!this.started || this.timer !== null) return;
    this.stats.start();
    this.run();
  }

  /** A socket closed: with none left (and alone), one last tick keeps what was counted, then the tick rests. */
  maybeRest(): void {
    if (!this.started || this.timer === null || this.cluster.clustered || this.sockets.here().sockets > 0) return;
    this.tick();
    clearInterval(this.timer);
    this.timer = null;
  }

  private run(): void {
    this.timer = setInterval(() => this.tick(), COUNTS_TICK_MS);
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
