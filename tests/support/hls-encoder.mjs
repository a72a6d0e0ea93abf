import { join } from "node:path";

/**
 * FFmpeg's arguments (after the binary) for a live HLS origin's encoder: `seconds` of 640×360 test picture
 * and tone, in real time, written into `out` as 1 s segments (`prefix` and a number) and `stream.m3u8`.
 * Shared by the Bun tests and the browser tests, which spawn it each their own way.
 * @param {string} out
 * @param {{ seconds: number, type: "fmp4" | "mpegts", prefix: string, listSize: number, flags?: string[] }} o
 */
export function hlsEncoderArgs(out, o) {
  const extension = o.type === "fmp4" ? "m4s" : "ts";
  return [
    ...["-v", "error", "-nostdin", "-re"],
    ...["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i", "sine=sample_rate=48000", "-t", String(o.seconds)],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30", "-threads", "1", "-c:a", "aac", "-ar", "48000", "-ac", "2"],
    ...["-f", "hls", "-hls_time", "1", "-hls_list_size", String(o.listSize), "-hls_segment_type", o.type, "-hls_flags", ["temp_file", ...(o.flags ?? [])].join("+")],
    ...(o.type === "fmp4" ? ["-hls_fmp4_init_filename", "init.mp4"] : []),
    ...["-hls_segment_filename", join(out, `${o.prefix}%d.${extension}`), join(out, "stream.m3u8")],
  ];
}
