import { randomBytes } from "node:crypto";

/** Letters and digits without look-alikes (no 0/o, 1/l/i): 31 characters. */
export const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const LENGTH = 10;
/** Bytes from here up are dropped: below it, each character stands for the same number of byte values (8 × 31 = 248). */
const FAIR_LIMIT = 256 - (256 % RECOVERY_ALPHABET.length);

/**
 * "abcde-fghjk": ten characters, each as likely as any other. A byte taken modulo 31 would favour the
 * first eight characters (nine byte values each, not eight), so bytes of 248 and up are drawn again.
 * `bytes` is the random source (crypto's by default; a fixed one in the tests).
 */
export function drawRecoveryCode(bytes: (count: number) => Uint8Array = randomBytes): string {
  let chars = "";
  while (chars.length < LENGTH) {
    // A few spare bytes a round: one in 32 is dropped, so another round is seldom needed.
    for (const b of bytes(LENGTH - chars.length + 2)) {
      if (b < FAIR_LIMIT && chars.length < LENGTH) chars += RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length];
    }
  }
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
