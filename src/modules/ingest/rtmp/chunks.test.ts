import { describe, expect, test } from "bun:test";
import { concat } from "../../../media/bytes.ts";
import { ChunkReader, ChunkWriter, control, MessageType, RtmpProtocolError, type ChunkReaderLimits, type RtmpMessage } from "./chunks.ts";
import { prng } from "../../../../tests/support/prng.ts";

const LIMITS: ChunkReaderLimits = { maxMessageBytes: 1024 * 1024, maxChunkStreams: 8, maxInFlightBytes: 2 * 1024 * 1024 };
const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s/g, ""), "hex"));

function bytes(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);
}

/** Feeds `data` in pieces cut at the given sizes (cycled). */
function feed(reader: ChunkReader, data: Uint8Array, sizes: number[]): RtmpMessage[] {
  const out: RtmpMessage[] = [];
  for (let offset = 0, i = 0; offset < data.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(...reader.push(data.subarray(offset, offset + size)));
    offset += size;
  }
  return out;
}

describe("chunk stream", () => {
  const messages: RtmpMessage[] = [
    { chunkStreamId: 3, type: MessageType.CommandAmf0, timestamp: 0, streamId: 0, payload: bytes(300, 1) },
    { chunkStreamId: 6, type: MessageType.Video, timestamp: 33, streamId: 1, payload: bytes(5000, 2) },
    { chunkStreamId: 100, type: MessageType.Audio, timestamp: 0x1000000, streamId: 0x01020304, payload: bytes(129, 3) }, // 2-byte basic header, extended timestamp
    { chunkStreamId: 40_000, type: MessageType.DataAmf0, timestamp: 7, streamId: 1, payload: new Uint8Array(0) }, // 3-byte basic header, empty
  ];

  test("messages written in chunks read back whole, however the bytes are split", () => {
    const writer = new ChunkWriter();
    const wire = concat(messages.map((m) => writer.encode(m)));
    for (const sizes of [[wire.length], [1], [2, 3, 5, 7], [17, 128, 1], [4096]]) {
      expect(feed(new ChunkReader(LIMITS), wire, sizes)).toEqual(messages);
    }
  });

  test("a Set Chunk Size read applies to the chunks after it", () => {
    const writer = new ChunkWriter();
    const first = writer.encode(control.setChunkSize(4096));
    writer.setChunkSize(4096);
    const video = writer.encode(messages[1]!);
    expect(feed(new ChunkReader(LIMITS), concat([first, video]), [3])).toEqual([control.setChunkSize(4096), messages[1]!]);
  });

  test("chunks of two chunk streams interleaved read back as two messages", () => {
    const writer = new ChunkWriter();
    const video = writer.encode(messages[1]!); // chunks of 1 + 11 + 128, then 1 + 128
    const audio = writer.encode(messages[0]!);
    // Cut each stream at its chunk boundaries: first chunk 140 bytes, then 129 per chunk.
    const cut = (wire: Uint8Array) => [
      wire.subarray(0, 140),
      ...Array.from({ length: Math.ceil((wire.length - 140) / 129) }, (_, i) => wire.subarray(140 + i * 129, 140 + (i + 1) * 129)),
    ];
    const parts: Uint8Array[] = [];
    const [v, a] = [cut(video), cut(audio)];
    for (let i = 0; i < Math.max(v.length, a.length); i++) parts.push(...(v[i] ? [v[i]!] : []), ...(a[i] ? [a[i]!] : []));
    const out = feed(new ChunkReader(LIMITS), concat(parts), [1, 1000]);
    expect(out.map((m) => m.type).sort()).toEqual([MessageType.CommandAmf0, MessageType.Video].sort());
    expect(out.find((m) => m.type === MessageType.Video)!.payload).toEqual(messages[1]!.payload);
    expect(out.find((m) => m.type === MessageType.CommandAmf0)!.payload).toEqual(messages[0]!.payload);
  });

  test("type 1, 2 and 3 headers reuse the previous header and add timestamp deltas", () => {
    const reader = new ChunkReader(LIMITS);
    const wire = hex(`
      04 000064 000002 08 01000000 aabb
      44 00000a 000001 09 cc
      84 000005 dd
      c4 ee
    `);
    expect(reader.push(wire).map((m) => [m.timestamp, m.type, m.streamId, [...m.payload]])).toEqual([
      [100, 8, 1, [0xaa, 0xbb]],
      [110, 9, 1, [0xcc]],
      [115, 9, 1, [0xdd]],
      [120, 9, 1, [0xee]], // a type-3 chunk starting a message adds the last delta again
    ]);
  });

  test("the extended timestamp is read again on type-3 continuation chunks", () => {
    const reader = new ChunkReader({ ...LIMITS });
    reader.push(hex("02 000000 000004 01 00000000 00000002")); // Set Chunk Size 2
    const wire = hex("04 ffffff 000003 08 01000000 12345678 aabb c4 12345678 cc");
    const [message] = reader.push(wire);
    expect(message!.timestamp).toBe(0x12345678);
    expect([...message!.payload]).toEqual([0xaa, 0xbb, 0xcc]);
  });

  test("Abort discards the partly received message of its chunk stream", () => {
    const reader = new ChunkReader(LIMITS);
    reader.push(hex("02 000000 000004 01 00000000 00000002"));
    expect(reader.push(hex("06 000000 000004 09 01000000 aabb"))).toEqual([]);
    const [abort] = reader.push(hex("02 000000 000004 02 00000000 0000 c2 0006")); // two chunks of 2 bytes
    expect(abort!.type).toBe(MessageType.Abort);
    const [next] = reader.push(hex("06 000001 000002 09 01000000 ccdd"));
    expect([...next!.payload]).toEqual([0xcc, 0xdd]);
  });

  test.each([
    ["a message larger than the limit", "03 000000 ffffff 14 00000000"],
    ["a first chunk without a full header", "43 000000 000001 14 00"],
    ["a chunk size of 0", "02 000000 000004 01 00000000 00000000"],
    ["a chunk size above 16 MiB", "02 000000 000004 01 00000000 01000001"],
    ["a new message header in the middle of a message", "03 000000 000200 14 00000000 " + "00".repeat(128) + "03 000000 000001 14 00000000 00"],
  ])("%s is a protocol error", (_name, wire) => {
    expect(() => new ChunkReader(LIMITS).push(hex(wire))).toThrow(RtmpProtocolError);
  });

  test("more chunk streams than allowed is a protocol error", () => {
    const reader = new ChunkReader(LIMITS);
    // The first 128-byte chunk of a 512-byte message on each chunk stream.
    const opening = (id: number) => hex(`${id.toString(16).padStart(2, "0")} 000000 000200 09 00000000 ${"00".repeat(128)}`);
    for (let id = 3; id < 3 + LIMITS.maxChunkStreams; id++) reader.push(opening(id));
    expect(() => reader.push(opening(3 + LIMITS.maxChunkStreams))).toThrow(RtmpProtocolError);
  });

  test("bytes announced by partly received messages are bounded in all", () => {
    const reader = new ChunkReader({ maxMessageBytes: 1000, maxChunkStreams: 8, maxInFlightBytes: 2500 });
    const opening = (id: string) => hex(`${id} 000000 0003e8 09 00000000 ${"00".repeat(128)}`);
    reader.push(opening("04"));
    reader.push(opening("05"));
    expect(() => reader.push(opening("06"))).toThrow(RtmpProtocolError);
  });

  test("random bytes only ever raise RtmpProtocolError", () => {
    const random = prng(7).next;
    const wire = concat(messages.map((m) => new ChunkWriter().encode(m)));
    for (let i = 0; i < 3_000; i++) {
      const mutated = wire.slice(0, 1 + Math.floor(random() * wire.length));
      for (let j = 0; j < 4; j++) mutated[Math.floor(random() * mutated.length)] = Math.floor(random() * 256);
      try {
        feed(new ChunkReader(LIMITS), mutated, [1 + Math.floor(random() * 300)]);
      } catch (error) {
        expect(error).toBeInstanceOf(RtmpProtocolError);
      }
    }
  });
});
