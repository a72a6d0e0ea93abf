import { describe, expect, test } from "bun:test";
import { Amf0EcmaArray, Amf0Error, decodeAmf0, encodeAmf0 } from "./amf0.ts";
import { prng } from "../../../../tests/support/prng.ts";

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s/g, ""), "hex"));

describe("AMF0", () => {
  test("every type RTMP uses survives encode → decode", () => {
    const values = [
      "connect",
      1,
      { app: "live", tcUrl: "rtmp://127.0.0.1/live", fpad: false, audioCodecs: 3191, nested: { deep: [1, "two", null] } },
      null,
      undefined,
      true,
      -0.5,
      new Date(1_700_000_000_000),
      ["a", 2, false],
      "x".repeat(70_000), // a long string
    ];
    expect(decodeAmf0(encodeAmf0(values))).toEqual(values);
  });

  test("an ECMA array (as onMetaData carries it) decodes as an object", () => {
    const [meta] = decodeAmf0(encodeAmf0([new Amf0EcmaArray({ width: 640, height: 360, encoder: "Lavf59" })]));
    expect({ ...(meta as object) }).toEqual({ width: 640, height: 360, encoder: "Lavf59" });
  });

  test("the bytes FFmpeg sends for connect decode as written", () => {
    // "connect", 1, { app: "live", type: "nonprivate" }
    const bytes = hex("02 0007 636f6e6e656374 00 3ff0000000000000 03 0003 617070 02 0004 6c697665 0004 74797065 02 000a 6e6f6e70726976617465 000009");
    expect(decodeAmf0(bytes)).toEqual(["connect", 1, { app: "live", type: "nonprivate" }]);
  });

  test("a key named __proto__ is data, not a prototype", () => {
    const [object] = decodeAmf0(hex("03 0009 5f5f70726f746f5f5f 03 0001 78 00 3ff0000000000000 000009 000009"));
    expect(Object.getPrototypeOf(object)).toBeNull();
    expect(Object.keys(object as object)).toEqual(["__proto__"]);
    expect(({} as { x?: number }).x).toBeUndefined();
  });

  test.each([
    ["a truncated number", "00 3ff000"],
    ["a string longer than its message", "02 0010 6162"],
    ["an object without its end", "03 0001 61 02 0001 62"],
    ["an empty key without the end marker", "03 0000 05"],
    ["an object end on its own", "09"],
    ["a reference (type 7), never sent by publishers", "07 0001"],
    ["an unknown type", "11"],
    ["a strict array claiming more items than bytes", "0a ffffffff 05"],
    ["invalid UTF-8", "02 0002 c328"],
    ["a truncated date", "0b 0000000000000000"],
  ])("%s is an Amf0Error", (_name, bytes) => {
    expect(() => decodeAmf0(hex(bytes))).toThrow(Amf0Error);
  });

  test("nesting past 16 levels is refused (no stack exhaustion)", () => {
    const arrays = Uint8Array.from(Array.from({ length: 100 }, () => [0x0a, 0, 0, 0, 1]).flat());
    expect(() => decodeAmf0(arrays)).toThrow(Amf0Error);
  });

  test("random and mutated bytes only ever raise Amf0Error", () => {
    const valid = encodeAmf0(["publish", 5, null, "KEY", "live", { a: [1, { b: "c" }], d: new Date(0) }]);
    const random = prng(42).next;
    for (let i = 0; i < 5_000; i++) {
      const bytes = i % 2 ? valid.slice(0, Math.floor(random() * valid.length)) : valid.slice();
      for (let j = 0; j < 3; j++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      try {
        decodeAmf0(bytes);
      } catch (error) {
        expect(error).toBeInstanceOf(Amf0Error);
      }
    }
  });
});
