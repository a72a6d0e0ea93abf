import { describe, expect, test } from "bun:test";
import { playlistSegments, wallClockAt } from "./replay-clock";

const PLAYLIST = [
  "#EXTM3U",
  "#EXT-X-VERSION:7",
  "#EXT-X-TARGETDURATION:2",
  "#EXT-X-PLAYLIST-TYPE:VOD",
  '#EXT-X-MAP:URI="r1/init-0.mp4"',
  "#EXT-X-PROGRAM-DATE-TIME:2026-10-31T21:00:00.000Z",
  "#EXTINF:2.000,",
  "r1/seg-0.m4s",
  "#EXT-X-PROGRAM-DATE-TIME:2026-10-31T21:00:02.000Z",
  "#EXTINF:1.500,",
  "r1/seg-1.m4s",
  "#EXT-X-DISCONTINUITY",
  '#EXT-X-MAP:URI="r2/init-0.mp4"',
  "#EXT-X-PROGRAM-DATE-TIME:2026-10-31T22:30:00.000Z",
  "#EXTINF:2.000,",
  "r2/seg-0.m4s",
  "#EXT-X-ENDLIST",
  "",
].join("\n");

const at = (iso: string) => Date.parse(iso);

describe("the replay's clock", () => {
  test("each segment starts where the ones before it end, with its program date-time", () => {
    expect(playlistSegments(PLAYLIST)).toEqual([
      { start: 0, duration: 2, programDateTime: at("2026-10-31T21:00:00.000Z") },
      { start: 2, duration: 1.5, programDateTime: at("2026-10-31T21:00:02.000Z") },
      { start: 3.5, duration: 2, programDateTime: at("2026-10-31T22:30:00.000Z") },
    ]);
  });

  test("a position maps to when its frame was filmed, across the pause between two sessions", () => {
    const segments = playlistSegments(PLAYLIST);
    expect(wallClockAt(segments, 0)).toBe(at("2026-10-31T21:00:00.000Z"));
    expect(wallClockAt(segments, 2.75)).toBe(at("2026-10-31T21:00:02.750Z"));
    expect(wallClockAt(segments, 4)).toBe(at("2026-10-31T22:30:00.500Z"));
    // Past the end it stays at the last frame; before the start at the first.
    expect(wallClockAt(segments, 99)).toBe(at("2026-10-31T22:30:02.000Z"));
    expect(wallClockAt(segments, -1)).toBe(at("2026-10-31T21:00:00.000Z"));
  });

  test("a segment without its own date follows on from the one before, but not across a break", () => {
    const segments = playlistSegments("#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:2026-10-31T21:00:00Z\n#EXTINF:2,\na.m4s\n#EXTINF:2,\nb.m4s\n#EXT-X-DISCONTINUITY\n#EXTINF:2,\nc.m4s\n");
    expect(segments.map((s) => s.programDateTime)).toEqual([at("2026-10-31T21:00:00Z"), at("2026-10-31T21:00:02Z"), null]);
    expect(wallClockAt(segments, 5)).toBeNull();
  });

  test("nothing to go by: no time", () => {
    expect(wallClockAt([], 3)).toBeNull();
    expect(wallClockAt(playlistSegments(PLAYLIST), Number.NaN)).toBeNull();
  });
});
