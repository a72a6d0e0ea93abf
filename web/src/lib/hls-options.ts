/**
 * The options the stream page gives hls.js for a live stream (the ingest benchmark plays with the same, so its
 * latency figure is the one a viewer gets): low-latency mode for LL-HLS parts and blocking reloads, catching up
 * at up to 1.5× speed when it has fallen behind the target latency, and 30 s kept behind the playhead.
 */
export const LIVE_HLS_OPTIONS = { lowLatencyMode: true, maxLiveSyncPlaybackRate: 1.5, liveDurationInfinity: true, backBufferLength: 30 } as const;
