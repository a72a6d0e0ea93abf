import { CODE_PREFIX } from "../../contracts/access.ts";

export type CodeKind = "SKP" | "MOD" | "SCP";

/** 32 symbols without I, O, 0 and 1, so a code read aloud or copied by hand cannot be misread. */
export const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
/** 16 symbols × 5 bits = 80 random bits per code. */
export const CODE_RANDOM_LENGTH = 16;

/**
 * `SKP-7K2M-QX9D-4HTR-WN3B`: a prefix naming the kind, then 16 random symbols in groups of four. `seed`
 * (at least 16 bytes, as random as a key's HMAC) gives the symbols in place of fresh random ones.
 */
export function generateCode(kind: CodeKind, seed?: Uint8Array): string {
  if (seed && seed.length < CODE_RANDOM_LENGTH) throw new Error(`a code's seed must be ${CODE_RANDOM_LENGTH} bytes or more`);
  const bytes = seed ? seed.subarray(0, CODE_RANDOM_LENGTH) : crypto.getRandomValues(new Uint8Array(CODE_RANDOM_LENGTH));
  // 256 is a multiple of 32, so masking keeps every symbol equally likely.
  const symbols = Array.from(bytes, (b) => CODE_ALPHABET[b & 31]).join("");
  return `${kind}-${symbols.match(/.{4}/g)!.join("-")}`;
}

/** What a viewer typed → the stored form: no surrounding or inner spaces, upper case. */
export function normaliseCode(input: string): string {
  return input.replace(/\s+/g, "").toUpperCase();
}

export function kindOfCode(code: string): CodeKind | null {
  if (code.startsWith(CODE_PREFIX.regular)) return "SKP";
  if (code.startsWith(CODE_PREFIX.moderator)) return "MOD";
  if (code.startsWith(CODE_PREFIX.test)) return "SCP";
  return null;
}

/** SCP- and MOD- codes are not held to one device: the device check lets them in first, whatever the device. */
export function isSpecialCode(code: string): boolean {
  const kind = kindOfCode(normaliseCode(code));
  return kind === "SCP" || kind === "MOD";
}
