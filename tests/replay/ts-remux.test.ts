/**
 * A relayed MPEG-TS recording taken out of MPEG-TS and written as fragmented MP4, segment by segment, as
 * its download does: FFmpeg makes the segments (B-frames, AAC), ffprobe reads the result.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { demuxTs, TsClock, TsError } from "../../src/media/formats/mpegts.ts";
import { spsSize, TsToMp4 } from "../../src/media/formats/ts-to-fmp4.ts";
import { FFMPEG, mediaDir, mediaToolsMissing, probeFrames, probeStreams } from "../support/media/media-tools.ts";

if (mediaToolsMissing) console.log(`SKIPPED: MPEG-TS to MP4 (${mediaToolsMissing})`);

const dir = mediaToolsMissing ? "" : mediaDir();
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** FFmpeg's HLS segments of `seconds` of 640x360 at 30 fps (and a tone), in the order they were written. */
function segments(name: string, seconds: number, video: string[]): Uint8Array[] {
  const input = ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i", "sine=sample_rate=44100", "-t", String(seconds)];
  const output = ["-c:a", "aac", "-ac", "1", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_segment_filename", join(dir, `${name}-%d.ts`), join(dir, `${name}.m3u8`)];
  const result = Bun.spawnSync([FFMPEG, "-v", "error", "-y", ...input, ...video, "-threads", "1", ...output], { stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(result.stderr.toString());
  return readdirSync(dir)
    .filter((f) => new RegExp(`^${name}-\\d+\\.ts$`).test(f))
    .sort((a, b) => Number(/(\d+)\.ts$/.exec(a)![1]) - Number(/(\d+)\.ts$/.exec(b)![1]))
    .map((f) => new Uint8Array(readFileSync(join(dir, f))));
}

describe.skipIf(mediaToolsMissing !== null)("MPEG-TS to MP4", () => {
  test("H.264 with B-frames and AAC become one MP4 with every frame, starting at zero, that decodes cleanly", () => {
    const files = segments("h264", 4, ["-c:v", "libx264", "-preset", "medium", "-bf", "2", "-g", "30", "-pix_fmt", "yuv420p"]);
    expect(files.length).toBeGreaterThanOrEqual(4);
    const clock = new TsClock();
    const demuxed = files.map((bytes) => demuxTs(bytes, clock));
    expect(spsSize(demuxed[0]!.video!.sps)).toEqual({ width: 640, height: 360 });
    const mp4 = new TsToMp4(demuxed[0]!);
    const file = join(dir, "h264.mp4");
    writeFileSync(file, Buffer.concat([mp4.init, ...demuxed.map((d) => mp4.fragment(d)!)]));

    const streams = probeStreams(file);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(["aac", "h264"]);
    const video = streams.find((s) => s.codec_type === "video")!;
    expect([video.width, video.height]).toEqual([640, 360]);
    expect(Number(video.nb_read_frames)).toBe(120);
    // Times from zero (the first picture shown after its B-frames' delay of a few frames).
    expect(Number(video.start_time)).toBeLessThan(0.2);
    const probed = probeFrames(file);
    expect(probed.errors).toBe("");
    const shown = probed.frames.filter((f) => f.media_type === "video").map((f) => Number(f.pts_time));
    expect(shown.every((t, i) => i === 0 || t > shown[i - 1]!)).toBe(true);
    expect(shown.at(-1)! - shown[0]!).toBeCloseTo(119 / 30, 2);
    expect(probed.frames.filter((f) => f.media_type === "audio").length).toBeGreaterThan(150);
  }, 30_000);

  test("a codec an MP4 of ours cannot carry is refused by name", () => {
    const files = segments("hevc", 1, ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:pools=1"]);
    const first = demuxTs(files[0]!, new TsClock());
    expect(first.others).toEqual(["HEVC"]);
    expect(() => new TsToMp4(first)).toThrow(new TsError("its HEVC cannot be put in an MP4 here (H.264 and AAC can)"));
  }, 30_000);

  test("bytes that are not MPEG-TS are refused", () => {
    expect(() => demuxTs(new TextEncoder().encode("#EXTM3U\n".repeat(40)), new TsClock())).toThrow(TsError);
  });
});
