/** The browser tests' stand-in for OBS: FFmpeg publishing to the built-in ingest the way OBS does. */

export const FFMPEG = "/usr/bin/ffmpeg";

/**
 * FFmpeg's arguments to publish as OBS does (x264 with a keyframe a second, AAC 48 kHz, FLV over RTMP, in
 * real time), kept light: 640×360, ultrafast, one thread.
 * @param {string} rtmpUrl the panel's server address
 * @param {string} streamKey
 */
export function obsLikeArgs(rtmpUrl, streamKey) {
  return [
    ...["-hide_banner", "-loglevel", "error", "-nostdin"],
    ...["-re", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30"],
    ...["-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-threads", "1", "-pix_fmt", "yuv420p"],
    ...["-g", "30", "-keyint_min", "30", "-sc_threshold", "0", "-b:v", "800k"],
    ...["-c:a", "aac", "-b:a", "96k", "-ar", "48000", "-ac", "2"],
    ...["-f", "flv", `${rtmpUrl}/${streamKey}`],
  ];
}
