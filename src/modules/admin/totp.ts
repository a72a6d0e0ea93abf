import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";
import { WRONG_CODE } from "../../contracts/team.ts";
import type { Store } from "../../db/store.ts";
import { badRequest, conflict } from "../../lib/errors.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { CodeCheck } from "./factor-checks.ts";
import type { RecoveryCodes } from "./recovery-codes.ts";

export const TOTP_PERIOD_S = 30;
const ISSUER = "dreadcast";

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });
}

/**
 * An authenticator app (TOTP, RFC 6238: SHA-1, six digits, 30 s, one step either side). The secret is kept
 * sealed in the admin's row; a time step is never accepted twice, by one conditional update.
 */
export class TotpFactor {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    private readonly recovery: RecoveryCodes,
  ) {}

  async isOn(adminId: number): Promise<boolean> {
    return (await this.store.get("SELECT 1 AS on_ FROM admins WHERE id = ? AND totp_enabled_at IS NOT NULL", adminId)) !== null;
  }

  /** A new secret, not yet in force: it replaces any pending one; `enableTotp` with a right code turns it on. */
  async setup(admin: { id: number; username: string }): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
    if (await this.isOn(admin.id)) throw conflict("Two-factor sign-in with an app is already on");
    const secret = new Secret({ size: 20 }).base32;
    await this.store.run("UPDATE admins SET totp_secret = ? WHERE id = ? AND totp_enabled_at IS NULL", this.box.seal(secret, `totp:${admin.id}`), admin.id);
    const otpauthUrl = totpFor(secret, admin.username).toString();
    return { secret, otpauthUrl, qrSvg: renderSVG(otpauthUrl, { border: 2 }) };
  }

  /** Turns on the pending secret when `code` is right for it; answers the recovery codes (shown once). */
  async enable(adminId: number, code: string, now = Date.now()): Promise<string[]> {
    const row = await this.store.get<{ totp_secret: string | null; totp_enabled_at: number | null; username: string }>(
      "SELECT totp_secret, totp_enabled_at, username FROM admins WHERE id = ?",
      adminId,
    );
    if (!row?.totp_secret) throw badRequest("Start the set-up first");
    if (row.totp_enabled_at !== null) throw conflict("Two-factor sign-in with an app is already on");
    const step = this.matchingStep(row.totp_secret, adminId, row.username, code, now);
    if (step === null) throw badRequest(WRONG_CODE);
    return this.store.tx(async () => {
      const changed = await this.store.run(
        "UPDATE admins SET totp_enabled_at = ?, totp_last_step = ? WHERE id = ? AND totp_enabled_at IS NULL AND totp_last_step < ?",
        now,
        step,
        adminId,
        step,
      );
      if (changed.changes !== 1) throw badRequest(WRONG_CODE);
      return this.recovery.replace(adminId, now);
    });
  }

  /** The time step `code` is right for (±1 step), or null; null too when the sealed secret does not open (moved from another row). */
  private matchingStep(sealed: string, adminId: number, username: string, code: string, now: number): number | null {
    if (!/^[0-9]{6}$/.test(code)) return null;
    const secret = this.box.open(sealed, `totp:${adminId}`);
    if (secret === null) return null;
    const delta = totpFor(secret, username).validate({ token: code, timestamp: now, window: 1 });
    if (delta === null) return null;
    return Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
  }

  /**
   * Whether `code` is this account's current code, used for the first time: the step it belongs to must be
   * later than the last one accepted, and taking it is one conditional update, so of two requests racing
   * with the same code exactly one succeeds.
   */
  async verify(adminId: number, code: string, now = Date.now()): Promise<CodeCheck> {
    const row = await this.store.get<{ totp_secret: string | null; totp_enabled_at: number | null; username: string }>(
      "SELECT totp_secret, totp_enabled_at, username FROM admins WHERE id = ?",
      adminId,
    );
    if (!row?.totp_secret || row.totp_enabled_at === null) return "wrong";
    const step = this.matchingStep(row.totp_secret, adminId, row.username, code, now);
    if (step === null) return "wrong";
    const taken = await this.store.run("UPDATE admins SET totp_last_step = ? WHERE id = ? AND totp_last_step < ?", step, adminId, step);
    // Right for its time, but a code of this step or a later one was taken first: a replay (or the race's loser).
    return taken.changes === 1 ? "ok" : "used";
  }

  /** Turns the app off (within the caller's transaction, with the other factors). */
  async remove(adminId: number): Promise<void> {
    await this.store.run("UPDATE admins SET totp_secret = NULL, totp_enabled_at = NULL WHERE id = ?", adminId);
  }
}
