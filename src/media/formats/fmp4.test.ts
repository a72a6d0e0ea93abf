import { describe, expect, test } from "bun:test";
import { writeFragment, writeInit } from "./fmp4.ts";

interface Box {
  type: string;
  body: Uint8Array;
}

function parse(bytes: Uint8Array): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Box[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = view.getUint32(at);
    out.push({ type: String.fromCharCode(...bytes.subarray(at + 4, at + 8)), body: bytes.subarray(at + 8, at + size) });
    at += size;
  }
  return out;
}
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const find = (boxes: Box[], type: string) => boxes.find((b) => b.type === type)!;

const avcRecord = new Uint8Array([1, 0x64, 0, 0x1f, 0xff, 0xe1, 0, 4, 0x67, 0x64, 0, 0x1f, 1, 0, 2, 0x68, 0xee]);
const asc = new Uint8Array([0x11, 0x90]);

describe("fMP4 writer", () => {
  test("the init segment holds a video and an audio track with their configs, and mvex/trex for fragments", () => {
    const init = writeInit([
      { id: 1, kind: "video", config: { codec: "h264", record: avcRecord, width: 1280, height: 720 } },
      { id: 2, kind: "audio", config: { codec: "aac", asc, sampleRate: 48000, channels: 2 } },
    ]);
    const top = parse(init);
    expect(top.map((b) => b.type)).toEqual(["ftyp", "moov"]);
    const moov = parse(find(top, "moov").body);
    expect(moov.map((b) => b.type)).toEqual(["mvhd", "trak", "trak", "mvex"]);
    expect(parse(find(moov, "mvex").body).map((b) => b.type)).toEqual(["trex", "trex"]);
    const [videoTrak, audioTrak] = moov.filter((b) => b.type === "trak").map((t) => parse(t.body));
    const mdhd = (trak: Box[]) => view(find(parse(find(trak, "mdia").body), "mdhd").body).getUint32(12);
    expect([mdhd(videoTrak!), mdhd(audioTrak!)]).toEqual([90_000, 48_000]);
    const tkhd = view(find(videoTrak!, "tkhd").body);
    expect([tkhd.getUint32(76) / 65536, tkhd.getUint32(80) / 65536]).toEqual([1280, 720]);
    // The records are stored as given.
    expect(Buffer.from(init).indexOf(Buffer.concat([Buffer.from("avcC"), avcRecord]))).toBeGreaterThan(0);
    const esds = Buffer.from(init).indexOf("esds");
    expect(
      Buffer.from(init)
        .subarray(esds)
        .indexOf(Buffer.from([0x05, 0x02, 0x11, 0x90])),
    ).toBeGreaterThan(0);
  });

  test("a fragment's trun (version 1) carries durations, sizes, sync flags and negative composition offsets, its data offsets pointing into mdat", () => {
    const frame = (fill: number, length: number) => new Uint8Array(length).fill(fill);
    const fragment = writeFragment(7, [
      {
        id: 1,
        baseDecodeTime: 2 ** 33, // past 32 bits: tfdt is version 1
        samples: [
          { duration: 3000, compositionOffset: 6000, sync: true, data: frame(1, 10) },
          { duration: 3000, compositionOffset: -3000, sync: false, data: frame(2, 20) },
        ],
      },
      { id: 2, baseDecodeTime: 1024, samples: [{ duration: 1024, compositionOffset: 0, sync: true, data: frame(3, 5) }] },
    ]);
    const top = parse(fragment);
    expect(top.map((b) => b.type)).toEqual(["moof", "mdat"]);
    const moof = parse(top[0]!.body);
    expect(view(find(moof, "mfhd").body).getUint32(4)).toBe(7);
    const trafs = moof.filter((b) => b.type === "traf").map((t) => parse(t.body));
    const tfhd = view(find(trafs[0]!, "tfhd").body);
    expect(tfhd.getUint32(0) & 0xffffff).toBe(0x020000);
    expect(view(find(trafs[0]!, "tfdt").body).getBigUint64(4)).toBe(2n ** 33n);

    const trun = view(find(trafs[0]!, "trun").body);
    expect(trun.getUint8(0)).toBe(1);
    expect(trun.getUint32(4)).toBe(2);
    const entry = (i: number) => [0, 4, 8, 12].map((o, k) => (k === 3 ? trun.getInt32(12 + i * 16 + o) : trun.getUint32(12 + i * 16 + o)));
    expect(entry(0)).toEqual([3000, 10, 0x02000000, 6000]);
    expect(entry(1)).toEqual([3000, 20, 0x01010000, -3000]);

    const offsets = trafs.map((traf) => view(find(traf, "trun").body).getInt32(8));
    expect(fragment.subarray(offsets[0]!, offsets[0]! + 10)).toEqual(frame(1, 10));
    expect(fragment.subarray(offsets[0]! + 10, offsets[0]! + 30)).toEqual(frame(2, 20));
    expect(fragment.subarray(offsets[1]!, offsets[1]! + 5)).toEqual(frame(3, 5));
    expect(offsets[1]! + 5).toBe(fragment.length);
  });
});
