import { expect, test } from "bun:test";
import { audioCodecString, videoCodecString } from "./codec-strings.ts";

const video = (codec: "h264" | "hevc" | "av1", record: number[]) => videoCodecString({ codec, record: new Uint8Array(record), width: 0, height: 0 });
const audio = (asc: number[]) => audioCodecString({ codec: "aac", asc: new Uint8Array(asc), sampleRate: 48000, channels: 2 });

test("CODECS strings are read from the decoder configuration records", () => {
  expect(video("h264", [1, 0x64, 0x00, 0x1f, 0xff])).toBe("avc1.64001F");
  expect(video("h264", [1, 0x42, 0xc0, 0x1e, 0xff])).toBe("avc1.42C01E");
  // Main profile, compatibility flags 0x60000000 (reversed: 6), level 4.1 (123), constraints 0xB0
  expect(video("hevc", [1, 0x01, 0x60, 0, 0, 0, 0xb0, 0, 0, 0, 0, 0, 123, 0xf0])).toBe("hvc1.1.6.L123.B0");
  expect(video("hevc", [1, 0x22, 0x20, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 153, 0xf0])).toBe("hvc1.2.4.H153.90");
  // Main profile, level 4.0 (seq_level_idx 8), main tier, 8-bit; then 10-bit
  expect(video("av1", [0x81, 0x08, 0x0c, 0x00])).toBe("av01.0.08M.08");
  expect(video("av1", [0x81, 0x0d, 0x4c, 0x00])).toBe("av01.0.13M.10");
  expect(audio([0x11, 0x90])).toBe("mp4a.40.2");
  expect(audio([0x2b, 0x92, 0x08, 0x00])).toBe("mp4a.40.5");
});
