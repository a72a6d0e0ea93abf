import type { Store } from "../../db/store.ts";
import { unauthorized } from "../../lib/errors.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";

/** A sign-in waits this long for its second factor. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong codes that end a sign-in's challenge (the password must be given again). */
export const CHALLENGE_MAX_FAILURES = 5;

export const CHALLENGE_GONE = "Your sign-in has expired. Enter your password again.";

/**
 * Sign-ins whose password was right, waiting for their second factor: kept in the database by the hash of
 * the token the browser holds, so every instance of a cluster sees the same ones; good once, for five
 * minutes and five wrong codes.
 */
export class SignInChallenges {
  constructor(private readonly store: Store) {}

  /** A sign-in whose password was right, waiting for its second factor: the token goes to the browser. */
  async open(adminId: number, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    const token = randomToken();
    await this.store.run("DELETE FROM admin_challenges WHERE expires_at <= ?", now);
    await this.store.run("INSERT INTO admin_challenges (id, admin_id, created_at, expires_at) VALUES (?, ?, ?, ?)", sha256Hex(token), adminId, now, now + CHALLENGE_TTL_MS);
    return { token, expiresAt: now + CHALLENGE_TTL_MS };
  }

  /** The account a live challenge is for; 401 when it is unknown, expired or used up. */
  async account(token: string | undefined, now = Date.now()): Promise<{ adminId: number; webauthnChallenge: string | null }> {
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
  async fail(token: string): Promise<boolean> {
    await this.store.run("UPDATE admin_challenges SET failures = failures + 1 WHERE id = ?", sha256Hex(token));
    const row = await this.store.get<{ failures: number }>("SELECT failures FROM admin_challenges WHERE id = ?", sha256Hex(token));
    if (!row || Number(row.failures) >= CHALLENGE_MAX_FAILURES) {
      await this.store.run("DELETE FROM admin_challenges WHERE id = ?", sha256Hex(token));
      return false;
    }
    return true;
  }

  /** Ends a challenge once it led to a session (it is good once); false when another request got there first. */
  async close(token: string): Promise<boolean> {
    return (await this.store.run("DELETE FROM admin_challenges WHERE id = ?", sha256Hex(token))).changes === 1;
  }

  async keepWebauthn(token: string, challenge: string): Promise<void> {
    await this.store.run("UPDATE admin_challenges SET webauthn_challenge = ? WHERE id = ?", challenge, sha256Hex(token));
  }

  /** Takes the challenge kept for a sign-in (good once). */
  async takeWebauthn(token: string): Promise<string | null> {
    const row = await this.store.get<{ webauthn_challenge: string | null }>("SELECT webauthn_challenge FROM admin_challenges WHERE id = ?", sha256Hex(token));
    if (!row?.webauthn_challenge) return null;
    const taken = await this.store.run("UPDATE admin_challenges SET webauthn_challenge = NULL WHERE id = ? AND webauthn_challenge = ?", sha256Hex(token), row.webauthn_challenge);
    return taken.changes === 1 ? row.webauthn_challenge : null;
  }

  async remove(adminId: number): Promise<void> {
    await this.store.run("DELETE FROM admin_challenges WHERE admin_id = ?", adminId);
  }
}
