import { describe, expect, test } from "bun:test";
import { FlvDemuxer, FlvError, parseAudioSpecificConfig } from "./flv.ts";

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s/g, ""), "hex"));
const SPS_640x360 = "6742c01eda0280bfe5c044000003000400000300f03c58ba80";
const HEVC_SPS_426x240 = "42010101600000030090000003000003003ca00d880f1c9e5959a4932bc05a020000030002000003003c10";
const avcC = hex(`01 42c01e ff e1 0019 ${SPS_640x360} 01 0004 68ce3c80`);
const hvcC = hex(`01 01 60000000 900000000000 3c f000 fc fd f8 f8 0000 0f 01 a1 0001 002b ${HEVC_SPS_426x240}`);
const av1C = hex("81 04 0c 00 0a0b000000043ea7bcdaf90040");

describe("FLV video", () => {
  test("an AVC sequence header gives the record and the SPS's size; a NALU the pts from its composition time", () => {
    const demuxer = new FlvDemuxer();
    expect(demuxer.video(hex(`17 00 000000 ${Buffer.from(avcC).toString("hex")}`), 0)).toEqual({
      kind: "config",
      config: { codec: "h264", record: avcC, width: 640, height: 360 },
    });
    expect(demuxer.video(hex("17 01 000042 00000002 6588"), 1000)).toEqual({ kind: "frame", frame: { dts: 1000, pts: 1066, keyframe: true, data: hex("00000002 6588") } });
    expect(demuxer.video(hex("27 01 ffffdf 00000002 4188"), 1033)).toMatchObject({ frame: { dts: 1033, pts: 1000, keyframe: false } }); // -33
  });

  test("Enhanced RTMP hvc1: SequenceStart, CodedFrames with a composition time, CodedFramesX without", () => {
    const demuxer = new FlvDemuxer();
    expect(demuxer.video(concat(hex("90 68766331"), hvcC), 0)).toMatchObject({ kind: "config", config: { codec: "hevc", width: 426, height: 240 } });
    expect(demuxer.video(hex("91 68766331 000021 00000003 260101"), 40)).toMatchObject({ frame: { dts: 40, pts: 73, keyframe: true } });
    expect(demuxer.video(hex("a3 68766331 00000003 020101"), 80)).toMatchObject({ frame: { dts: 80, pts: 80, keyframe: false } });
  });

  test("Enhanced RTMP av01: the av1C record and OBUs passed through", () => {
    const demuxer = new FlvDemuxer();
    expect(demuxer.video(concat(hex("90 61763031"), av1C), 0)).toMatchObject({ kind: "config", config: { codec: "av1", width: 426, height: 240 } });
    expect(demuxer.video(hex("91 61763031 1200 3203aabbcc"), 0)).toMatchObject({ frame: { pts: 0, keyframe: true, data: hex("1200 3203aabbcc") } });
  });

  test.each([
    ["On2 VP6", "14 00"],
    ["Sorenson H.263", "22 00"],
    ["'vp09'", "90 76703039 00"],
  ])("%s is refused as an unsupported codec, named", (name, tag) => {
    const result = new FlvDemuxer().video(hex(tag), 0);
    expect(result.kind).toBe("unsupported");
    expect(result.kind === "unsupported" && result.reason).toContain(name);
  });

  test.each([
    ["an empty tag", ""],
    ["an AVC tag shorter than its header", "17 01"],
    ["a frame before its sequence header", "17 01 000000 00000001 65"],
    ["a record of the wrong version", "17 00 000000 02 42c01e ff e1 0000"],
  ])("%s is an FlvError", (_name, tag) => {
    expect(() => new FlvDemuxer().video(hex(tag), 0)).toThrow(FlvError);
  });

  test("a NAL unit length running past its frame is an FlvError", () => {
    const demuxer = new FlvDemuxer();
    demuxer.video(concat(hex("17 00 000000"), avcC), 0);
    expect(() => demuxer.video(hex("17 01 000000 00000009 6588"), 0)).toThrow(FlvError);
  });
});

describe("FLV audio", () => {
  test("an AAC sequence header gives sample rate and channels; raw frames follow", () => {
    const demuxer = new FlvDemuxer();
    expect(demuxer.audio(hex("af 00 1190"), 0)).toEqual({ kind: "config", config: { codec: "aac", asc: hex("1190"), sampleRate: 48000, channels: 2 } });
    expect(demuxer.audio(hex("af 01 211b"), 21)).toEqual({ kind: "frame", frame: { dts: 21, data: hex("211b") } });
  });

  test("AudioSpecificConfig: 44.1 kHz mono, an explicit 24-bit rate, an escaped object type", () => {
    expect(parseAudioSpecificConfig(hex("1208"))).toEqual({ sampleRate: 44100, channels: 1 });
    expect(parseAudioSpecificConfig(hex("17 80 01 f4 10"))).toEqual({ sampleRate: 1000, channels: 2 });
    expect(parseAudioSpecificConfig(hex("f9 46 20"))).toEqual({ sampleRate: 48000, channels: 1 }); // object type 42 (USAC)
    expect(() => parseAudioSpecificConfig(hex("16 88"))).toThrow(FlvError); // reserved frequency index 13
  });

  test("MP3 and Opus are refused as unsupported codecs, named", () => {
    const mp3 = new FlvDemuxer().audio(hex("2f ff"), 0);
    expect(mp3.kind === "unsupported" && mp3.reason).toContain("MP3");
    const opus = new FlvDemuxer().audio(hex("90 4f707573"), 0);
    expect(opus.kind === "unsupported" && opus.reason).toContain("'Opus'");
  });
});

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
