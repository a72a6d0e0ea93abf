/**
 * The LL-HLS packager fed real encoded media (Debian's ffmpeg makes FLV files, read tag by tag into the
 * packager as the RTMP input would hand them over), with ffprobe as the independent reader of what it wrote.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BLOCKING_WAIT_MS, HTTP_IDLE_TIMEOUT_S } from "../../src/http/timeouts.ts";
import { Packager, type PackagerOptions } from "../../src/modules/ingest/hls/packager.ts";
import { feed, readFlv, type FlvEvent } from "../support/media/flv-file.ts";
import { FFMPEG, makeFlv, makeFragmentedMp4, mediaDir, mediaToolsMissing, probeFrames, probeStreams } from "../support/media/media-tools.ts";
import { fragmentRuns, readFragmentedMp4 } from "../support/media/mp4-file.ts";

if (mediaToolsMissing) console.log(`SKIPPED: the packager's tests with real media (${mediaToolsMissing})`);
const withMedia = mediaToolsMissing ? describe.skip : describe;

let dir = "";
let plain: FlvEvent[] = [];
let bframes: FlvEvent[] = [];
let audioOnly: FlvEvent[] = [];
let small: FlvEvent[] = [];
let longGop: FlvEvent[] = [];
let noKeyframes: FlvEvent[] = [];

beforeAll(() => {
  if (mediaToolsMissing) return;
  dir = mediaDir();
  plain = readFlv(makeFlv(join(dir, "plain.flv"), { seconds: 4 }));
  bframes = readFlv(makeFlv(join(dir, "bframes.flv"), { seconds: 4, bframes: true }));
  audioOnly = readFlv(makeFlv(join(dir, "audio.flv"), { seconds: 3, video: false }));
  small = readFlv(makeFlv(join(dir, "small.flv"), { seconds: 2, size: "160x90" }));
  longGop = readFlv(makeFlv(join(dir, "long-gop.flv"), { seconds: 4, size: "320x180", gop: 90 }));
  noKeyframes = readFlv(makeFlv(join(dir, "no-keyframes.flv"), { seconds: 12, size: "160x90", gop: 600 }));
}, 60_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface ListedPart {
  uri: string;
  duration: number;
  independent: boolean;
}

const tag = (text: string, name: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith(`#${name}:`))
    .map((l) => l.slice(name.length + 2));
const segmentUris = (text: string) => text.split("\n").filter((l) => l.startsWith("seg-"));
const extinfs = (text: string) => tag(text, "EXTINF").map((v) => Number.parseFloat(v));
function parts(text: string): ListedPart[] {
  return tag(text, "EXT-X-PART").map((v) => ({
    uri: /URI="([^"]+)"/.exec(v)![1]!,
    duration: Number(/DURATION=([\d.]+)/.exec(v)![1]),
    independent: v.includes("INDEPENDENT=YES"),
  }));
}

async function playlistText(packager: Packager, request = {}): Promise<string> {
  const result = await packager.playlist(request);
  if (result.status !== "ok") throw new Error(`playlist: ${JSON.stringify(result)}`);
  return result.body;
}

/** The whole stream in one window, fed and ended. */
function packaged(events: FlvEvent[], options: PackagerOptions = {}): Packager {
  const packager = new Packager({ windowSegments: 100, partWindowSegments: 100, partWindowMs: Infinity, ...options });
  feed(packager, events);
  packager.end("test over");
  return packager;
}

function writeJoined(name: string, pieces: (Uint8Array | null)[]): string {
  const path = join(dir, name);
  for (const piece of pieces) expect(piece).toBeInstanceOf(Uint8Array);
  writeFileSync(path, Buffer.concat(pieces as Uint8Array[]));
  return path;
}

/** What ffprobe decodes of the source FLV itself, to compare with. */
function sourceFrames(name: string) {
  const { frames } = probeFrames(join(dir, name));
  return {
    videoPts: frames.filter((f) => f.media_type === "video").map((f) => Number(f.pts_time)),
    audioPts: frames.filter((f) => f.media_type === "audio").map((f) => Number(f.pts_time)),
  };
}

withMedia("packaging H.264 and AAC from an FLV", () => {
  for (const [name, file] of [
    ["without B-frames", "plain.flv"],
    ["with B-frames", "bframes.flv"],
  ] as const) {
    test(`segments and parts ${name} decode in ffprobe with every frame, at the source's times, in order`, async () => {
      const events = file === "plain.flv" ? plain : bframes;
      const packager = packaged(events);
      const text = await playlistText(packager);
      const init = packager.getInit("init-1.mp4");
      const source = sourceFrames(file);
      const joinedSegments = writeJoined(`${file}.segments.mp4`, [init, ...segmentUris(text).map((u) => packager.getSegment(u))]);
      const joinedParts = writeJoined(`${file}.parts.mp4`, [init, ...parts(text).map((p) => packager.getPart(p.uri))]);
      for (const path of [joinedSegments, joinedParts]) {
        const streams = probeStreams(path);
        const video = streams.find((s) => s.codec_type === "video")!;
        const audio = streams.find((s) => s.codec_type === "audio")!;
        expect([video.codec_name, video.width, video.height]).toEqual(["h264", 640, 360]);
        expect(audio.codec_name).toBe("aac");
        expect(Number(video.nb_read_frames)).toBe(source.videoPts.length);
        expect(Number(audio.nb_read_frames)).toBe(source.audioPts.length);
        expect(Math.abs(Number(video.duration) - 4)).toBeLessThan(0.04);

        const { frames, errors } = probeFrames(path);
        expect(errors).toBe("");
        const videoPts = frames.filter((f) => f.media_type === "video").map((f) => Number(f.pts_time));
        expect(videoPts).toEqual(source.videoPts);
        const audioPts = frames.filter((f) => f.media_type === "audio").map((f) => Number(f.pts_time));
        audioPts.forEach((pts, i) => expect(Math.abs(pts - source.audioPts[i]!)).toBeLessThan(0.0015));
      }
      // The segments are their parts, one after another.
      expect(Buffer.concat(parts(text).map((p) => packager.getPart(p.uri)!))).toEqual(Buffer.concat(segmentUris(text).map((u) => packager.getSegment(u)!)));
    });
  }

  test("every playlist keeps one PART-TARGET, PART-HOLD-BACK three times it, INDEPENDENT on keyframe parts and a date on each segment", async () => {
    const packager = new Packager({ windowSegments: 100, partWindowSegments: 100, partWindowMs: Infinity });
    const seen = new Set<string>();
    for (const event of bframes) {
      feed(packager, [event]);
      if (!packager.ready) continue;
      const text = await playlistText(packager);
      seen.add(`${tag(text, "EXT-X-PART-INF")[0]} ${tag(text, "EXT-X-SERVER-CONTROL")[0]}`);
    }
    packager.end("test over");
    expect([...seen]).toEqual(["PART-TARGET=0.334 CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12,PART-HOLD-BACK=1.002"]);

    const text = await playlistText(packager);
    expect(text.startsWith("#EXTM3U\n#EXT-X-VERSION:9\n")).toBe(true);
    const listed = parts(text);
    for (const part of listed) expect(part.duration).toBeLessThanOrEqual(0.334);
    // One keyframe a second (-g 30): each segment's first part, and only it, starts on one.
    const segments = segmentUris(text);
    expect(segments).toEqual(["seg-0.m4s", "seg-1.m4s", "seg-2.m4s", "seg-3.m4s"]);
    expect(listed.filter((p) => p.independent).map((p) => p.uri)).toEqual(segments.map((_, i) => `part-${i}-0.m4s`));
    for (const [i, part] of listed.entries()) {
      const last = i === listed.length - 1 || listed[i + 1]!.uri.endsWith("-0.m4s");
      if (!last) expect(part.duration).toBeGreaterThanOrEqual(0.85 * 0.334);
    }
    // An INDEPENDENT part decodes alone after the init segment, from a keyframe.
    const alone = writeJoined("independent.mp4", [packager.getInit("init-1.mp4"), packager.getPart("part-2-0.m4s")]);
    const { frames, errors } = probeFrames(alone);
    expect(errors).toBe("");
    expect(frames.find((f) => f.media_type === "video")!.key_frame).toBe(1);

    expect(Number(tag(text, "EXT-X-TARGETDURATION")[0])).toBeGreaterThanOrEqual(Math.max(...extinfs(text).map(Math.round)));
    const dates = tag(text, "EXT-X-PROGRAM-DATE-TIME").map((d) => Date.parse(d));
    expect(dates).toHaveLength(segments.length);
    extinfs(text)
      .slice(0, -1)
      .forEach((duration, i) => expect(Math.abs(dates[i + 1]! - dates[i]! - duration * 1000)).toBeLessThanOrEqual(2));
    expect(text.trimEnd().endsWith('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part-4-0.m4s"')).toBe(true);
  });

  test("the multivariant playlist names the codecs from the records, the size, and the publisher's figures", () => {
    const packager = packaged(plain);
    const text = packager.multivariantPlaylist("media.m3u8")!;
    expect(text).toMatch(/^#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,CODECS="avc1\.[0-9A-F]{6},mp4a\.40\.2",RESOLUTION=640x360,FRAME-RATE=30\.000$/m);
    expect(text.trimEnd().endsWith("\nmedia.m3u8")).toBe(true);
    const figures = packager.figures();
    expect(figures.live).toBe(false);
    expect(figures.video).toMatchObject({ width: 640, height: 360, fps: 30, keyframeIntervalS: 1 });
    expect(figures.video!.kbps).toBeGreaterThan(100);
    expect(figures.audio).toMatchObject({ codec: "mp4a.40.2", sampleRate: 48000, channels: 2 });
    expect(new Packager().multivariantPlaylist("media.m3u8")).toBeNull();
  });

  test("a publisher that comes back continues the media sequence after a discontinuity, with a new init segment", async () => {
    const packager = new Packager({ windowSegments: 6, partWindowSegments: 2 });
    feed(packager, plain);
    packager.end("publisher left");
    expect(packager.isLive).toBe(false);
    const offline = await playlistText(packager);
    expect(segmentUris(offline)).toEqual(["seg-0.m4s", "seg-1.m4s", "seg-2.m4s", "seg-3.m4s"]);

    feed(packager, bframes); // the encoder's clock starts again at 0
    expect(packager.isLive).toBe(true);
    const text = await playlistText(packager);
    expect(tag(text, "EXT-X-MEDIA-SEQUENCE")).toEqual(["1"]);
    expect(segmentUris(text)).toEqual(["seg-1.m4s", "seg-2.m4s", "seg-3.m4s", "seg-4.m4s", "seg-5.m4s", "seg-6.m4s"]);
    expect(tag(text, "EXT-X-DISCONTINUITY-SEQUENCE")).toEqual(["0"]);
    expect(tag(text, "EXT-X-MAP")).toEqual(['URI="init-1.mp4"', 'URI="init-2.mp4"']);
    const lines = text.split("\n");
    expect(lines[lines.indexOf("#EXT-X-DISCONTINUITY") + 1]).toBe('#EXT-X-MAP:URI="init-2.mp4"');
    expect(lines.filter((l) => l === "#EXT-X-DISCONTINUITY")).toHaveLength(1);
    // Parts are listed for the last segments only.
    expect(new Set(parts(text).map((p) => p.uri.split("-")[1]))).toEqual(new Set(["5", "6", "7"]));
    expect(packager.getPart("part-1-0.m4s")).toBeNull();
    expect(packager.getSegment("seg-1.m4s")).toBeInstanceOf(Uint8Array);
    expect(packager.getSegment("seg-0.m4s")).toBeNull();

    packager.end("publisher left again");
    const second = writeJoined("second.mp4", [packager.getInit("init-2.mp4"), ...["seg-4.m4s", "seg-5.m4s", "seg-6.m4s", "seg-7.m4s"].map((u) => packager.getSegment(u))]);
    const { frames, errors } = probeFrames(second);
    expect(errors).toBe("");
    expect(frames.filter((f) => f.media_type === "video")).toHaveLength(120);

    // Once the window has slid past the discontinuity, DISCONTINUITY-SEQUENCE counts it.
    feed(packager, plain);
    feed(packager, plain, 4000);
    const later = await playlistText(packager);
    expect(tag(later, "EXT-X-DISCONTINUITY-SEQUENCE")).toEqual(["2"]);
    expect(tag(later, "EXT-X-MAP")).toEqual(['URI="init-3.mp4"']);
    expect(later).not.toContain("#EXT-X-DISCONTINUITY\n");
    expect(packager.getInit("init-1.mp4")).toBeNull();
    expect(packager.getInit("init-2.mp4")).toBeNull();
  });

  test("a changed codec configuration mid-stream starts a new init segment after a discontinuity", async () => {
    const packager = new Packager({ windowSegments: 100 });
    feed(packager, plain);
    feed(packager, bframes, 4000); // other encoder settings: another avcC record, without the publisher leaving
    packager.end("test over");
    const text = await playlistText(packager);
    expect(tag(text, "EXT-X-MAP")).toEqual(['URI="init-1.mp4"', 'URI="init-2.mp4"']);
    expect(text.split("\n").filter((l) => l === "#EXT-X-DISCONTINUITY")).toHaveLength(1);
    expect(segmentUris(text)).toHaveLength(8);
  });

  test("a session without sound between two with it carries a silent AAC track: every init has the same tracks, and the silence covers its picture", async () => {
    const silent = plain.filter((e) => e.kind !== "audio" && e.kind !== "audioConfig");
    const packager = new Packager({ windowSegments: 100, partWindowSegments: 100, partWindowMs: Infinity });
    feed(packager, plain);
    packager.end("publisher left");
    feed(packager, silent, 4000);
    // The panel is told the truth (no sound from the publisher); the playlist names the track its segments carry.
    expect(packager.figures().audio).toBeNull();
    expect(packager.multivariantPlaylist("media.m3u8")).toMatch(/CODECS="avc1\.[0-9A-F]+,mp4a\.40\.2"/);
    packager.end("publisher left");
    feed(packager, plain, 8000);
    packager.end("test over");
    const text = await playlistText(packager);
    expect(tag(text, "EXT-X-MAP")).toEqual(['URI="init-1.mp4"', 'URI="init-2.mp4"', 'URI="init-3.mp4"']);
    // Each session's segments, after its map.
    const sessions: string[][] = [];
    for (const line of text.split("\n")) {
      if (line.startsWith("#EXT-X-MAP")) sessions.push([]);
      else if (line.startsWith("seg-")) sessions[sessions.length - 1]!.push(line);
    }
    const videoFrames = sourceFrames("plain.flv").videoPts.length;
    sessions.forEach((segments, i) => {
      const path = writeJoined(`sound-${i + 1}.mp4`, [packager.getInit(`init-${i + 1}.mp4`), ...segments.map((u) => packager.getSegment(u))]);
      const streams = probeStreams(path);
      expect(streams.map((s) => `${s.codec_type} ${s.codec_name}`)).toEqual(["video h264", "audio aac"]);
      expect(Number(streams[0]!.nb_read_frames)).toBe(videoFrames);
      const { frames, errors } = probeFrames(path);
      expect(errors).toBe("");
      if (i !== 1) return;
      // The silence runs from the first picture to the last one's end, to within a frame of sound, unbroken.
      expect(streams[1]).toMatchObject({ sample_rate: "48000", channels: 2 });
      const video = frames.filter((f) => f.media_type === "video").map((f) => Number(f.pts_time));
      const audio = frames.filter((f) => f.media_type === "audio").map((f) => Number(f.pts_time));
      expect(Math.abs(audio[0]! - video[0]!)).toBeLessThan(0.025);
      const videoEnd = video[video.length - 1]! + 1 / 30;
      const audioEnd = audio[audio.length - 1]! + 1024 / 48000;
      expect(audioEnd).toBeGreaterThanOrEqual(videoEnd - 0.001);
      expect(audioEnd - videoEnd).toBeLessThan(1024 / 48000 + 0.001);
      audio.slice(1).forEach((pts, j) => expect(pts - audio[j]!).toBeCloseTo(1024 / 48000, 4));
      const loudness = spawnSync(FFMPEG, ["-hide_banner", "-i", path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"]);
      expect(String(loudness.stderr)).toMatch(/max_volume: -9\d\.\d dB/);
    });
  });

  test("a publisher's clock that jumps back or far ahead mid-stream is taken up: the timeline goes on and the segments stay short", async () => {
    const media = (events: FlvEvent[]) => events.filter((e) => e.kind === "video" || e.kind === "audio");
    const packager = new Packager({ windowSegments: 100, partWindowSegments: 100, partWindowMs: Infinity });
    feed(packager, plain);
    feed(packager, media(plain)); // the clock starts again at 0, the publisher still there
    feed(packager, media(plain), 3_600_000); // an hour ahead
    packager.end("test over");
    const text = await playlistText(packager);
    expect(tag(text, "EXT-X-TARGETDURATION")).toEqual(["2"]);
    expect(text).not.toContain("#EXT-X-DISCONTINUITY\n");
    const durations = extinfs(text);
    expect(durations.every((d) => Math.round(d) <= 2)).toBe(true);
    expect(Math.abs(durations.reduce((a, b) => a + b) - 12)).toBeLessThan(0.1);
    const path = writeJoined("jumps.mp4", [packager.getInit("init-1.mp4"), ...segmentUris(text).map((u) => packager.getSegment(u))]);
    const { frames, errors } = probeFrames(path);
    expect(errors).toBe("");
    const videoPts = frames.filter((f) => f.media_type === "video").map((f) => Number(f.pts_time));
    expect(videoPts).toHaveLength(360);
    videoPts.slice(1).forEach((pts, i) => expect(pts - videoPts[i]!).toBeCloseTo(1 / 30, 1));
    expect(Number(probeStreams(path).find((s) => s.codec_type === "audio")!.nb_read_frames)).toBe(3 * sourceFrames("plain.flv").audioPts.length);
  });

  test("a publisher sending keyframes further apart than the target duration still gets segments that round to it, independent only where a keyframe starts them", async () => {
    const packager = packaged(longGop, { segmentMaxMs: 2000 });
    const text = await playlistText(packager);
    expect(tag(text, "EXT-X-TARGETDURATION")).toEqual(["2"]);
    expect(extinfs(text).every((d) => d <= 2.45)).toBe(true);
    // Cut at 2.4 s without a keyframe, then at the keyframe at 3 s (however soon after), then at the end.
    expect(
      parts(text)
        .filter((p) => p.independent)
        .map((p) => p.uri),
    ).toEqual(["part-0-0.m4s", "part-2-0.m4s"]);
    expect(extinfs(text).map((d) => Math.round(d))).toEqual([2, 1, 1]);
    const path = writeJoined("long-gop.mp4", [packager.getInit("init-1.mp4"), ...segmentUris(text).map((u) => packager.getSegment(u))]);
    const { frames, errors } = probeFrames(path);
    expect(errors).toBe("");
    expect(frames.filter((f) => f.media_type === "video")).toHaveLength(120);
  });

  test("an audio-only stream is cut on time, every part independent, and decodes", async () => {
    const packager = packaged(audioOnly);
    const text = await playlistText(packager);
    const durations = extinfs(text);
    expect(durations.slice(0, -1).every((d) => d >= 1 && d < 1.1)).toBe(true);
    expect(parts(text).every((p) => p.independent && p.duration <= 0.334)).toBe(true);
    const path = writeJoined("audio.mp4", [packager.getInit("init-1.mp4"), ...segmentUris(text).map((u) => packager.getSegment(u))]);
    const streams = probeStreams(path);
    expect(streams.map((s) => s.codec_name)).toEqual(["aac"]);
    expect(Number(streams[0]!.nb_read_frames)).toBe(sourceFrames("audio.flv").audioPts.length);
    expect(packager.multivariantPlaylist("a.m3u8")).toContain('CODECS="mp4a.40.2"');
  });
});

withMedia("packaging HEVC and AV1", () => {
  for (const [codec, entry, codecs] of [
    ["hevc", "hvc1", /CODECS="hvc1\.1\.6\.L\d+\.[0-9A-F]+,mp4a\.40\.2"/],
    ["av1", "av01", /CODECS="av01\.0\.\d\dM\.08,mp4a\.40\.2"/],
  ] as const) {
    test(`${codec} frames come out as ${entry} segments that decode, with the codec named from the record`, async () => {
      const { config, frames } = readFragmentedMp4(makeFragmentedMp4(join(dir, `${codec}.mp4`), codec));
      const packager = new Packager({ windowSegments: 100 });
      packager.videoConfig(config);
      for (const frame of frames) packager.video(frame);
      packager.end("test over");
      const text = await playlistText(packager);
      expect(segmentUris(text)).toEqual(["seg-0.m4s", "seg-1.m4s"]);
      const path = writeJoined(`${codec}.out.mp4`, [packager.getInit("init-1.mp4"), ...segmentUris(text).map((u) => packager.getSegment(u))]);
      // Sent without sound, it carries a silent track (as every session without sound does).
      expect(probeStreams(path)).toMatchObject([
        { codec_name: codec, codec_tag_string: entry, width: 320, height: 180, nb_read_frames: "60" },
        { codec_type: "audio", codec_name: "aac" },
      ]);
      expect(probeFrames(path).errors).toBe("");
      expect(packager.multivariantPlaylist("media.m3u8")).toMatch(codecs);
    }, 20_000);
  }
});

withMedia("a part is written as its last frame arrives", () => {
  test("each part is listed on the arrival of its own last video frame, not the frame after it, and ends where the next begins", async () => {
    const packager = new Packager({ windowSegments: 100, partWindowSegments: 100, partWindowMs: Infinity });
    const firstDts = (plain.find((e) => e.kind === "video") as { frame: { dts: number } }).frame.dts;
    // For each part, in order: the end (s) of the video frame whose arrival wrote it, if a video frame's.
    const writtenOn: (number | null)[] = [];
    let [msn, index] = [0, 0];
    for (const event of plain) {
      feed(packager, [event]);
      for (;;) {
        const next = packager.getPart(`part-${msn}-${index}.m4s`) ? [msn, index + 1] : packager.getPart(`part-${msn + 1}-0.m4s`) ? [msn + 1, 1] : null;
        if (!next) break;
        writtenOn.push(event.kind === "video" ? (event.frame.dts - firstDts + 1000 / 30) / 1000 : null);
        [msn, index] = next as [number, number];
      }
    }
    packager.end("test over");
    const listed = parts(await playlistText(packager));
    expect(writtenOn.length).toBe(12);
    let elapsed = 0;
    writtenOn.forEach((frameEnd, i) => {
      elapsed += listed[i]!.duration;
      expect(frameEnd).not.toBeNull();
      expect(Math.abs(elapsed - frameEnd!)).toBeLessThan(0.0025);
    });
    const runs = fragmentRuns(Buffer.concat(listed.map((p) => packager.getPart(p.uri)!)), 1);
    expect(runs.reduce((n, r) => n + r.samples, 0)).toBe(120);
    // No gap and no overlap: each part's video begins where the part before it ended.
    runs.slice(1).forEach((run, i) => expect(run.start).toBe(runs[i]!.start + runs[i]!.duration));
  });

  test("a frame off the predicted time moves onto the part's end when close, and leaves a gap when far: never an overlap, every frame decoded", async () => {
    // The first frames of three parts (10 frames a part at 30 fps): one 1 ms early, one 10 ms late, one 25 ms late.
    const shifts = new Map([
      [10, -1],
      [40, 10],
      [70, 25],
    ]);
    let index = 0;
    const events = plain.map((e): FlvEvent => {
      if (e.kind !== "video") return e;
      const shift = shifts.get(index++) ?? 0;
      return { kind: "video", frame: { ...e.frame, dts: e.frame.dts + shift, pts: e.frame.pts + shift } };
    });
    const packager = packaged(events);
    const text = await playlistText(packager);
    const path = writeJoined("off-time.mp4", [packager.getInit("init-1.mp4"), ...parts(text).map((p) => packager.getPart(p.uri))]);
    const { frames, errors } = probeFrames(path);
    expect(errors).toBe("");
    const pts = frames.filter((f) => f.media_type === "video").map((f) => Number(f.pts_time));
    const source = sourceFrames("plain.flv").videoPts;
    expect(pts).toHaveLength(source.length);
    const runs = fragmentRuns(Buffer.concat(parts(text).map((p) => packager.getPart(p.uri)!)), 1);
    const gaps = runs.slice(1).map((run, i) => run.start - (runs[i]!.start + runs[i]!.duration));
    expect(gaps.every((g) => g >= 0)).toBe(true);
    // The 25 ms late frame keeps its time (a gap before it); the others sit on the part's end (no gap).
    expect(gaps.filter((g) => g > 0)).toEqual([25 * 90]);
    expect(Math.abs(pts[70]! - (source[70]! + 0.025))).toBeLessThan(0.0015);
    expect(Math.abs(pts[40]! - source[40]!)).toBeLessThan(0.0015);
    expect(Math.abs(pts[10]! - source[10]!)).toBeLessThan(0.0015);
    pts.forEach((t, i) => i === 70 || expect(Math.abs(t - source[i]!)).toBeLessThan(0.0015));
  });
});

withMedia("blocking playlist reload", () => {
  test("a held reload and a request for the hinted part are answered by the part's write, before anything else runs", async () => {
    const packager = new Packager();
    let i = 0;
    while (!packager.ready) feed(packager, [plain[i++]!]);
    const text = await playlistText(packager);
    const hint = /PRELOAD-HINT:TYPE=PART,URI="part-(\d+)-(\d+)\.m4s"/.exec(text)!;
    const [msn, part] = [Number(hint[1]), Number(hint[2])];
    const hinted = `part-${msn}-${part}.m4s`;
    expect(packager.getPart(hinted)).toBeNull();

    let reloadAt = 0;
    let partAt = 0;
    const reload = packager.playlist({ msn, part, query: "t=abc" }).then((r) => ((reloadAt = performance.now()), r));
    const bytes = packager.awaitPart(hinted).then((b) => ((partAt = performance.now()), b));
    await Bun.sleep(5);
    expect(packager.waiting).toBe(2);
    let writtenAt = 0;
    while (!writtenAt) {
      feed(packager, [plain[i++]!]);
      if (packager.getPart(hinted)) writtenAt = performance.now();
      await null;
    }
    // Both are answered by the write itself, before anything else could run: no timer, no poll, no I/O
    // between (a few turns of the promise queue), so the answer's delay is the time to run this code.
    for (let turn = 0; turn < 20 && !(reloadAt && partAt); turn++) await null;
    expect(reloadAt > 0 && partAt > 0).toBe(true);
    const [answer, hintedBytes] = await Promise.all([reload, bytes]);
    expect(reloadAt).toBeGreaterThanOrEqual(writtenAt);
    expect(hintedBytes).toEqual(packager.getPart(hinted)!);
    expect(answer.status).toBe("ok");
    const body = (answer as { body: string }).body;
    expect(body).toContain(`URI="${hinted}?t=abc"`);
    expect(body).toContain('#EXT-X-MAP:URI="init-1.mp4?t=abc"');
    expect(packager.waiting).toBe(0);
  });

  test("a part that does not come is 'not yet' after the bound; too far ahead or malformed is a bad request; closed is gone", async () => {
    const packager = new Packager({ blockingTimeoutMs: 150 });
    expect(await packager.playlist()).toEqual({ status: "not-yet" });
    feed(packager, plain);
    packager.end("publisher left");
    const hint = /PRELOAD-HINT:TYPE=PART,URI="part-(\d+)-(\d+)\.m4s"/.exec(await playlistText(packager))!;
    const msn = Number(hint[1]);

    const started = performance.now();
    expect(await packager.playlist({ msn, part: 0 })).toEqual({ status: "not-yet" });
    expect(await packager.awaitPart(`part-${msn}-0.m4s`)).toBeNull();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1000);
    expect(packager.waiting).toBe(0);

    expect((await packager.playlist({ msn: msn + 2 })).status).toBe("bad-request");
    expect((await packager.playlist({ msn, part: 40 })).status).toBe("bad-request");
    expect((await packager.playlist({ part: 1 })).status).toBe("bad-request");
    expect((await packager.playlist({ msn: -1 })).status).toBe("bad-request");
    expect((await packager.playlist({ msn: 0, part: 0 })).status).toBe("ok"); // already in the window
    expect(await packager.awaitPart("part-99-0.m4s")).toBeNull(); // not the hinted part: not held at all

    const held = packager.playlist({ msn, part: 1 });
    packager.close();
    expect(await held).toEqual({ status: "gone" });
    expect(await packager.playlist()).toEqual({ status: "gone" });
    expect(packager.getInit("init-1.mp4")).toBeNull();
  });
});

/** Every rule of the playlist that one snapshot breaks, as text (RFC 8216bis with its LL-HLS rules). */
function playlistFaults(text: string, partTarget: number, segmentMin: number): string[] {
  const faults: string[] = [];
  const target = Number(tag(text, "EXT-X-TARGETDURATION")[0]);
  const lines = text.split("\n");
  // Segments with their parts, in order; the open one (parts only) last.
  const segments: { parts: ListedPart[]; duration: number | null }[] = [{ parts: [], duration: null }];
  for (const line of lines) {
    if (line.startsWith("#EXT-X-PART:")) segments.at(-1)!.parts.push(parts(line)[0]!);
    else if (line.startsWith("#EXTINF:")) {
      segments.at(-1)!.duration = Number.parseFloat(line.slice(8));
      segments.push({ parts: [], duration: null });
    }
  }
  const complete = segments.filter((segment) => segment.duration !== null);
  for (const [i, segment] of complete.entries()) {
    if (Math.round(segment.duration!) > target) faults.push(`segment ${i} of ${segment.duration} s rounds above the target ${target}`);
  }
  const all = segments.flatMap((segment) => segment.parts);
  for (const part of all) if (part.duration > partTarget + 0.0005) faults.push(`part ${part.uri} of ${part.duration} s is longer than PART-TARGET ${partTarget}`);
  for (const segment of segments) {
    let at = 0;
    segment.parts.forEach((part, i) => {
      // A keyframe once the segment is long enough starts the next segment.
      if (i > 0 && part.independent && at >= segmentMin - 0.02) faults.push(`${part.uri}: a keyframe ${at.toFixed(3)} s into its segment did not start a new one`);
      // Mid-segment parts are about the part target (the last one of a segment may be short).
      if (i < segment.parts.length - 1 && part.duration < partTarget / 4) faults.push(`${part.uri}: a part of ${part.duration} s in the middle of its segment`);
      at += part.duration;
    });
  }
  // Parts only on the segments ending within three target durations of the end.
  let fromEnd = segments.at(-1)!.parts.reduce((sum, part) => sum + part.duration, 0);
  for (let i = complete.length - 1; i >= 0; i--) {
    if (complete[i]!.parts.length > 0 && fromEnd > 3 * target + 0.001) faults.push(`segment ${i} ends ${fromEnd.toFixed(2)} s from the end and still lists its parts`);
    fromEnd += complete[i]!.duration!;
  }
  return faults;
}

/** The events with each frame's timestamp moved by up to ±`jitterMs` (ms, a publisher's jittery clock), in order per track. */
function jittered(events: FlvEvent[], jitterMs: number, seed: number): FlvEvent[] {
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const last = { video: -Infinity, audio: -Infinity };
  return events.map((event) => {
    if (event.kind !== "video" && event.kind !== "audio") return event;
    const dts = Math.max(last[event.kind] + 1, Math.round(event.frame.dts + (random() * 2 - 1) * jitterMs));
    last[event.kind] = dts;
    return event.kind === "video" ? { ...event, frame: { ...event.frame, dts, pts: event.frame.pts - event.frame.dts + dts } } : { ...event, frame: { ...event.frame, dts } };
  });
}

withMedia("the playlist to the letter, reload after reload", () => {
  for (const [name, jitterMs, drops] of [
    ["a steady publisher", 0, false],
    ["a publisher with a jittery clock (±30 ms)", 30, false],
    ["a publisher that drops frames (400 ms of them every 3 s)", 0, true],
  ] as const) {
    test(`${name}: a fixed target duration, three of them listed, parts within PART-TARGET and only near the end, a keyframe cut at every chance, every hinted part written`, async () => {
      const packager = new Packager({ windowSegments: 7 }); // a short window: 16 s slide it
      const hinted: string[] = [];
      const listed = new Set<string>();
      const targets = new Set<string>();
      const faults = new Set<string>();
      let sliding = false;
      // 16 s of one publish: the 4 s file four times over on one clock, jittered.
      const media = plain.filter((e) => e.kind === "video" || e.kind === "audio");
      const configs = plain.filter((e) => e.kind !== "video" && e.kind !== "audio");
      const shifted = [0, 1, 2, 3].flatMap((k) =>
        media.map((e) =>
          e.kind === "video"
            ? { ...e, frame: { ...e.frame, dts: e.frame.dts + k * 4000, pts: e.frame.pts + k * 4000 } }
            : { ...e, frame: { ...e.frame, dts: e.frame.dts + k * 4000 } },
        ),
      ) as FlvEvent[];
      // Dropped: inter frames 400 ms long every 3 s (a publisher's encoder stalling), so one frame spans them.
      const dropped = (e: FlvEvent) => drops && e.kind === "video" && !e.frame.keyframe && e.frame.dts % 3000 >= 1500 && e.frame.dts % 3000 < 1900;
      for (const event of [
        ...configs,
        ...jittered(
          shifted.filter((e) => !dropped(e)),
          jitterMs,
          7,
        ),
      ]) {
        feed(packager, [event]);
        if (!packager.ready) continue;
        const text = await playlistText(packager);
        targets.add(tag(text, "EXT-X-TARGETDURATION")[0]!);
        for (const part of parts(text)) listed.add(part.uri);
        const hint = /PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(text)?.[1];
        if (hint && hinted.at(-1) !== hint) hinted.push(hint);
        for (const fault of playlistFaults(text, 0.334, 1)) faults.add(fault);
        if (Number(tag(text, "EXT-X-MEDIA-SEQUENCE")[0]) > 0) {
          sliding = true;
          const seconds = extinfs(text).reduce((a, b) => a + b, 0);
          if (seconds < 3 * Number(tag(text, "EXT-X-TARGETDURATION")[0])) faults.add(`only ${seconds.toFixed(2)} s of segments listed while they are removed`);
        }
      }
      packager.end("test over");
      expect([...faults]).toEqual([]);
      expect([...targets]).toEqual(["2"]);
      expect(sliding).toBe(true);
      // Every hint but the last (the stream ended) named a part that was then written and listed.
      expect(hinted.slice(0, -1).filter((name) => !listed.has(name))).toEqual([]);
      expect(hinted.length).toBeGreaterThan(25); // 16 s, in parts of a third of a second where no frames are missing
    }, 30_000);
  }
});

withMedia("delta updates", () => {
  test("_HLS_skip=YES leaves out the segments ending at least six target durations before the end, as EXT-X-SKIP; the rest is the full playlist's, line for line", async () => {
    const packager = new Packager({ segmentMinMs: 1000 });
    const media = plain.filter((e) => e.kind === "video" || e.kind === "audio");
    for (let k = 0; k < 7; k++) feed(packager, k === 0 ? plain : media, k * 4000); // 28 s on one clock
    const full = await playlistText(packager);
    const delta = await playlistText(packager, { skip: true });
    expect(full).toContain("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12,PART-HOLD-BACK=1.002");
    expect(full).not.toContain("#EXT-X-SKIP");
    const skipped = Number(/#EXT-X-SKIP:SKIPPED-SEGMENTS=(\d+)/.exec(delta)![1]);
    const durations = extinfs(full);
    expect(skipped).toBeGreaterThan(0);
    // Each skipped segment ends 12 s or more before the end; the first one kept does not.
    // The open segment's parts count towards the end too.
    const open = parts(full)
      .filter((p) => p.uri.startsWith(`part-${Number(tag(full, "EXT-X-MEDIA-SEQUENCE")[0]) + durations.length}-`))
      .reduce((sum, p) => sum + p.duration, 0);
    const endFromEnd = (i: number) => durations.slice(i + 1).reduce((a, b) => a + b, 0) + open;
    expect(endFromEnd(skipped - 1)).toBeGreaterThanOrEqual(12);
    expect(endFromEnd(skipped)).toBeLessThan(12);
    expect(tag(delta, "EXT-X-MEDIA-SEQUENCE")).toEqual(tag(full, "EXT-X-MEDIA-SEQUENCE"));
    expect(segmentUris(delta)).toEqual(segmentUris(full).slice(skipped));
    // After the skip: the init segment named again, then the full playlist's own lines from the first segment kept.
    const kept = full.slice(full.indexOf("#EXT-X-PROGRAM-DATE-TIME", full.indexOf(segmentUris(full)[skipped - 1]!)));
    expect(delta.endsWith(kept)).toBe(true);
    expect(delta).toContain(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${skipped}\n#EXT-X-MAP:URI="init-1.mp4"\n#EXT-X-PROGRAM-DATE-TIME`);
    expect(delta.length).toBeLessThan(full.length);
    packager.end("test over");
  });
});

withMedia("blocking under the server's timeouts", () => {
  test("a publisher with keyframes 12 s apart keeps the target duration, and its blocked reloads are answered before the HTTP server's idle timeout", async () => {
    expect(BLOCKING_WAIT_MS).toBeLessThan(HTTP_IDLE_TIMEOUT_S * 1000 - 2000);
    const packager = new Packager();
    feed(packager, noKeyframes); // still live: the publisher has not left
    // The target duration stays what it was (keyframes further apart do not raise it), so the bound is 6 s.
    expect(packager.targetDuration).toBe(2);
    const hint = /PRELOAD-HINT:TYPE=PART,URI="part-(\d+)-(\d+)\.m4s"/.exec(await playlistText(packager))!;
    const started = performance.now();
    const [reload, part] = await Promise.all([packager.playlist({ msn: Number(hint[1]), part: Number(hint[2]) }), packager.awaitPart(`part-${hint[1]}-${hint[2]}.m4s`)]);
    const waited = performance.now() - started;
    expect(reload).toEqual({ status: "not-yet" });
    expect(part).toBeNull();
    expect(waited).toBeGreaterThanOrEqual(BLOCKING_WAIT_MS - 50);
    expect(waited).toBeLessThan(BLOCKING_WAIT_MS + 1000);
    packager.close();
  }, 20_000);
});

withMedia("memory", () => {
  test("a long stream holds a bounded window: thousands of segments, the bytes held never past the bound", async () => {
    const maxBytes = 400_000;
    const packager = new Packager({ maxBytes, windowSegments: 8 });
    let most = 0;
    const loops = 1000; // 2 s each, two segments each
    for (let loop = 0; loop < loops; loop++) {
      feed(packager, small, loop * 2000);
      most = Math.max(most, packager.figures().bytesHeld);
    }
    const figures = packager.figures();
    expect(figures.mediaSequence + figures.segments).toBeGreaterThanOrEqual(2 * loops - 1);
    expect(figures.segments).toBeLessThan(8); // the bytes bound, not the count, held the window here
    expect(most).toBeLessThanOrEqual(maxBytes);
    const text = await playlistText(packager);
    expect(tag(text, "EXT-X-MAP")).toEqual(['URI="init-1.mp4"']);
    expect(text).not.toContain("DISCONTINUITY\n");

    const counted = new Packager({ windowSegments: 8, partWindowSegments: 3 });
    for (let loop = 0; loop < 20; loop++) feed(counted, small, loop * 2000);
    const window = await playlistText(counted);
    expect(segmentUris(window)).toHaveLength(8);
    expect(new Set(parts(window).map((p) => p.uri.split("-")[1]))).toHaveLength(4); // the last three and the one being written
  });
});
