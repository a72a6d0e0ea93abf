/** The ingest's fixed terms: the RTMP application, how long a publisher may be gone, the publish the panel shows. */
import type { AudioConfig, VideoCodec } from "../../media/stream.ts";
import type { PublishSession, WrongKeyReport } from "./rtmp/server.ts";

/** The RTMP application OBS's "Server" field ends in. */
export const INGEST_APP = "live";

/**
 * How long a publisher may be gone before pages are told the stream is offline: OBS reconnects after a
 * couple of seconds, and a reconnect within this goes on in the same players without a reload.
 */
export const OFFLINE_AFTER_MS = 5000;

/** How often an instance of a cluster looks who holds the publisher (also told at once by a message). */
export const FOLLOW_EVERY_MS = 500;

/** What the admin's view needs of the publish in progress. */
export interface LivePublish {
  session: PublishSession;
  videoCodec: VideoCodec | null;
  audio: AudioConfig | null;
}

/** Wrong keys seen on RTMP and RTMPS, one line per address (tries added, the longest wait kept), the most tries first. */
export function mergeWrongKeys(reports: WrongKeyReport[]): WrongKeyReport[] {
  const byAddress = new Map<string, WrongKeyReport>();
  for (const report of reports) {
    const seen = byAddress.get(report.address);
    byAddress.set(report.address, seen ? { address: report.address, attempts: seen.attempts + report.attempts, waitMs: Math.max(seen.waitMs, report.waitMs) } : report);
  }
  return [...byAddress.values()].sort((a, b) => b.attempts - a.attempts);
}
