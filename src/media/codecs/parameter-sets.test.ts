import { describe, expect, test } from "bun:test";
import { parseAv1SequenceHeader, parseH264Sps, parseHevcSps, SpsError, unescapeNal } from "./parameter-sets.ts";

const hex = (s: string) => Uint8Array.from(Buffer.from(s, "hex"));

// Parameter sets written by FFmpeg 5.1's libx264, libx265 and libaom for testsrc2 pictures of these sizes.
describe("H.264 SPS", () => {
  test.each([
    ["Baseline 640×360 (coded 640×368, cropped 8 rows)", "6742c01eda0280bfe5c044000003000400000300f03c58ba80", 640, 360],
    ["Baseline 1920×1080 (coded 1920×1088)", "6742c028da01e0089f970110000003001000000303c0f1832a", 1920, 1080],
    ["Baseline 426×240 (cropped 6 columns)", "6742c015da06c7f93c0440000003004000000f03c58ba8", 426, 240],
    ["High 640×360 (chroma format and scaling fields present)", "6764001eacd940a02ff970110000030001000003003c0f162d96", 640, 360],
    ["High 4:4:4 642×362 (crop unit of one pixel)", "67f4001e919b281485fc7cf80880000003008000001e078b16cb", 642, 362],
  ])("%s", (_name, sps, width, height) => {
    expect(parseH264Sps(hex(sps))).toEqual({ width, height });
  });

  test("a truncated SPS is an SpsError, not a size", () => {
    const sps = hex("6742c01eda0280bfe5c044000003000400000300f03c58ba80");
    for (let length = 1; length < 8; length++) expect(() => parseH264Sps(sps.subarray(0, length))).toThrow(SpsError);
  });

  test("an exp-Golomb code of all zeros is refused rather than read forever", () => {
    expect(() => parseH264Sps(new Uint8Array([0x67, 100, 0, 30, 0, 0, 0, 0, 0, 0, 0, 0]))).toThrow(SpsError);
  });

  test("emulation-prevention bytes are dropped before reading", () => {
    expect([...unescapeNal(hex("0000030100000302"))]).toEqual([0, 0, 1, 0, 0, 2]);
  });
});

describe("HEVC SPS", () => {
  test("426×240 from libx265 (conformance window crops the coded 432 columns)", () => {
    expect(parseHevcSps(hex("42010101600000030090000003000003003ca00d880f1c9e5959a4932bc05a020000030002000003003c10"))).toEqual({ width: 426, height: 240 });
  });
});

describe("AV1 sequence header", () => {
  test("426×240 from libaom", () => {
    expect(parseAv1SequenceHeader(hex("0a0b000000043ea7bcdaf90040"))).toEqual({ width: 426, height: 240 });
  });

  test("another OBU type is refused", () => {
    expect(() => parseAv1SequenceHeader(hex("1200"))).toThrow(SpsError);
  });
});
