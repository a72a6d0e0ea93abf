import type { IngestPublisher } from "@contracts/stream";
import { formatCount } from "./numbers";

/** The publisher's figures in the words OBS uses for them. */

const H264_PROFILES: Record<string, string> = { "42": "Baseline", "4d": "Main", "58": "Extended", "64": "High", "6e": "High 10", "7a": "High 4:2:2", f4: "High 4:4:4" };

/** "avc1.64001f" → "H.264 High", "hvc1.…" → "HEVC", "mp4a.40.2" → "AAC"; a codec it does not know, as given. */
export function codecName(codec: string): string {
  const [family = "", detail = ""] = codec.split(".");
  switch (family.toLowerCase()) {
    case "avc1":
    case "avc3": {
      const profile = H264_PROFILES[detail.slice(0, 2).toLowerCase()];
      return profile ? `H.264 ${profile}` : "H.264";
    }
    case "hvc1":
    case "hev1":
      return "HEVC";
    case "av01":
      return "AV1";
    case "vp09":
      return "VP9";
    case "mp4a":
      return codec.toLowerCase() === "mp4a.40.5" ? "HE-AAC" : codec.toLowerCase() === "mp4a.40.29" ? "HE-AAC v2" : codec.toLowerCase().startsWith("mp4a.40") ? "AAC" : codec;
    case "opus":
      return "Opus";
    default:
      return codec;
  }
}

/** "2,500 kb/s", or a dash before there is a measure. */
export function formatBitrate(kbps: number | null): string {
  return kbps === null ? "—" : `${formatCount(Math.round(kbps))} kb/s`;
}

/** "30 fps", "29.97 fps". */
export function formatFps(fps: number | null): string {
  return fps === null ? "—" : `${Number(fps.toFixed(2))} fps`;
}

/** "every 2 s". */
export function formatKeyframeInterval(seconds: number | null): string {
  return seconds === null ? "—" : `every ${Number(seconds.toFixed(2))} s`;
}

const CHANNELS: Record<number, string> = { 1: "mono", 2: "stereo", 6: "5.1" };

/** "AAC · 48 kHz · stereo". */
export function formatAudio(audio: NonNullable<IngestPublisher["audio"]>): string {
  const channels = CHANNELS[audio.channels] ?? `${audio.channels} channels`;
  return `${codecName(audio.codec)} · ${Number((audio.sampleRate / 1000).toFixed(1))} kHz · ${channels}`;
}

/** "1280×720 · 30 fps · 2,500 kb/s": the dashboard's one line of what is sent. */
export function videoSummary(video: NonNullable<IngestPublisher["video"]>): string {
  const parts = [`${video.width}×${video.height}`];
  if (video.fps !== null) parts.push(formatFps(video.fps));
  if (video.bitrateKbps !== null) parts.push(formatBitrate(video.bitrateKbps));
  return parts.join(" · ");
}

/** "4 min", "1 h 12 min": how long the publisher has been live. */
export function liveFor(sinceIso: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(sinceIso)) / 60_000));
  if (Number.isNaN(minutes)) return "—";
  if (minutes < 1) return "less than a minute";
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
