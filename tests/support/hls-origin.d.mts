export declare const FIXTURE_DIR: string;

export interface HlsOrigin {
  origin: string;
  playlistUrl: string;
  /** The fixture's segment file names. */
  segments: string[];
  requests: Map<string, number>;
  /** By path: the bytes each response of a big segment sent, once it ended or was cut off. */
  sentBig: Map<string, number[]>;
  count(path: string): number;
  stop(): Promise<void>;
}

export declare function startHlsOrigin(options?: {
  playlistText?: string;
  segmentDelayMs?: number;
  /** File name under /hls/ → its size in bytes (Infinity: never ends). */
  bigSegments?: Record<string, number>;
  /** Big segments without a Content-Length. */
  chunked?: boolean;
  /** Path → where a 302 sends the request. */
  redirects?: Record<string, string>;
  /** A directory served as it is at each request (a live playlist an encoder writes), in place of the fixture. */
  liveDir?: string;
  /** The port to listen on (an origin back where it was); any free one by default. */
  port?: number;
}): Promise<HlsOrigin>;
