import { describe, expect, test } from "bun:test";
import { drawRecoveryCode, RECOVERY_ALPHABET } from "./recovery-codes.ts";

/** Every byte value in turn, 0 to 255 and round again: a source under which a fair draw uses every character equally. */
function countingBytes() {
  let next = 0;
  return (count: number) => Uint8Array.from({ length: count }, () => next++ % 256);
}

describe("recovery codes", () => {
  test("every character is drawn as often as any other (no modulo bias) over every byte value", () => {
    const source = countingBytes();
    const counts = new Map<string, number>();
    // 124 codes: 1,240 characters, five rounds of the 248 byte values kept.
    for (let i = 0; i < 124; i++) for (const ch of drawRecoveryCode(source).replace("-", "")) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(RECOVERY_ALPHABET.length);
    expect(new Set(counts.values())).toEqual(new Set([40]));
  });

  test("bytes of 248 and up are drawn again, not folded onto the first characters", () => {
    const rounds = [Uint8Array.from([248, 249, 250, 251, 252, 253, 254, 255, 255, 255, 255, 255]), Uint8Array.from(Array.from({ length: 12 }, (_, i) => 30 - i))];
    const code = drawRecoveryCode(() => rounds.shift() ?? new Uint8Array(12));
    expect(code).toBe("98765-432zy");
  });

  test("with crypto's bytes: ten characters of the alphabet, a dash in the middle, different every time", () => {
    const codes = Array.from({ length: 50 }, () => drawRecoveryCode());
    for (const code of codes) expect(code).toMatch(/^[abcdefghjkmnpqrstuvwxyz23456789]{5}-[abcdefghjkmnpqrstuvwxyz23456789]{5}$/);
    expect(new Set(codes).size).toBe(50);
  });
});
