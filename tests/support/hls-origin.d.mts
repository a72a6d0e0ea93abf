export declare const FIXTURE_DIR: string;

export interface HlsOrigin {
  origin: string;
  playlistUrl: string;
  /** The fixture's segment file names. */
  segments: string[];
  requests: Map<string, number>;
  count(path: string): number;
  stop(): Promise<void>;
}

export declare function startHlsOrigin(options?: { playlistText?: string; segmentDelayMs?: number }): Promise<HlsOrigin>;
