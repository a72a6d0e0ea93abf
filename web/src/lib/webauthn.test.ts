import { expect, test } from "bun:test";
import { fromBase64url, isIpAddress, toBase64url } from "./webauthn";

test("base64url round-trips every byte value, without padding or + and /", () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  const text = toBase64url(bytes);
  expect(text).not.toMatch(/[+/=]/);
  expect([...fromBase64url(text)]).toEqual([...bytes]);
  for (let length = 0; length < 5; length++) {
    const piece = bytes.slice(250, 250 + length);
    expect([...fromBase64url(toBase64url(piece))]).toEqual([...piece]);
  }
});

test("base64url reads what the server writes (Node's Buffer)", () => {
  const bytes = Buffer.from("admin:42 ÿ~?>", "utf8");
  expect(toBase64url(bytes)).toBe(bytes.toString("base64url"));
  expect(Buffer.from(fromBase64url(bytes.toString("base64url"))).toString("utf8")).toBe("admin:42 ÿ~?>");
});

test("an IP address is told apart from a host name (browsers refuse passkeys on the first)", () => {
  for (const host of ["127.0.0.1", "192.0.2.10", "[::1]", "[2001:db8::1]"]) expect({ host, ip: isIpAddress(host) }).toEqual({ host, ip: true });
  for (const host of ["localhost", "dread.example", "1.2.3.4.nip.io", "events-2026.example"]) expect({ host, ip: isIpAddress(host) }).toEqual({ host, ip: false });
});
