/**
 * One track's decode times made safe for the packager: RTMP's 32-bit millisecond timestamps unwrapped
 * (they wrap after 49.7 days) and never going backwards (a publisher that jumps back is held at its last
 * time rather than handing the packager a negative duration).
 */

const WRAP = 2 ** 32;

export class TrackClock {
  private lastRaw: number | null = null;
  private base = 0;
  private last = 0;

  dts(raw: number): number {
    if (this.lastRaw !== null && raw < this.lastRaw && this.lastRaw - raw > WRAP / 2) this.base += WRAP;
    this.lastRaw = raw;
    const value = Math.max(this.base + raw, this.last);
    this.last = value;
    return value;
  }
}
