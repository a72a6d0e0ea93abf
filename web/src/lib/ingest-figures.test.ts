import { describe, expect, test } from "bun:test";
import { codecName, formatAudio, formatBitrate, formatFps, formatKeyframeInterval, liveFor, videoSummary } from "./ingest-figures";

describe("the publisher's figures in plain words", () => {
  test("codecs by the names OBS gives them", () => {
    expect(codecName("avc1.64001f")).toBe("H.264 High");
    expect(codecName("avc1.42E01E")).toBe("H.264 Baseline");
    expect(codecName("avc1.4d401f")).toBe("H.264 Main");
    expect(codecName("hvc1.1.6.L93.B0")).toBe("HEVC");
    expect(codecName("av01.0.08M.08")).toBe("AV1");
    expect(codecName("mp4a.40.2")).toBe("AAC");
    expect(codecName("mp4a.40.5")).toBe("HE-AAC");
    expect(codecName("H.264")).toBe("H.264");
  });

  test("rates, sizes and the keyframe interval", () => {
    expect(formatBitrate(2500)).toBe("2,500 kb/s");
    expect(formatBitrate(null)).toBe("—");
    expect(formatFps(29.97)).toBe("29.97 fps");
    expect(formatFps(30)).toBe("30 fps");
    expect(formatKeyframeInterval(2)).toBe("every 2 s");
    expect(formatKeyframeInterval(4.333)).toBe("every 4.33 s");
    expect(formatAudio({ codec: "mp4a.40.2", sampleRate: 48000, channels: 2, bitrateKbps: 160 })).toBe("AAC · 48 kHz · stereo");
    expect(formatAudio({ codec: "mp4a.40.2", sampleRate: 44100, channels: 1, bitrateKbps: null })).toBe("AAC · 44.1 kHz · mono");
    expect(videoSummary({ codec: "avc1.64001f", width: 1280, height: 720, fps: 30, bitrateKbps: 2500, keyframeIntervalS: 2 })).toBe("1280×720 · 30 fps · 2,500 kb/s");
    expect(videoSummary({ codec: "avc1.64001f", width: 640, height: 360, fps: null, bitrateKbps: null, keyframeIntervalS: null })).toBe("640×360");
  });

  test("how long it has been live", () => {
    const since = "2026-10-31T21:00:00.000Z";
    expect(liveFor(since, Date.parse(since) + 20_000)).toBe("less than a minute");
    expect(liveFor(since, Date.parse(since) + 4 * 60_000)).toBe("4 min");
    expect(liveFor(since, Date.parse(since) + 72 * 60_000)).toBe("1 h 12 min");
  });
});
