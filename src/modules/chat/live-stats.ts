/** How far back the per-second rates look. */
const RATE_WINDOW_MS = 10_000;

/** What the metrics show of this instance's chat: lines and hearts taken, frames fanned out, and the rates. */
export interface LiveStatsReading {
  lines: number;
  hearts: number;
  frames: number;
  linesPerSecond: number;
  heartsPerSecond: number;
}

/** What this instance has handled since it started (chat lines, hearts, frames fanned out), for the metrics. */
export class LiveStats {
  private readonly counted = { lines: 0, hearts: 0, frames: 0 };
  /** The counts as they were at each tick of the last ten seconds (for the per-second rates). */
  private readonly history: { at: number; lines: number; hearts: number }[] = [];

  line(): void {
    this.counted.lines++;
  }

  heart(): void {
    this.counted.hearts++;
  }

  frame(): void {
    this.counted.frames++;
  }

  /** The rates count from now (when the ticks start, or start again after resting). */
  start(): void {
    this.history.length = 0;
    this.history.push({ at: Date.now(), lines: this.counted.lines, hearts: this.counted.hearts });
  }

  /** On each tick: the counts as they are now, the oldest beyond the window let go. */
  tick(): void {
    const now = Date.now();
    this.history.push({ at: now, lines: this.counted.lines, hearts: this.counted.hearts });
    while (this.history.length > 1 && now - this.history[0]!.at > RATE_WINDOW_MS) this.history.shift();
  }

  /** Chat lines and hearts taken here, and frames fanned out, since the start; lines and hearts a second over the last ten seconds. */
  read(): LiveStatsReading {
    const oldest = this.history[0];
    const seconds = oldest ? (Date.now() - oldest.at) / 1000 : 0;
    return {
      ...this.counted,
      linesPerSecond: oldest && seconds > 0 ? (this.counted.lines - oldest.lines) / seconds : 0,
      heartsPerSecond: oldest && seconds > 0 ? (this.counted.hearts - oldest.hearts) / seconds : 0,
    };
  }
}
