import { describe, expect, test } from "bun:test";
import { blobResponse, parseByteRange } from "./byte-range.ts";

const SIZE = 100;

describe("parseByteRange reads one range of bytes, strictly", () => {
  const cases: [header: string | null, expected: ReturnType<typeof parseByteRange>, size?: number][] = [
    // One range: as asked, clamped to the file.
    ["bytes=5-9", { start: 5, end: 9 }],
    ["bytes=0-0", { start: 0, end: 0 }],
    ["bytes=90-", { start: 90, end: 99 }],
    ["bytes=90-500", { start: 90, end: 99 }],
    ["bytes=-10", { start: 90, end: 99 }],
    ["bytes=-500", { start: 0, end: 99 }],
    ["bytes=0-99999999999999999999999", { start: 0, end: 99 }],
    // The unit compares without case; white space around the list's elements and empty elements are the list's.
    ["Bytes=5-9", { start: 5, end: 9 }],
    ["BYTES=5-9", { start: 5, end: 9 }],
    ["bytes= 5-9", { start: 5, end: 9 }],
    ["bytes=5-9 ", { start: 5, end: 9 }],
    ["bytes=5-9,", { start: 5, end: 9 }],
    ["bytes=,5-9", { start: 5, end: 9 }],
    // Nothing asked, another unit, or not the grammar: ignored (the whole file).
    [null, null],
    ["", null],
    ["xbytes=5-9", null],
    ["items=5-9", null],
    ["bytes =5-9", null],
    ["bytes 5-9", null],
    ["5-9", null],
    ["bytes=5-9 junk", null],
    ["bytes=5-9junk", null],
    ["junk bytes=5-9", null],
    ["bytes=5-9;x", null],
    ["bytes=5", null],
    ["bytes=-", null],
    ["bytes=", null],
    ["bytes=a-b", null],
    ["bytes=+5-9", null],
    ["bytes=5.0-9", null],
    ["bytes=5--9", null],
    ["bytes=--5", null],
    ["bytes=0x10-20", null],
    ["bytes=٥-٩", null],
    ["bytes=5 - 9", null],
    ["bytes=5-\t9", null],
    ["bytes=5-9\r\nX-Injected: 1", null],
    // The last before the first: invalid, so ignored.
    ["bytes=9-5", null],
    // Several ranges: answered with the whole file (no multipart), whatever they are.
    ["bytes=0-0,5-10", null],
    ["bytes=0-0, 5-10", null],
    ["bytes=5-9,5-9", null],
    ["bytes=500-600,700-800", null],
    ["bytes=-1,0-0", null],
    // Past the end: unsatisfiable (416).
    ["bytes=100-", "unsatisfiable"],
    ["bytes=100-200", "unsatisfiable"],
    ["bytes=99999999999999999999-", "unsatisfiable"],
    ["bytes=-0", "unsatisfiable"],
    ["bytes=0-", "unsatisfiable", 0],
    ["bytes=-5", "unsatisfiable", 0],
    ["bytes=0-0", { start: 0, end: 0 }, 1],
  ];
  test.each(cases)("%p → %p", (header, expected, size = SIZE) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });
});

describe("blobResponse answers a range as the parser reads it", () => {
  const blob = new Blob([Uint8Array.from({ length: SIZE }, (_, i) => i)], { type: "video/mp2t" });
  const answer = async (range: string | null) => {
    const res = blobResponse(blob, new Headers({ "content-type": "video/mp2t" }), range);
    return { status: res.status, range: res.headers.get("content-range"), bytes: [...new Uint8Array(await res.arrayBuffer())] };
  };
  const whole = Array.from({ length: SIZE }, (_, i) => i);
  const cases: [header: string | null, status: number, contentRange: string | null, bytes: number[]][] = [
    ["bytes=5-9", 206, "bytes 5-9/100", [5, 6, 7, 8, 9]],
    ["bytes=-2", 206, "bytes 98-99/100", [98, 99]],
    ["xbytes=5-9", 200, null, whole],
    ["bytes=5-9 junk", 200, null, whole],
    ["bytes=0-0,5-10", 200, null, whole],
    ["bytes=9-5", 200, null, whole],
    ["bytes=100-", 416, "bytes */100", []],
    [null, 200, null, whole],
  ];
  test.each(cases)("%p → %p %p", async (header, status, contentRange, bytes) => {
    expect(await answer(header)).toEqual({ status, range: contentRange, bytes });
  });
});
