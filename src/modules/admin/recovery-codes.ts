import { randomBytes } from "node:crypto";
import type { Store } from "../../db/store.ts";
import { sha256Hex } from "../../lib/tokens.ts";
import type { CodeCheck } from "./factor-checks.ts";

export const RECOVERY_CODE_COUNT = 10;

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

/** The ten single-use recovery codes of an account, kept only as SHA-256 hashes. */
export class RecoveryCodes {
  constructor(private readonly store: Store) {}

  /** A new set of ten; the old set stops working. Answers the codes, which are kept only as hashes. */
  async replace(adminId: number, now = Date.now()): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => drawRecoveryCode());
    const write = async () => {
      await this.store.run("DELETE FROM admin_recovery_codes WHERE admin_id = ?", adminId);
      for (const code of codes)
        await this.store.run("INSERT INTO admin_recovery_codes (admin_id, code_hash, created_at) VALUES (?, ?, ?)", adminId, sha256Hex(code.replace("-", "")), now);
    };
    if (this.store.inTransaction()) await write();
    else await this.store.tx(write);
    return codes;
  }

  /** Uses up one recovery code (normalised: lower case, no dash): "used" when it is one of the current set crossed off already. */
  async use(adminId: number, code: string, now = Date.now()): Promise<CodeCheck> {
    const hash = sha256Hex(code);
    const used = await this.store.run("UPDATE admin_recovery_codes SET used_at = ? WHERE admin_id = ? AND code_hash = ? AND used_at IS NULL", now, adminId, hash);
    if (used.changes === 1) return "ok";
    const spent = await this.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM admin_recovery_codes WHERE admin_id = ? AND code_hash = ?", adminId, hash);
    return Number(spent?.n ?? 0) > 0 ? "used" : "wrong";
  }

  async remove(adminId: number): Promise<void> {
    await this.store.run("DELETE FROM admin_recovery_codes WHERE admin_id = ?", adminId);
  }
}
