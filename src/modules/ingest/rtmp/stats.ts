/**
 * A publisher's measured figures, for the admin's view: bytes in, the bitrate over the last few seconds
 * (wall clock), and the video frame rate and keyframe interval from the stream's own timestamps.
 */

export interface PublishStats {
  /** Every byte received on the connection, handshake included. */
  bytesIn: number;
  /** Over the last `BITRATE_WINDOW_MS` of wall time (or since the start, when shorter). */
  bitrateKbps: number;
  /** Video frames per second of stream time over the last few seconds; 0 before two frames. */
  videoFps: number;
  /** Stream time between the last two keyframes, seconds; 0 before two keyframes. */
  keyframeIntervalSeconds: number;
  videoFrames: number;
  audioFrames: number;
  keyframes: number;
}

const BITRATE_WINDOW_MS = 5000;
const BUCKET_MS = 250;
const FPS_WINDOW = 64;

export class PublishMeter {
  bytesIn = 0;
  private videoFrames = 0;
  private audioFrames = 0;
  private keyframes = 0;
  private lastKeyframeDts: number | null = null;
  private keyframeInterval = 0;
  /** Recent video decode times (a ring), for the frame rate. */
  private readonly recentDts: number[] = [];
  /** Bytes per BUCKET_MS slot of wall time, keyed by the slot number. */
  private readonly buckets = new Map<number, number>();
  private readonly startedAt: number;

  constructor(now = Date.now()) {
    this.startedAt = now;
  }

  bytes(count: number, now = Date.now()): void {
    this.bytesIn += count;
    const slot = Math.floor(now / BUCKET_MS);
    this.buckets.set(slot, (this.buckets.get(slot) ?? 0) + count);
    if (this.buckets.size > BITRATE_WINDOW_MS / BUCKET_MS + 2) {
      for (const key of this.buckets.keys()) if (key <= slot - BITRATE_WINDOW_MS / BUCKET_MS) this.buckets.delete(key);
    }
  }

  video(dts: number, keyframe: boolean): void {
    this.videoFrames++;
    this.recentDts.push(dts);
    if (this.recentDts.length > FPS_WINDOW) this.recentDts.shift();
    if (keyframe) {
      this.keyframes++;
      if (this.lastKeyframeDts !== null && dts > this.lastKeyframeDts) this.keyframeInterval = (dts - this.lastKeyframeDts) / 1000;
      this.lastKeyframeDts = dts;
    }
  }

  audio(): void {
    this.audioFrames++;
  }

  snapshot(now = Date.now()): PublishStats {
    const windowStart = Math.floor((now - BITRATE_WINDOW_MS) / BUCKET_MS);
    let recent = 0;
    for (const [slot, count] of this.buckets) if (slot > windowStart) recent += count;
    const span = Math.min(BITRATE_WINDOW_MS, Math.max(now - this.startedAt, BUCKET_MS));
    const first = this.recentDts[0];
    const last = this.recentDts[this.recentDts.length - 1];
    const fps = first !== undefined && last !== undefined && last > first ? ((this.recentDts.length - 1) * 1000) / (last - first) : 0;
    return {
      bytesIn: this.bytesIn,
      bitrateKbps: Math.round((recent * 8) / span),
      videoFps: Math.round(fps * 100) / 100,
      keyframeIntervalSeconds: this.keyframeInterval,
      videoFrames: this.videoFrames,
      audioFrames: this.audioFrames,
      keyframes: this.keyframes,
    };
  }
}
