import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";
import { isIP } from "node:net";
import { PASSKEYS_NEED_A_HOST_NAME, USED_CODE, USED_RECOVERY_CODE, WRONG_CODE, type SecondFactorKind } from "../../contracts/team.ts";
import type { Store } from "../../db/store.ts";
import { badRequest, conflict, unauthorized } from "../../lib/errors.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";
import { drawRecoveryCode } from "./recovery-codes.ts";

export const TOTP_PERIOD_S = 30;
export const RECOVERY_CODE_COUNT = 10;
/** A sign-in waits this long for its second factor. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong codes that end a sign-in's challenge (the password must be given again). */
export const CHALLENGE_MAX_FAILURES = 5;
const ISSUER = "dreadcast";

export const CHALLENGE_GONE = "Your sign-in has expired. Enter your password again.";

/** What a code given as a second factor is: right (and now used up), not this account's, or one already used. */
export type CodeCheck = "ok" | "wrong" | "used";

/** What the member is told of a code refused as `check` (an authenticator code, or a recovery code). */
export function codeRefusal(check: Exclude<CodeCheck, "ok">, kind: "totp" | "recovery"): string {
  if (check === "wrong") return WRONG_CODE;
  return kind === "totp" ? USED_CODE : USED_RECOVERY_CODE;
}

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });
}

/** The WebAuthn relying party: this site's host and origin (the address in --public-url, else where it listens). */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

interface PasskeyRow {
  id: string;
  admin_id: number;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The second factors of the admin team: TOTP (RFC 6238: SHA-1, six digits, 30 s, one step either side;
 * a time step is never accepted twice), ten single-use recovery codes (kept as SHA-256 hashes), passkeys
 * and security keys (WebAuthn), and the sign-in challenges that wait for one. Everything lives in the
 * database, so every instance of a cluster sees the same challenges, steps and codes.
 */
export class TwoFactorService {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    private readonly relyingParty: () => RelyingParty,
  ) {}

  // ---- what an account has ----

  async factorsOf(adminId: number): Promise<{ totp: boolean; webauthn: number; recoveryCodesLeft: number }> {
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

  // ---- TOTP ----

  /** A new secret, not yet in force: it replaces any pending one; `enableTotp` with a right code turns it on. */
  async setupTotp(admin: { id: number; username: string }): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
    if ((await this.factorsOf(admin.id)).totp) throw conflict("Two-factor sign-in with an app is already on");
    const secret = new Secret({ size: 20 }).base32;
    await this.store.run("UPDATE admins SET totp_secret = ? WHERE id = ? AND totp_enabled_at IS NULL", this.box.seal(secret, `totp:${admin.id}`), admin.id);
    const otpauthUrl = totpFor(secret, admin.username).toString();
    return { secret, otpauthUrl, qrSvg: renderSVG(otpauthUrl, { border: 2 }) };
  }

  /** Turns on the pending secret when `code` is right for it; answers the recovery codes (shown once). */
  async enableTotp(adminId: number, code: string, now = Date.now()): Promise<string[]> {
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
      return this.replaceRecoveryCodes(adminId, now);
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
  async verifyTotp(adminId: number, code: string, now = Date.now()): Promise<CodeCheck> {
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

  /** Turns every second factor off (the member's own choice with a code, or the CLI for a lost phone). */
  async disableAll(adminId: number): Promise<void> {
    await this.store.tx(async () => {
      await this.store.run("UPDATE admins SET totp_secret = NULL, totp_enabled_at = NULL WHERE id = ?", adminId);
      await this.store.run("DELETE FROM admin_recovery_codes WHERE admin_id = ?", adminId);
      await this.store.run("DELETE FROM admin_passkeys WHERE admin_id = ?", adminId);
      await this.store.run("DELETE FROM admin_challenges WHERE admin_id = ?", adminId);
    });
  }

  // ---- recovery codes ----

  /** A new set of ten; the old set stops working. Answers the codes, which are kept only as hashes. */
  async replaceRecoveryCodes(adminId: number, now = Date.now()): Promise<string[]> {
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
  async useRecoveryCode(adminId: number, code: string, now = Date.now()): Promise<CodeCheck> {
    const hash = sha256Hex(code);
    const used = await this.store.run("UPDATE admin_recovery_codes SET used_at = ? WHERE admin_id = ? AND code_hash = ? AND used_at IS NULL", now, adminId, hash);
    if (used.changes === 1) return "ok";
    const spent = await this.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM admin_recovery_codes WHERE admin_id = ? AND code_hash = ?", adminId, hash);
    return Number(spent?.n ?? 0) > 0 ? "used" : "wrong";
  }

  // ---- sign-in challenges ----

  /** A sign-in whose password was right, waiting for its second factor: the token goes to the browser. */
  async openChallenge(adminId: number, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    const token = randomToken();
    await this.store.run("DELETE FROM admin_challenges WHERE expires_at <= ?", now);
    await this.store.run("INSERT INTO admin_challenges (id, admin_id, created_at, expires_at) VALUES (?, ?, ?, ?)", sha256Hex(token), adminId, now, now + CHALLENGE_TTL_MS);
    return { token, expiresAt: now + CHALLENGE_TTL_MS };
  }

  /** The account a live challenge is for; 401 when it is unknown, expired or used up. */
  async challengeAccount(token: string | undefined, now = Date.now()): Promise<{ adminId: number; webauthnChallenge: string | null }> {
    if (!token || !/^[0-9a-f]{64}$/.test(token)) throw unauthorized(CHALLENGE_GONE);
    const row = await this.store.get<{ admin_id: number; webauthn_challenge: string | null; failures: number }>(
      "SELECT admin_id, webauthn_challenge, failures FROM admin_challenges WHERE id = ? AND expires_at > ?",
      sha256Hex(token),
      now,
    );
    if (!row || Number(row.failures) >= CHALLENGE_MAX_FAILURES) throw unauthorized(CHALLENGE_GONE);
    return { adminId: Number(row.admin_id), webauthnChallenge: row.webauthn_challenge };
  }

  /** Counts a wrong code; the fifth ends the challenge. Answers whether it is still open. */
  async failChallenge(token: string): Promise<boolean> {
    await this.store.run("UPDATE admin_challenges SET failures = failures + 1 WHERE id = ?", sha256Hex(token));
    const row = await this.store.get<{ failures: number }>("SELECT failures FROM admin_challenges WHERE id = ?", sha256Hex(token));
    if (!row || Number(row.failures) >= CHALLENGE_MAX_FAILURES) {
      await this.store.run("DELETE FROM admin_challenges WHERE id = ?", sha256Hex(token));
      return false;
    }
    return true;
  }

  /** Ends a challenge once it led to a session (it is good once); false when another request got there first. */
  async closeChallenge(token: string): Promise<boolean> {
    return (await this.store.run("DELETE FROM admin_challenges WHERE id = ?", sha256Hex(token))).changes === 1;
  }

  // ---- passkeys and security keys (WebAuthn) ----

  async passkeys(adminId: number): Promise<PasskeyView[]> {
    const rows = await this.store.all<PasskeyRow>("SELECT * FROM admin_passkeys WHERE admin_id = ? ORDER BY created_at", adminId);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: new Date(Number(r.created_at)).toISOString(),
      lastUsedAt: r.last_used_at === null ? null : new Date(Number(r.last_used_at)).toISOString(),
    }));
  }

  /** Why no key can be added at this site's address (an IP address, which browsers refuse), or null. */
  passkeysUnavailable(): string | null {
    return isIP(this.relyingParty().id.replace(/^\[|\]$/g, "")) ? PASSKEYS_NEED_A_HOST_NAME : null;
  }

  /** Options for adding a key to this account; the challenge is kept on the session that asked. */
  async registrationOptions(admin: { id: number; username: string }, sessionId: string) {
    const unavailable = this.passkeysUnavailable();
    if (unavailable) throw conflict(unavailable);
    const rp = this.relyingParty();
    const existing = await this.store.all<PasskeyRow>("SELECT * FROM admin_passkeys WHERE admin_id = ?", admin.id);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: admin.username,
      userID: new TextEncoder().encode(`admin:${admin.id}`),
      attestationType: "none",
      excludeCredentials: existing.map((c) => ({ id: c.id, transports: JSON.parse(c.transports) as AuthenticatorTransport[] })),
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    });
    await this.store.run("UPDATE admin_sessions SET webauthn_challenge = ? WHERE id = ?", options.challenge, sessionId);
    return options;
  }

  /** Checks the browser's answer to `registrationOptions` (once: the challenge is taken) and keeps the key. */
  async register(adminId: number, sessionId: string, response: RegistrationResponseJSON, name: string | undefined, now = Date.now()): Promise<PasskeyView> {
    const row = await this.store.get<{ webauthn_challenge: string | null }>("SELECT webauthn_challenge FROM admin_sessions WHERE id = ?", sessionId);
    const expectedChallenge = row?.webauthn_challenge;
    if (!expectedChallenge) throw badRequest("Start adding the key again");
    const taken = await this.store.run("UPDATE admin_sessions SET webauthn_challenge = NULL WHERE id = ? AND webauthn_challenge = ?", sessionId, expectedChallenge);
    if (taken.changes !== 1) throw badRequest("Start adding the key again");
    const rp = this.relyingParty();
    let verification;
    try {
      verification = await verifyRegistrationResponse({ response, expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false });
    } catch (error) {
      throw badRequest(`The key could not be added: ${(error as Error).message}`);
    }
    if (!verification.verified || !verification.registrationInfo) throw badRequest("The key could not be added");
    const { credential } = verification.registrationInfo;
    const label = name?.trim() || "Security key";
    try {
      await this.store.run(
        "INSERT INTO admin_passkeys (id, admin_id, public_key, counter, transports, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        credential.id,
        adminId,
        Buffer.from(credential.publicKey).toString("base64url"),
        credential.counter,
        JSON.stringify(credential.transports ?? []),
        label,
        now,
      );
    } catch (error) {
      if (this.store.isUniqueViolation(error)) throw conflict("This key is already registered");
      throw error;
    }
    return { id: credential.id, name: label, createdAt: new Date(now).toISOString(), lastUsedAt: null };
  }

  async removePasskey(adminId: number, id: string): Promise<boolean> {
    return (await this.store.run("DELETE FROM admin_passkeys WHERE admin_id = ? AND id = ?", adminId, id)).changes === 1;
  }

  /** Options for proving a sign-in (or a step-up) with one of this account's keys; the challenge is kept where `keep` puts it. */
  async authenticationOptions(adminId: number, keep: (challenge: string) => Promise<void>) {
    const rp = this.relyingParty();
    const keys = await this.store.all<PasskeyRow>("SELECT * FROM admin_passkeys WHERE admin_id = ?", adminId);
    if (keys.length === 0) throw badRequest("No security key is registered for this account");
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: keys.map((k) => ({ id: k.id, transports: JSON.parse(k.transports) as AuthenticatorTransport[] })),
      userVerification: "preferred",
    });
    await keep(options.challenge);
    return options;
  }

  async keepChallengeOnSignIn(token: string, challenge: string): Promise<void> {
    await this.store.run("UPDATE admin_challenges SET webauthn_challenge = ? WHERE id = ?", challenge, sha256Hex(token));
  }

  async keepChallengeOnSession(sessionId: string, challenge: string): Promise<void> {
    await this.store.run("UPDATE admin_sessions SET webauthn_challenge = ? WHERE id = ?", challenge, sessionId);
  }

  /** Takes the challenge kept for a sign-in (good once). */
  async takeSignInChallenge(token: string): Promise<string | null> {
    const row = await this.store.get<{ webauthn_challenge: string | null }>("SELECT webauthn_challenge FROM admin_challenges WHERE id = ?", sha256Hex(token));
    if (!row?.webauthn_challenge) return null;
    const taken = await this.store.run("UPDATE admin_challenges SET webauthn_challenge = NULL WHERE id = ? AND webauthn_challenge = ?", sha256Hex(token), row.webauthn_challenge);
    return taken.changes === 1 ? row.webauthn_challenge : null;
  }

  /** Takes the challenge kept for a step-up on this session (good once). */
  async takeSessionChallenge(sessionId: string): Promise<string | null> {
    const row = await this.store.get<{ webauthn_challenge: string | null }>("SELECT webauthn_challenge FROM admin_sessions WHERE id = ?", sessionId);
    if (!row?.webauthn_challenge) return null;
    const taken = await this.store.run("UPDATE admin_sessions SET webauthn_challenge = NULL WHERE id = ? AND webauthn_challenge = ?", sessionId, row.webauthn_challenge);
    return taken.changes === 1 ? row.webauthn_challenge : null;
  }

  /** Whether `response` proves this account holds one of its keys, answering `expectedChallenge` for this site. */
  async verifyAssertion(adminId: number, response: AuthenticationResponseJSON, expectedChallenge: string | null, now = Date.now()): Promise<boolean> {
    if (!expectedChallenge) return false;
    // Only this account's own keys count: another member's key is not found here.
    const key = await this.store.get<PasskeyRow>("SELECT * FROM admin_passkeys WHERE admin_id = ? AND id = ?", adminId, response.id);
    if (!key) return false;
    const rp = this.relyingParty();
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: key.id,
          publicKey: Buffer.from(key.public_key, "base64url"),
          counter: Number(key.counter),
          transports: JSON.parse(key.transports) as AuthenticatorTransport[],
        },
        requireUserVerification: false,
      });
      if (!result.verified) return false;
      await this.store.run("UPDATE admin_passkeys SET counter = ?, last_used_at = ? WHERE id = ?", result.authenticationInfo.newCounter, now, key.id);
      return true;
    } catch {
      return false;
    }
  }
}
