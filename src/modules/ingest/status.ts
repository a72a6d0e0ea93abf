/** The admin's view of the built-in ingest: where OBS publishes, with which key, what arrives, and what to change. */
import type { Config } from "../../config.ts";
import type { IngestPublisher, IngestView, StreamKind } from "../../contracts/stream.ts";
import type { VideoCodec } from "../../media/stream.ts";
import { IngestMirror } from "./mirror.ts";
import { INGEST_APP, type IngestService, type LivePublish } from "./service.ts";

const VIDEO_CODECS: Record<VideoCodec, string> = { h264: "H.264", hevc: "HEVC", av1: "AV1" };
/** Keyframes further apart than this make viewers wait for the picture and fall behind. */
const MAX_KEYFRAME_INTERVAL_S = 2;
/** Above this video bitrate, viewers on phones and mobile data stall. */
const PHONE_BITRATE_KBPS = 6000;
/** A publisher this long without audio is sending none (OBS sends its audio set-up at once). */
const AUDIO_GRACE_MS = 3000;

function publisherView(ingest: IngestService, { session, videoCodec, audio }: LivePublish): IngestPublisher {
  const figures = ingest.packager?.figures();
  const stats = session.stats();
  const video = videoCodec ? figures?.video : null;
  return {
    since: session.startedAt.toISOString(),
    video:
      videoCodec && video
        ? {
            codec: VIDEO_CODECS[videoCodec],
            width: video.width,
            height: video.height,
            fps: video.fps ?? (stats.videoFps || null),
            // Before a segment is complete, the connection's own count (audio included) stands in.
            bitrateKbps: video.kbps ?? (stats.bitrateKbps || null),
            // Between the publisher's own keyframes once two have come (the packager's segments are cut at
            // two seconds whatever the keyframes, so they cannot tell a longer interval); null while measuring.
            keyframeIntervalS: stats.keyframes >= 2 && stats.keyframeIntervalSeconds > 0 ? stats.keyframeIntervalSeconds : null,
          }
        : null,
    audio: audio ? { codec: "AAC", sampleRate: audio.sampleRate, channels: audio.channels, bitrateKbps: figures?.audio?.kbps ?? null } : null,
  };
}

/** The live publisher's figures on this instance, or null (for the internal path: the other instances show them too). */
export function publisherNow(ingest: IngestService): IngestPublisher | null {
  const live = ingest.live;
  return live ? publisherView(ingest, live) : null;
}

function warningsFor(ingest: IngestService, config: Config, kind: StreamKind, streamKey: string | null, publisher: IngestPublisher | null): string[] {
  const warnings: string[] = [];
  if (kind !== "ingest") warnings.push("The stream source is not Built-in (OBS): the RTMP port opens once you choose it and save.");
  else if (!ingest.ports && ingest.openFailure) warnings.push(ingest.openFailure);
  if (streamKey === null) {
    warnings.push(`The stream key cannot be read on this server (it was sealed under another ${config.dataDir}/secrets.key): rotate the key and put the new one in OBS.`);
  }
  if (ingest.lastRefusal) warnings.push(`The last publish was refused: ${ingest.lastRefusal}.`);
  const wrongKeys = ingest.wrongKeys();
  for (const { address, attempts, waitMs } of wrongKeys.slice(0, 3)) {
    const waits = waitMs > 0 ? `; it waits ${Math.ceil(waitMs / 1000)} s before its next try is looked at` : "";
    warnings.push(
      `${attempts} ${attempts === 1 ? "publish" : "publishes"} with a wrong stream key from ${address} in the last 10 minutes${waits}. If that is your OBS, copy the stream key from here again.`,
    );
  }
  if (wrongKeys.length > 3) warnings.push(`Wrong stream keys came from ${wrongKeys.length - 3} more addresses in the last 10 minutes.`);
  const elsewhere = ingest.live ? null : ingest.publishingElsewhere;
  if (elsewhere) warnings.push(`OBS publishes to the instance ${elsewhere}${publisher ? "" : ": its figures could not be read from it just now"}.`);
  if (!publisher) return warnings;
  const interval = publisher.video?.keyframeIntervalS ?? null;
  if (interval !== null && interval > MAX_KEYFRAME_INTERVAL_S) {
    warnings.push(
      `Keyframes arrive every ${interval} s: set OBS's Keyframe Interval to 1 or 2 s (Settings → Output, Output Mode: Advanced), or viewers wait longer for the picture and fall further behind.`,
    );
  }
  const kbps = publisher.video?.bitrateKbps ?? null;
  if (kbps !== null && kbps > PHONE_BITRATE_KBPS) {
    warnings.push(
      `The video bitrate is ${kbps.toLocaleString("en-GB")} kbps: viewers on phones may not keep up. 2,500–4,500 kbps suits 720p or 1080p (Settings → Output → Bitrate).`,
    );
  }
  if (!publisher.audio && Date.now() - Date.parse(publisher.since) > AUDIO_GRACE_MS) {
    warnings.push("No audio is arriving: check that OBS has an audio source that is not muted (the Audio Mixer), or viewers hear nothing.");
  }
  return warnings;
}

/** GET /api/admin/ingest. `siteUrl` gives the host OBS reaches this server by. */
export async function ingestView(ingest: IngestService, config: Config, siteUrl: string, kind: StreamKind): Promise<IngestView> {
  const host = new URL(siteUrl).hostname;
  const ports = ingest.ports ?? { rtmp: config.rtmpPort, rtmps: config.tlsCert ? config.rtmpsPort : null };
  // Read for the warning alone: the key itself is revealed on its own (POST /api/admin/ingest/reveal-key).
  const streamKey = await ingest.keys.current();
  const live = ingest.live;
  // Another instance has the publisher: its figures, as it measures them.
  const mirror = !live && ingest.source instanceof IngestMirror ? ingest.source : null;
  const publisher = live ? publisherView(ingest, live) : mirror ? await mirror.publisher() : null;
  return {
    // Behind a proxy that forwards RTMP, OBS is given the proxy's address (the flags), not this port.
    rtmpUrl: `${config.rtmpPublicUrl ?? `rtmp://${host}:${ports.rtmp}`}/${INGEST_APP}`,
    rtmpsUrl: ports.rtmps === null ? null : `${config.rtmpsPublicUrl ?? `rtmps://${host}:${ports.rtmps}`}/${INGEST_APP}`,
    live: live !== null || ingest.publishingElsewhere !== null,
    publisher,
    warnings: warningsFor(ingest, config, kind, streamKey, publisher),
    refusals: ingest.refusals.recent(),
  };
}
