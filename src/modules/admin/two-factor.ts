import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { SecondFactorKind } from "../../contracts/team.ts";
import type { Store } from "../../db/store.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { CodeCheck } from "./factor-checks.ts";
import { Passkeys, type PasskeyView, type RelyingParty } from "./passkeys.ts";
import { RecoveryCodes } from "./recovery-codes.ts";
import { SignInChallenges } from "./sign-in-challenges.ts";
import { TotpFactor } from "./totp.ts";

export { codeRefusal, type CodeCheck } from "./factor-checks.ts";
export { type PasskeyView, type RelyingParty } from "./passkeys.ts";
export { RECOVERY_CODE_COUNT } from "./recovery-codes.ts";
export { CHALLENGE_GONE, CHALLENGE_MAX_FAILURES, CHALLENGE_TTL_MS } from "./sign-in-challenges.ts";
export { TOTP_PERIOD_S } from "./totp.ts";

/**
 * The second factors of the admin team, one file each: an authenticator app (`totp.ts`), ten single-use
 * recovery codes (`recovery-codes.ts`), passkeys and security keys (`passkeys.ts`), and the sign-in
 * challenges that wait for one (`sign-in-challenges.ts`). This is the one door the routes and the CLI use;
 * everything lives in the database, so every instance of a cluster sees the same challenges, steps and codes.
 */
export class TwoFactorService {
  private readonly recovery: RecoveryCodes;
  private readonly totp: TotpFactor;
  private readonly keys: Passkeys;
  private readonly challenges: SignInChallenges;

  constructor(
    private readonly store: Store,
    box: SecretBox,
    relyingParty: () => RelyingParty,
  ) {
    this.recovery = new RecoveryCodes(store);
    this.totp = new TotpFactor(store, box, this.recovery);
    this.keys = new Passkeys(store, relyingParty);
    this.challenges = new SignInChallenges(store);
  }

  // ---- what an account has ----

  async factorsOf(adminId: number): Promise<{ totp: boolean; webauthn: number; recoveryCodesLeft: number }> {
    // One read across the factors' tables: every sign-in asks it.
    const row = await this.store.get<{ totp: number; webauthn: number; left: number }>(
      `SELECT (SELECT COUNT(*) FROM admins WHERE id = ? AND totp_enabled_at IS NOT NULL) AS totp,
              (SELECT COUNT(*) FROM admin_passkeys WHERE admin_id = ?) AS webauthn,
              (SELECT COUNT(*) FROM admin_recovery_codes WHERE admin_id = ? AND used_at IS NULL) AS "left"`,
      adminId,
      adminId,
      adminId,
    );
    return { totp: Number(row!.totp) > 0, webauthn: Number(row!.webauthn), recoveryCodesLeft: Number(row!.left) };
  }

  async hasSecondFactor(adminId: number): Promise<boolean> {
    const f = await this.factorsOf(adminId);
    return f.totp || f.webauthn > 0;
  }

  /** The ways this account can finish a sign-in. */
  async kindsOf(adminId: number): Promise<SecondFactorKind[]> {
    const f = await this.factorsOf(adminId);
    const kinds: SecondFactorKind[] = [];
    if (f.totp) kinds.push("totp");
    if (f.webauthn > 0) kinds.push("webauthn");
    if (f.recoveryCodesLeft > 0) kinds.push("recovery");
    return kinds;
  }

  /** Turns every second factor off (the member's own choice with a code, or the CLI for a lost phone). */
  async disableAll(adminId: number): Promise<void> {
    await this.store.tx(async () => {
      await this.totp.remove(adminId);
      await this.recovery.remove(adminId);
      await this.keys.removeAll(adminId);
      await this.challenges.remove(adminId);
    });
  }

  // ---- the authenticator app ----

  setupTotp(admin: { id: number; username: string }): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
    return this.totp.setup(admin);
  }
  enableTotp(adminId: number, code: string, now = Date.now()): Promise<string[]> {
    return this.totp.enable(adminId, code, now);
  }
  verifyTotp(adminId: number, code: string, now = Date.now()): Promise<CodeCheck> {
    return this.totp.verify(adminId, code, now);
  }

  // ---- recovery codes ----

  replaceRecoveryCodes(adminId: number, now = Date.now()): Promise<string[]> {
    return this.recovery.replace(adminId, now);
  }
  useRecoveryCode(adminId: number, code: string, now = Date.now()): Promise<CodeCheck> {
    return this.recovery.use(adminId, code, now);
  }

  // ---- sign-in challenges ----

  openChallenge(adminId: number, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    return this.challenges.open(adminId, now);
  }
  challengeAccount(token: string | undefined, now = Date.now()): Promise<{ adminId: number; webauthnChallenge: string | null }> {
    return this.challenges.account(token, now);
  }
  failChallenge(token: string): Promise<boolean> {
    return this.challenges.fail(token);
  }
  closeChallenge(token: string): Promise<boolean> {
    return this.challenges.close(token);
  }
  keepChallengeOnSignIn(token: string, challenge: string): Promise<void> {
    return this.challenges.keepWebauthn(token, challenge);
  }
  takeSignInChallenge(token: string): Promise<string | null> {
    return this.challenges.takeWebauthn(token);
  }

  // ---- passkeys and security keys ----

  passkeys(adminId: number): Promise<PasskeyView[]> {
    return this.keys.list(adminId);
  }
  passkeysUnavailable(): string | null {
    return this.keys.unavailable();
  }
  registrationOptions(admin: { id: number; username: string }, sessionId: string) {
    return this.keys.registrationOptions(admin, sessionId);
  }
  register(adminId: number, sessionId: string, response: RegistrationResponseJSON, name: string | undefined, now = Date.now()): Promise<PasskeyView> {
    return this.keys.register(adminId, sessionId, response, name, now);
  }
  removePasskey(adminId: number, id: string): Promise<boolean> {
    return this.keys.remove(adminId, id);
  }
  authenticationOptions(adminId: number, keep: (challenge: string) => Promise<void>) {
    return this.keys.authenticationOptions(adminId, keep);
  }
  keepChallengeOnSession(sessionId: string, challenge: string): Promise<void> {
    return this.keys.keepChallengeOnSession(sessionId, challenge);
  }
  takeSessionChallenge(sessionId: string): Promise<string | null> {
    return this.keys.takeSessionChallenge(sessionId);
  }
  verifyAssertion(adminId: number, response: AuthenticationResponseJSON, expectedChallenge: string | null, now = Date.now()): Promise<boolean> {
    return this.keys.verifyAssertion(adminId, response, expectedChallenge, now);
  }
}
