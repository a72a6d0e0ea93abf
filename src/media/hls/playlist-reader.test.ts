import { expect, test } from "bun:test";
import { parseOriginPlaylist } from "./playlist-reader.ts";

test("a multivariant playlist's highest-bandwidth variant is the one kept (AVERAGE-BANDWIDTH not mistaken for it)", () => {
  const text = [
    "#EXTM3U",
    '#EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=9000000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"',
    "/api/stream/hls/low/index.m3u8",
    "#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080",
    "/api/stream/hls/high/index.m3u8",
    "#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080",
    "/api/stream/hls/high-copy/index.m3u8",
  ].join("\n");
  expect(parseOriginPlaylist(text)).toEqual({ kind: "multivariant", variant: "/api/stream/hls/high/index.m3u8" });
});

test("a media playlist's segments carry their numbers, maps, discontinuities and program date-times (FFmpeg's +0000 read, carried on by durations, forgotten at a discontinuity)", () => {
  const text = [
    "#EXTM3U",
    "#EXT-X-TARGETDURATION:2",
    "#EXT-X-MEDIA-SEQUENCE:41",
    '#EXT-X-MAP:URI="/api/stream/hls/init.mp4"',
    "#EXT-X-PROGRAM-DATE-TIME:2026-10-31T22:00:00.000+0000",
    "#EXTINF:2.000,",
    "/api/stream/hls/seg-41.m4s",
    "#EXTINF:1.500,",
    "/api/stream/hls/seg-42.m4s",
    "#EXT-X-DISCONTINUITY",
    '#EXT-X-MAP:URI="/api/stream/hls/init-2.mp4"',
    "#EXTINF:2.000,",
    "/api/stream/hls/seg-43.m4s",
  ].join("\n");
  const playlist = parseOriginPlaylist(text);
  expect(playlist).toMatchObject({ kind: "media", targetDuration: 2, ended: false, vod: false, unsupported: null });
  if (playlist.kind !== "media") throw new Error("not a media playlist");
  const start = Date.UTC(2026, 9, 31, 22);
  expect(playlist.segments).toEqual([
    { uri: "/api/stream/hls/seg-41.m4s", msn: 41, duration: 2, programDateTime: start, discontinuity: false, map: "/api/stream/hls/init.mp4" },
    { uri: "/api/stream/hls/seg-42.m4s", msn: 42, duration: 1.5, programDateTime: start + 2000, discontinuity: false, map: "/api/stream/hls/init.mp4" },
    { uri: "/api/stream/hls/seg-43.m4s", msn: 43, duration: 2, programDateTime: null, discontinuity: true, map: "/api/stream/hls/init-2.mp4" },
  ]);
});

test("VOD, the end of a live stream, and segments that cannot be kept as they are are told apart", () => {
  const segment = ["#EXTINF:2,", "a.ts"];
  const media = (...lines: string[]) => parseOriginPlaylist(["#EXTM3U", ...lines, ...segment].join("\n"));
  expect(media("#EXT-X-PLAYLIST-TYPE:VOD")).toMatchObject({ vod: true });
  expect(parseOriginPlaylist(["#EXTM3U", ...segment, "#EXT-X-ENDLIST"].join("\n"))).toMatchObject({ ended: true, vod: false });
  expect(media('#EXT-X-KEY:METHOD=AES-128,URI="/api/stream/hls/k.key"')).toMatchObject({ unsupported: "its segments are encrypted" });
  expect(media("#EXT-X-KEY:METHOD=NONE")).toMatchObject({ unsupported: null });
  expect(media("#EXT-X-BYTERANGE:1000@0")).toMatchObject({ unsupported: "its segments are byte ranges of larger files" });
});
