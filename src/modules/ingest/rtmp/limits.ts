/** The bounds one RTMP server keeps: connections, message sizes and how long each phase may stay silent. */

export interface RtmpLimits {
  /** Connections open at once, publishing or not. */
  maxConnections: number;
  /** Connections not (yet) publishing at once: what junk connections can occupy. */
  maxPendingConnections: number;
  /** Largest RTMP message once publishing (a keyframe), bytes. */
  maxMessageBytes: number;
  /** Largest RTMP message before publishing (commands only), bytes. */
  maxSetupMessageBytes: number;
  /** Chunk streams one connection may use. */
  maxChunkStreams: number;
  /** Silence that ends a connection not yet publishing, ms. */
  setupIdleTimeoutMs: number;
  /** Time from the TCP connection to an accepted publish, ms (no dripping a byte every few seconds). */
  setupDeadlineMs: number;
  /** Silence that ends a publish (a stalled encoder), ms. */
  publishIdleTimeoutMs: number;
}

export const DEFAULT_RTMP_LIMITS: RtmpLimits = {
  maxConnections: 64,
  maxPendingConnections: 16,
  maxMessageBytes: 8 * 1024 * 1024,
  maxSetupMessageBytes: 64 * 1024,
  maxChunkStreams: 32,
  setupIdleTimeoutMs: 5_000,
  setupDeadlineMs: 15_000,
  publishIdleTimeoutMs: 10_000,
};
