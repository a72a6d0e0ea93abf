import { describe, expect, test } from "bun:test";
import { ProxyHeaderError, ProxyHeaderReader } from "./proxy-header.ts";

const text = (s: string) => new TextEncoder().encode(s);
const v2 = (command: number, family: number, body: number[]) =>
  Uint8Array.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a, 0x20 | command, family, body.length >> 8, body.length & 0xff, ...body]);

describe("the PROXY protocol header", () => {
  test("v1 names the client, TCP4 and TCP6; the bytes after it are the client's", () => {
    const step = new ProxyHeaderReader().push(text("PROXY TCP4 203.0.113.9 192.0.2.1 51234 1935\r\n\x03rtmp"));
    expect(step).toEqual({ done: true, address: "203.0.113.9", rest: text("\x03rtmp") });
    expect(new ProxyHeaderReader().push(text("PROXY TCP6 2001:db8::7 2001:db8::1 51234 1935\r\n"))).toMatchObject({ address: "2001:db8::7" });
    expect(new ProxyHeaderReader().push(text("PROXY UNKNOWN\r\nxyz"))).toEqual({ done: true, address: null, rest: text("xyz") });
  });

  test("v1 arriving a byte at a time", () => {
    const reader = new ProxyHeaderReader();
    const line = text("PROXY TCP4 198.51.100.20 192.0.2.1 4000 1935\r\n");
    for (let i = 0; i < line.length - 1; i++) expect(reader.push(line.subarray(i, i + 1)).done).toBe(false);
    expect(reader.push(line.subarray(line.length - 1))).toEqual({ done: true, address: "198.51.100.20", rest: new Uint8Array(0) });
  });

  test("v2 names the client (TCP4, TCP6); LOCAL names none", () => {
    expect(new ProxyHeaderReader().push(Uint8Array.from([...v2(1, 0x11, [203, 0, 113, 9, 192, 0, 2, 1, 0xc8, 0x22, 0x07, 0x8f]), 3]))).toEqual({
      done: true,
      address: "203.0.113.9",
      rest: Uint8Array.of(3),
    });
    const six = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, ...Array<number>(16).fill(0), 0, 1, 0, 2];
    expect(new ProxyHeaderReader().push(v2(1, 0x21, six))).toMatchObject({ address: "2001:db8:0:0:0:0:0:7" });
    expect(new ProxyHeaderReader().push(v2(0, 0, []))).toEqual({ done: true, address: null, rest: new Uint8Array(0) });
  });

  test("no header: the stream is the client's from its first byte (an RTMP C0, a TLS ClientHello)", () => {
    expect(new ProxyHeaderReader().push(Uint8Array.of(3, 1, 2))).toEqual({ done: true, address: null, rest: Uint8Array.of(3, 1, 2) });
    expect(new ProxyHeaderReader().push(Uint8Array.of(0x16, 3, 1))).toMatchObject({ done: true, address: null });
    // "PRO" could still be a header: wait; "PROB" cannot.
    const reader = new ProxyHeaderReader();
    expect(reader.push(text("PRO")).done).toBe(false);
    expect(reader.push(text("B"))).toEqual({ done: true, address: null, rest: text("PROB") });
  });

  test("malformed headers are a ProxyHeaderError, never a crash or an endless wait", () => {
    for (const bad of ["PROXY TCP4 999.0.0.1 1.2.3.4 1 2\r\n", "PROXY TCP4 1.2.3.4 1.2.3.4 99999 2\r\n", "PROXY TCP5 1.2.3.4 1.2.3.4 1 2\r\n", "PROXY TCP4 1.2.3.4\r\n"]) {
      expect(() => new ProxyHeaderReader().push(text(bad))).toThrow(ProxyHeaderError);
    }
    expect(() => new ProxyHeaderReader().push(text(`PROXY ${"x".repeat(200)}`))).toThrow(ProxyHeaderError);
    const wrongVersion = v2(1, 0x11, []);
    wrongVersion[12] = 0x31;
    expect(() => new ProxyHeaderReader().push(wrongVersion)).toThrow(ProxyHeaderError);
  });
});
