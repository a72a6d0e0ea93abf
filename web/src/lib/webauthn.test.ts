import { expect, test } from "bun:test";
import { fromBase64url, toBase64url } from "./webauthn";

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
