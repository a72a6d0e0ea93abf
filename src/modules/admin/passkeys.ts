import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isIP } from "node:net";
import { PASSKEYS_NEED_A_HOST_NAME } from "../../contracts/team.ts";
import type { Store } from "../../db/store.ts";
import { badRequest, conflict } from "../../lib/errors.ts";

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
 * Passkeys and security keys (WebAuthn) of the admin team: registered from a signed-in session, proved at
 * sign-in or for a step-up. The challenges are kept on the session (or the sign-in) that asked, good once.
 */
export class Passkeys {
  constructor(
    private readonly store: Store,
    private readonly relyingParty: () => RelyingParty,
  ) {}

  async list(adminId: number): Promise<PasskeyView[]> {
    const rows = await this.store.all<PasskeyRow>("SELECT * FROM admin_passkeys WHERE admin_id = ? ORDER BY created_at", adminId);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: new Date(Number(r.created_at)).toISOString(),
      lastUsedAt: r.last_used_at === null ? null : new Date(Number(r.last_used_at)).toISOString(),
    }));
  }

  /** Why no key can be added at this site's address (an IP address, which browsers refuse), or null. */
  unavailable(): string | null {
    return isIP(this.relyingParty().id.replace(/^\[|\]$/g, "")) ? PASSKEYS_NEED_A_HOST_NAME : null;
  }

  /** Options for adding a key to this account; the challenge is kept on the session that asked. */
  async registrationOptions(admin: { id: number; username: string }, sessionId: string) {
    const unavailable = this.unavailable();
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

  async remove(adminId: number, id: string): Promise<boolean> {
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

  async keepChallengeOnSession(sessionId: string, challenge: string): Promise<void> {
    await this.store.run("UPDATE admin_sessions SET webauthn_challenge = ? WHERE id = ?", challenge, sessionId);
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

  async removeAll(adminId: number): Promise<void> {
    await this.store.run("DELETE FROM admin_passkeys WHERE admin_id = ?", adminId);
  }
}
