import { describe, expect, test } from "bun:test";
import { usernameSchema } from "../../contracts/access.ts";
import { CODE_ALPHABET, CODE_RANDOM_LENGTH, generateCode, isSpecialCode, kindOfCode, normaliseCode } from "./codes.ts";

describe("access codes", () => {
  test("the alphabet has 32 unambiguous symbols", () => {
    expect(new Set(CODE_ALPHABET).size).toBe(32);
    for (const confusable of ["0", "O", "1", "I"]) expect(CODE_ALPHABET).not.toContain(confusable);
  });

  for (const kind of ["SKP", "MOD", "SCP"] as const) {
    test(`a ${kind} code is the prefix and 16 random symbols in groups of four`, () => {
      const code = generateCode(kind);
      expect(code).toMatch(new RegExp(`^${kind}-[${CODE_ALPHABET}]{4}(-[${CODE_ALPHABET}]{4}){3}$`));
      expect(code.replace(`${kind}-`, "").replace(/-/g, "")).toHaveLength(CODE_RANDOM_LENGTH);
      expect(kindOfCode(code)).toBe(kind);
    });
  }

  test("codes do not repeat and use every symbol (80 random bits each)", () => {
    const codes = Array.from({ length: 2000 }, () => generateCode("SKP"));
    expect(new Set(codes).size).toBe(codes.length);
    const seen = new Set(codes.join("").replace(/SKP|-/g, ""));
    expect(seen.size).toBe(32);
  });

  test("a seed gives the same code again, another seed another code; a short seed is refused", () => {
    const seed = new Uint8Array(32).map((_, i) => i * 7 + 3);
    expect(generateCode("SKP", seed)).toBe(generateCode("SKP", seed));
    expect(generateCode("SKP", seed)).toMatch(new RegExp(`^SKP-[${CODE_ALPHABET}]{4}(-[${CODE_ALPHABET}]{4}){3}$`));
    expect(
      generateCode(
        "SKP",
        seed.map((b) => b ^ 1),
      ),
    ).not.toBe(generateCode("SKP", seed));
    expect(() => generateCode("SKP", new Uint8Array(8))).toThrow("16 bytes or more");
  });

  test("typed codes are normalised: spaces removed, upper case", () => {
    expect(normaliseCode("  skp-abcd efgh ")).toBe("SKP-ABCDEFGH");
  });

  test("SCP- and MOD- codes are special, SKP- and unknown ones are not", () => {
    expect([isSpecialCode("SCP-X"), isSpecialCode("mod-x"), isSpecialCode("SKP-X"), isSpecialCode("XYZ-1")]).toEqual([true, true, false, false]);
  });
});

describe("usernames", () => {
  const cases: { input: string; ok: boolean; message?: string }[] = [
    { input: "  Raven  ", ok: true },
    { input: "ab", ok: false, message: "Username must be at least 3 characters" },
    { input: "x".repeat(21), ok: false, message: "Username must be at most 20 characters" },
    { input: "Guest", ok: false, message: "Username cannot be 'Guest'" },
    { input: "guest", ok: false, message: "Username cannot be 'Guest'" },
    { input: "ADMIN", ok: false, message: "That username is reserved. Please choose another." },
    { input: "Moderator", ok: false, message: "That username is reserved. Please choose another." },
    { input: "\u200b\u200b\u200b\u200b", ok: false, message: "Username contains characters that are not allowed" },
    { input: "bad\u0007name", ok: false, message: "Username contains characters that are not allowed" },
    { input: "\u3164\u3164\u3164", ok: false, message: "Username contains characters that are not allowed" },
    { input: "Ghoul 👻", ok: true },
  ];
  for (const c of cases) {
    test(`${JSON.stringify(c.input)} is ${c.ok ? "accepted" : `refused: ${c.message}`}`, () => {
      const parsed = usernameSchema.safeParse(c.input);
      expect(parsed.success).toBe(c.ok);
      if (parsed.success) expect(parsed.data).toBe(c.input.trim());
      else expect(parsed.error.issues[0]!.message).toBe(c.message!);
    });
  }
});
