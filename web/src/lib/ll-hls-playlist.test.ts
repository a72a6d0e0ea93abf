import { describe, expect, test } from "bun:test";
import { renderMediaPlaylist, renderMultivariantPlaylist, type PlaylistSegment } from "../../../src/media/hls/playlist.ts";
import { blockingReloadUrl, listsPart, mediaPlaylistUrl, nextPart, variantCodecs, videoCodecName } from "./ll-hls-playlist";

const PAGE = "https://live.example.com/livestream";
const part = (name: string, independent = false) => ({ name, duration: 0.334, independent });

/** A window as the ingest's packager writes it: complete segments 40 and 41, segment 42 being written with `openParts` parts. */
function playlist(openParts: number, query?: string): string {
  const segment = (msn: number, complete: boolean, parts: number | null): PlaylistSegment => ({
    msn,
    name: complete ? `seg-${msn}.m4s` : null,
    duration: 1,
    initName: "init-0.mp4",
    discontinuity: false,
    programDateTime: 1_700_000_000_000 + msn * 1000,
    parts: parts === null ? null : Array.from({ length: parts }, (_, i) => part(`part-${msn}-${i}.m4s`, i === 0)),
  });
  return renderMediaPlaylist(
    {
      targetDuration: 1,
      partTarget: 0.334,
      mediaSequence: 40,
      discontinuitySequence: 0,
      segments: [segment(40, true, null), segment(41, true, 3), segment(42, false, openParts)],
      preloadHint: `part-42-${openParts}.m4s`,
    },
    query,
  );
}

describe("reading a live LL-HLS playlist", () => {
  test("the next part is the one the preload hint names: in the segment being written, after its listed parts", () => {
    expect(nextPart(playlist(2))).toEqual({ msn: 42, part: 2 });
    expect(nextPart(playlist(0))).toEqual({ msn: 42, part: 0 });
    expect(nextPart(playlist(2, "t=abc"))).toEqual({ msn: 42, part: 2 });
  });

  test("an answer lists a part once it holds it or has moved past it", () => {
    expect(listsPart(playlist(3), { msn: 42, part: 2 })).toBe(true);
    expect(listsPart(playlist(2), { msn: 42, part: 2 })).toBe(false);
    expect(listsPart(playlist(0), { msn: 41, part: 3 })).toBe(true);
  });

  test("an ended playlist, or one without parts, has no next part", () => {
    expect(nextPart(`${playlist(1)}#EXT-X-ENDLIST\n`)).toBeNull();
    expect(nextPart("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nseg.ts\n")).toBeNull();
    expect(nextPart("<html>not a playlist</html>")).toBeNull();
  });

  test("a multivariant playlist leads to its media playlist, resolved against its own address", () => {
    const multivariant = renderMultivariantPlaylist({ bandwidth: 3_000_000, codecs: ["avc1.64001f", "mp4a.40.2"], uri: "media.m3u8?t=abc" });
    expect(mediaPlaylistUrl(multivariant, "/api/stream/live/index.m3u8", PAGE)).toBe("https://live.example.com/api/stream/live/media.m3u8?t=abc");
    expect(mediaPlaylistUrl(playlist(1), "/api/stream/live/media.m3u8", PAGE)).toBeNull();
  });

  test("the blocking reload keeps the playlist's own query and asks for that part", () => {
    expect(blockingReloadUrl("/api/stream/live/media.m3u8?t=abc", { msn: 42, part: 2 }, PAGE)).toBe(
      "https://live.example.com/api/stream/live/media.m3u8?t=abc&_HLS_msn=42&_HLS_part=2",
    );
  });
});

describe("the stream's codecs", () => {
  test("the variant's codecs, each alone, named for a viewer", () => {
    const hevc = renderMultivariantPlaylist({ bandwidth: 3_000_000, codecs: ["hvc1.1.6.L93.90", "mp4a.40.2"], uri: "media.m3u8" });
    expect(variantCodecs(hevc)).toEqual(["hvc1.1.6.L93.90", "mp4a.40.2"]);
    expect(variantCodecs(hevc).map(videoCodecName)).toEqual(["HEVC (H.265)", null]);
    expect(videoCodecName("av01.0.04M.08")).toBe("AV1");
    expect(videoCodecName("avc1.64001f")).toBe("H.264");
    expect(videoCodecName("hev1.1.6.L93.90")).toBe("HEVC (H.265)");
    expect(videoCodecName("vp09.00.10.08")).toBeNull();
  });

  test("a media playlist, or a variant without CODECS, names none", () => {
    expect(variantCodecs(playlist(1))).toEqual([]);
    expect(variantCodecs("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nmedia.m3u8\n")).toEqual([]);
  });
});
