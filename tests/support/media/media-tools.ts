/** Debian's ffmpeg makes the test media and ffprobe reads back what the packager wrote, as an independent reader. */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const FFMPEG = "/usr/bin/ffmpeg";
export const FFPROBE = "/usr/bin/ffprobe";
export const mediaToolsMissing = !existsSync(FFMPEG) || !existsSync(FFPROBE) ? "no /usr/bin/ffmpeg or ffprobe (apt-get install ffmpeg)" : null;

export const mediaDir = () => mkdtempSync(join(tmpdir(), "dreadcast-ingest-"));

function run(cmd: string[]): string {
  const result = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${cmd[0]} failed: ${result.stderr.toString()}`);
  return result.stdout.toString();
}

/** An FLV of `seconds` of test picture and tone, the way the RTMP input would carry it. */
export function makeFlv(path: string, opts: { seconds: number; size?: string; gop?: number; bframes?: boolean; audio?: boolean; video?: boolean }): Uint8Array {
  const size = opts.size ?? "640x360";
  const args = [FFMPEG, "-v", "error", "-y"];
  if (opts.video !== false) args.push("-f", "lavfi", "-i", `testsrc2=size=${size}:rate=30`);
  if (opts.audio !== false) args.push("-f", "lavfi", "-i", "sine=sample_rate=48000");
  args.push("-t", String(opts.seconds));
  if (opts.video !== false) {
    args.push("-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", String(opts.gop ?? 30), "-threads", "1");
    args.push(...(opts.bframes ? ["-preset", "medium", "-bf", "2"] : ["-preset", "ultrafast"]));
  }
  if (opts.audio !== false) args.push("-c:a", "aac", "-ar", "48000", "-ac", "2");
  run([...args, path]);
  return new Uint8Array(readFileSync(path));
}

/** Test picture (two seconds, 320×180, unless said) as a fragmented MP4, in a codec Debian's ffmpeg 5.1 cannot put in FLV. */
export function makeFragmentedMp4(path: string, codec: "hevc" | "av1", { seconds = 2, size = "320x180" }: { seconds?: number; size?: string } = {}): Uint8Array {
  const encoder =
    codec === "hevc"
      ? ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "keyint=30:open-gop=0:log-level=error:pools=1", "-tag:v", "hvc1"]
      : ["-c:v", "libsvtav1", "-preset", "12", "-g", "30", "-svtav1-params", "lp=1"];
  const input = ["-f", "lavfi", "-i", `testsrc2=size=${size}:rate=30`, "-t", String(seconds)];
  run([FFMPEG, "-v", "error", "-y", ...input, ...encoder, "-movflags", "frag_keyframe+empty_moov+default_base_moof", path]);
  return new Uint8Array(readFileSync(path));
}

export interface ProbedStream {
  codec_name: string;
  codec_type: string;
  codec_tag_string?: string;
  width?: number;
  height?: number;
  duration?: string;
  start_time?: string;
  nb_read_frames?: string;
}

export function probeStreams(path: string): ProbedStream[] {
  const out = run([FFPROBE, "-v", "error", "-count_frames", "-show_streams", "-of", "json", path]);
  return (JSON.parse(out) as { streams: ProbedStream[] }).streams;
}

export interface ProbedFrame {
  media_type: string;
  pts_time: string;
  key_frame: number;
}

/** The decoded frames (presentation order for video), with ffprobe's errors: a clean file has none. */
export function probeFrames(path: string): { frames: ProbedFrame[]; errors: string } {
  const result = Bun.spawnSync([FFPROBE, "-v", "error", "-show_entries", "frame=media_type,pts_time,key_frame", "-of", "json", path], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const frames = (JSON.parse(result.stdout.toString()) as { frames: ProbedFrame[] }).frames;
  return { frames, errors: result.stderr.toString().trim() };
}
