/** The bounds one RTMP server keeps: connections, message sizes, rates before a publish, and how long each phase may stay silent. */

export interface RtmpLimits {
  /** Connections open at once, publishing or not. */
  maxConnections: number;
  /**
   * Connections not (yet) publishing at once: what junk connections can occupy. When it is full, a new
   * connection is let in and the oldest pending one of the address holding the most is dropped instead.
   */
  maxPendingConnections: number;
  /** Connections not (yet) publishing from one address (an IPv6 /64 counts as one) at once; its oldest goes first. */
  maxPendingPerAddress: number;
  /** New connections one address may open per second (a burst of twice as many); past it they are closed at once. */
  connectionsPerAddressPerSecond: number;
  /** Largest RTMP message once publishing (a keyframe), bytes. */
  maxMessageBytes: number;
  /** Largest RTMP message before publishing (commands only), bytes. */
  maxSetupMessageBytes: number;
  /** Largest message that is not audio or video (commands, metadata), also while publishing, bytes. */
  maxNonMediaMessageBytes: number;
  /** Messages one connection may send per second before it publishes (a burst of twice as many). */
  setupMessagesPerSecond: number;
  /** Bytes one connection may send per second before it publishes, the handshake included (a burst of twice as many). */
  setupBytesPerSecond: number;
  /** The same two for all the pending connections of one address together. */
  addressMessagesPerSecond: number;
  addressBytesPerSecond: number;
  /** Wrong stream keys from one address within `wrongKeyWindowMs` before it has to wait. */
  wrongKeysBeforeBackoff: number;
  wrongKeyWindowMs: number;
  /** The first wait; each further burst doubles it, up to `maxBackoffMs`. */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** Chunk streams one connection may use. */
  maxChunkStreams: number;
  /** Silence that ends a connection not yet publishing, ms; also the time a TLS handshake may take. */
  setupIdleTimeoutMs: number;
  /** Time from the TCP connection to an accepted publish, ms (no dripping a byte every few seconds). */
  setupDeadlineMs: number;
  /** Silence that ends a publish (a stalled encoder), ms. */
  publishIdleTimeoutMs: number;
  /**
   * How far a publish's media may run ahead of real time (its timestamps against the wall clock since its
   * first frame) before the connection stops reading until real time catches up, ms. Ten times as far
   * ends the publish: those are timestamps jumping, not a fast sender.
   */
  maxMediaAheadMs: number;
}

export const DEFAULT_RTMP_LIMITS: RtmpLimits = {
  maxConnections: 64,
  maxPendingConnections: 16,
  maxPendingPerAddress: 4,
  connectionsPerAddressPerSecond: 10,
  maxMessageBytes: 8 * 1024 * 1024,
  maxSetupMessageBytes: 64 * 1024,
  maxNonMediaMessageBytes: 64 * 1024,
  // A publisher sends about ten messages and 4 KiB before its publish (the handshake is 3 KiB of it).
  setupMessagesPerSecond: 20,
  setupBytesPerSecond: 48 * 1024,
  addressMessagesPerSecond: 60,
  addressBytesPerSecond: 192 * 1024,
  wrongKeysBeforeBackoff: 5,
  wrongKeyWindowMs: 60_000,
  firstBackoffMs: 10_000,
  maxBackoffMs: 10 * 60_000,
  maxChunkStreams: 32,
  setupIdleTimeoutMs: 5_000,
  setupDeadlineMs: 15_000,
  publishIdleTimeoutMs: 10_000,
  maxMediaAheadMs: 3_000,
};
