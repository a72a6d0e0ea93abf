import { expect, test } from "bun:test";
import { renderMediaPlaylist, renderMultivariantPlaylist } from "./playlist.ts";

const part = (name: string, independent = false) => ({ name, duration: 0.334, independent });

test("the media playlist lists the window: MAP on an init change, DISCONTINUITY after the first segment only, parts, the preload hint, the viewer's query", () => {
  const text = renderMediaPlaylist(
    {
      targetDuration: 2,
      partTarget: 0.334,
      mediaSequence: 10,
      discontinuitySequence: 3,
      segments: [
        { msn: 10, name: "seg-10.m4s", duration: 2, initName: "init-4.mp4", discontinuity: true, programDateTime: Date.UTC(2026, 9, 31, 22), parts: null },
        {
          msn: 11,
          name: "seg-11.m4s",
          duration: 1.002,
          initName: "init-5.mp4",
          discontinuity: true,
          programDateTime: Date.UTC(2026, 9, 31, 22, 5),
          parts: [part("part-11-0.m4s", true), part("part-11-1.m4s"), part("part-11-2.m4s")],
        },
        {
          msn: 12,
          name: null,
          duration: 0.334,
          initName: "init-5.mp4",
          discontinuity: false,
          programDateTime: Date.UTC(2026, 9, 31, 22, 5, 1, 2),
          parts: [part("part-12-0.m4s", true)],
        },
      ],
      preloadHint: "part-12-1.m4s",
    },
    "t=x",
  );
  expect(text).toBe(
    [
      "#EXTM3U",
      "#EXT-X-VERSION:9",
      "#EXT-X-TARGETDURATION:2",
      "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12,PART-HOLD-BACK=1.002",
      "#EXT-X-PART-INF:PART-TARGET=0.334",
      "#EXT-X-MEDIA-SEQUENCE:10",
      "#EXT-X-DISCONTINUITY-SEQUENCE:3",
      '#EXT-X-MAP:URI="init-4.mp4?t=x"',
      "#EXT-X-PROGRAM-DATE-TIME:2026-10-31T22:00:00.000Z",
      "#EXTINF:2,",
      "seg-10.m4s?t=x",
      "#EXT-X-DISCONTINUITY",
      '#EXT-X-MAP:URI="init-5.mp4?t=x"',
      "#EXT-X-PROGRAM-DATE-TIME:2026-10-31T22:05:00.000Z",
      '#EXT-X-PART:DURATION=0.334,URI="part-11-0.m4s?t=x",INDEPENDENT=YES',
      '#EXT-X-PART:DURATION=0.334,URI="part-11-1.m4s?t=x"',
      '#EXT-X-PART:DURATION=0.334,URI="part-11-2.m4s?t=x"',
      "#EXTINF:1.002,",
      "seg-11.m4s?t=x",
      "#EXT-X-PROGRAM-DATE-TIME:2026-10-31T22:05:01.002Z",
      '#EXT-X-PART:DURATION=0.334,URI="part-12-0.m4s?t=x",INDEPENDENT=YES',
      '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part-12-1.m4s?t=x"',
      "",
    ].join("\n"),
  );
});

test("the multivariant playlist names bandwidth, codecs, resolution and frame rate", () => {
  expect(renderMultivariantPlaylist({ bandwidth: 3_000_000, codecs: ["avc1.64001F", "mp4a.40.2"], width: 1280, height: 720, frameRate: 29.97, uri: "media.m3u8" })).toBe(
    '#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-STREAM-INF:BANDWIDTH=3000000,CODECS="avc1.64001F,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.970\nmedia.m3u8\n',
  );
});
