import { ACCESS_MESSAGES, FORCED_ACCESS_CODE, RESERVED_USERNAMES, type DeviceFingerprint } from "../../contracts/access.ts";
import { testCodesEnabled, type Config } from "../../config.ts";
import type { Store } from "../../db/store.ts";
import { notFound } from "../../lib/errors.ts";
import type { MailService } from "../mail/service.ts";
import { generateCode, normaliseCode, type CodeKind } from "./codes.ts";
import { checkDeviceFingerprint } from "./fingerprint.ts";
import { nameSkeleton } from "./name-skeleton.ts";
import type { ViewerSessionService } from "./sessions.ts";

export interface AccessCodeRecord {
  id: number;
  code: string;
  kind: CodeKind;
  used: boolean;
  revoked: boolean;
  email: string | null;
  paymentId: number | null;
  createdAt: number;
}

interface CodeRow {
  id: number;
  code: string;
  kind: CodeKind;
  used: number;
  revoked: number;
  email: string | null;
  device_fingerprint: string | null;
  payment_id: number | null;
  created_at: number;
}

export interface AdmitRequest {
  accessCode: string;
  username: string;
  email?: string;
  /** Absent only on the special-access call, whose codes skip the device rule anyway. */
  deviceFingerprint?: DeviceFingerprint;
  /** The caller's current viewer session cookie, kept when it is the same viewer. */
  currentSessionId?: string;
  /** Refuse codes of other kinds (verify-special-access). */
  onlyKinds?: CodeKind[];
  /** The site address put in the code e-mail. */
  siteUrl: string;
}

export type AccessRefusal = "invalid-code" | "wrong-kind" | "banned" | "wrong-device" | "username-taken" | "username-reserved";

export type AdmitOutcome =
  { valid: true; message: string; sessionId: string; userId: number; username: string; code: AccessCodeRecord } | { valid: false; message: string; reason: AccessRefusal };

type Refusal = { valid: false; message: string; reason: AccessRefusal };

const refuse = (reason: AccessRefusal): Refusal => ({
  valid: false,
  reason,
  message: {
    "invalid-code": ACCESS_MESSAGES.invalidCode,
    "wrong-kind": ACCESS_MESSAGES.specialNotVerified,
    banned: ACCESS_MESSAGES.banned,
    "wrong-device": ACCESS_MESSAGES.wrongDevice,
    "username-taken": ACCESS_MESSAGES.usernameTaken,
    "username-reserved": ACCESS_MESSAGES.usernameReserved,
  }[reason],
});

/** The reserved names and 'Guest' as skeletons: their look-alikes are reserved too. */
const RESERVED_SKELETONS = new Set([...RESERVED_USERNAMES, "guest"].map(nameSkeleton));

function toRecord(row: CodeRow): AccessCodeRecord {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    used: row.used === 1,
    revoked: row.revoked === 1,
    email: row.email,
    paymentId: row.payment_id,
    createdAt: row.created_at,
  };
}

/** Access codes and letting viewers in with them: the code, bans, the one-device rule and usernames. */
export class AccessService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly sessions: ViewerSessionService,
    private readonly mail: MailService,
  ) {}

  /**
   * A new code of `kind`, random unless `seed` gives its symbols (a paid pass's, derived from its payment);
   * inside the caller's transaction when there is one (payment fulfilment).
   */
  async issueAccessCode(kind: CodeKind, options: { email?: string | null; paymentId?: number | null; seed?: Uint8Array } = {}): Promise<AccessCodeRecord> {
    const row = await this.store.get<CodeRow>(
      "INSERT INTO access_codes (code, kind, email, payment_id, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *",
      generateCode(kind, options.seed),
      kind,
      options.email ?? null,
      options.paymentId ?? null,
      Date.now(),
    );
    return toRecord(row!);
  }

  /** An SCP- test code; unknown (404) unless test codes are enabled. */
  async issueTestCode(): Promise<AccessCodeRecord> {
    if (!testCodesEnabled(this.config)) throw notFound();
    return this.issueAccessCode("SCP");
  }

  async findCode(code: string): Promise<AccessCodeRecord | null> {
    const row = await this.findRow(normaliseCode(code));
    return row ? toRecord(row) : null;
  }

  async codeForPayment(paymentId: number): Promise<AccessCodeRecord | null> {
    const row = await this.store.get<CodeRow>("SELECT * FROM access_codes WHERE payment_id = ?", paymentId);
    return row ? toRecord(row) : null;
  }

  /**
   * Revokes a code and ends every viewer session made with it; returns the usernames that held one.
   * Part of the caller's transaction (an admin's revoke, a refund or dispute).
   */
  async revoke(id: number): Promise<string[]> {
    await this.store.run("UPDATE access_codes SET revoked = 1 WHERE id = ?", id);
    const rows = await this.store.all<{ username: string }>("SELECT DISTINCT u.username FROM viewer_sessions s JOIN users u ON u.id = s.user_id WHERE s.access_code_id = ?", id);
    await this.sessions.endAllForCode(id);
    return rows.map((r) => r.username);
  }

  /** Lets a revoked code work again (part of the caller's transaction, which has checked that nothing keeps it revoked). */
  async unrevoke(id: number): Promise<void> {
    await this.store.run("UPDATE access_codes SET revoked = 0 WHERE id = ?", id);
  }

  /** Remembers the address a code was sent to. */
  async setEmail(id: number, email: string): Promise<void> {
    await this.store.run("UPDATE access_codes SET email = ? WHERE id = ?", email, id);
  }

  /** Forgets the device a code is bound to and ends the sessions made with it: the next device to enter it binds. */
  async unbindDevice(id: number): Promise<void> {
    await this.store.tx(async () => {
      await this.store.run("UPDATE access_codes SET device_fingerprint = NULL WHERE id = ?", id);
      await this.sessions.endAllForCode(id);
    });
  }

  /** Read-only check of a code and username, without a device (verify-access, verify-special-access's kind rule). */
  async check(accessCode: string, username: string, onlyKinds?: CodeKind[]): Promise<{ valid: true } | Refusal> {
    const code = await this.usableCode(accessCode, false);
    if (!code) return refuse("invalid-code");
    if (onlyKinds && !onlyKinds.includes(code.kind)) return refuse("wrong-kind");
    if (await this.sessions.isBanned(username, code.id)) return refuse("banned");
    const taken = await this.usernameRefusal(username, code.id);
    if (taken) return taken;
    return { valid: true };
  }

  /**
   * Lets a viewer in: the code must be live, neither name nor code banned, the device allowed by the
   * one-device check (checkDeviceFingerprint) and the username free. Marks the code used, records the
   * user and opens a viewer session, all in one transaction (a name taken meanwhile by another viewer is
   * refused, not a 500).
   */
  async admit(request: AdmitRequest): Promise<AdmitOutcome> {
    try {
      return await this.store.tx(() => this.admitInTransaction(request));
    } catch (error) {
      if (this.store.isUniqueViolation(error)) return refuse("username-taken");
      throw error;
    }
  }

  private async admitInTransaction(request: AdmitRequest): Promise<AdmitOutcome> {
    const code = await this.usableCode(request.accessCode, true, true);
    if (!code) return refuse("invalid-code");
    if (request.onlyKinds && !request.onlyKinds.includes(code.kind)) return refuse("wrong-kind");
    if (await this.sessions.isBanned(request.username, code.id)) return refuse("banned");
    const device = checkDeviceFingerprint(code.device_fingerprint, request.deviceFingerprint, code.code);
    if (!device.allowed) return refuse("wrong-device");
    const taken = await this.usernameRefusal(request.username, code.id);
    if (taken) return taken;
    const owner = await this.userByName(request.username);
    // A new name renames the code's viewer: only from the code's own device (its token), never a second one.
    if (!device.ownDevice && !owner && code.kind !== "SCP" && (await this.store.get("SELECT 1 AS one FROM users WHERE access_code_id = ?", code.id)) !== null) {
      return refuse("wrong-device");
    }

    if (device.update) await this.store.run("UPDATE access_codes SET device_fingerprint = ? WHERE id = ?", JSON.stringify(device.update), code.id);
    const userId = await this.upsertUser(code, request.username, request.email, owner?.id);
    const newEmail = !code.email && request.email && code.kind !== "SCP" ? request.email : null;
    await this.store.run("UPDATE access_codes SET used = 1, email = COALESCE(email, ?) WHERE id = ?", newEmail, code.id);
    if (newEmail) await this.mail.queueAccessCode(code.id, code.code, newEmail, request.siteUrl);
    const sessionId = await this.sessions.open(request.currentSessionId, userId, code.id);
    const fresh = (await this.findRow(code.code))!;
    return { valid: true, message: ACCESS_MESSAGES.granted, sessionId, userId, username: request.username, code: toRecord(fresh) };
  }

  /** Codes bought with (or registered to) an address, for the lost-code e-mail. */
  async codesForEmail(email: string): Promise<string[]> {
    const rows = await this.store.all<{ code: string }>(
      `SELECT DISTINCT c.code, c.created_at FROM access_codes c
       LEFT JOIN payments p ON p.id = c.payment_id
       LEFT JOIN users u ON u.access_code_id = c.id
       WHERE c.revoked = 0 AND c.kind IN ('SKP', 'MOD')
         AND (lower(c.email) = lower(?1) OR lower(p.email) = lower(?1) OR lower(u.email) = lower(?1))
       ORDER BY c.created_at`,
      email,
    );
    return rows.map((r) => r.code);
  }

  /** Queues one e-mail listing the address's codes, if it has any. The caller answers the same either way. */
  async sendLostCodes(email: string, siteUrl: string): Promise<void> {
    const codes = await this.codesForEmail(email);
    if (codes.length > 0) await this.mail.queueLostCodes(codes, email, siteUrl);
  }

  /**
   * The code if it can let someone in now. Creates the fixed forced-access test code on first use where test
   * codes are on. `forUpdate` locks the code's row on PostgreSQL, so two admissions with one code queue.
   */
  private async usableCode(input: string, createForced: boolean, forUpdate = false): Promise<CodeRow | null> {
    const code = normaliseCode(input);
    const testCodes = testCodesEnabled(this.config);
    if (createForced && testCodes && code === FORCED_ACCESS_CODE) {
      await this.store.run("INSERT INTO access_codes (code, kind, created_at) VALUES (?, 'SCP', ?) ON CONFLICT (code) DO NOTHING", code, Date.now());
    }
    const row = await this.findRow(code, forUpdate);
    if (!row || row.revoked === 1) return null;
    if (row.kind === "SCP" && !testCodes) return null;
    return row;
  }

  private findRow(code: string, forUpdate = false): Promise<CodeRow | null> {
    return this.store.get<CodeRow>(
      forUpdate && this.store.engine === "postgres" ? "SELECT * FROM access_codes WHERE code = ? FOR UPDATE" : "SELECT * FROM access_codes WHERE code = ?",
      code,
    );
  }

  /**
   * A name held by another code's viewer is not free, nor one that looks like it (the same skeleton: `bоss`
   * with a Cyrillic о is `boss`). A name that looks like a reserved name, an admin's (admins chat under
   * theirs) or a moderator's is reserved: nobody may pose as the staff.
   */
  private async usernameRefusal(username: string, codeId: number): Promise<Refusal | null> {
    const key = nameSkeleton(username);
    if (RESERVED_SKELETONS.has(key)) return refuse("username-reserved");
    const owner = await this.userByName(username);
    if (owner && owner.access_code_id !== codeId) return refuse("username-taken");
    const admins = await this.store.all<{ username: string }>("SELECT username FROM admins");
    if (admins.some((admin) => nameSkeleton(admin.username) === key)) return refuse("username-reserved");
    const alike = await this.store.get<{ access_code_id: number | null; moderator: number }>(
      `SELECT u.access_code_id, CASE WHEN c.kind = 'MOD' OR EXISTS (SELECT 1 FROM chat_moderators m WHERE m.user_id = u.id) THEN 1 ELSE 0 END AS moderator
       FROM users u LEFT JOIN access_codes c ON c.id = u.access_code_id WHERE u.name_key = ?`,
      key,
    );
    if (alike && alike.access_code_id !== codeId) return refuse(alike.moderator === 1 ? "username-reserved" : "username-taken");
    return null;
  }

  private userByName(username: string): Promise<{ id: number; access_code_id: number | null } | null> {
    return this.store.get<{ id: number; access_code_id: number | null }>("SELECT id, access_code_id FROM users WHERE username = ?", username);
  }

  /**
   * A regular or moderator code is one person: a new username renames them. Test codes are shared by
   * testers, so each username is its own user.
   */
  private async upsertUser(code: CodeRow, username: string, email: string | undefined, ownerId: number | undefined): Promise<number> {
    const key = nameSkeleton(username);
    if (ownerId !== undefined) {
      await this.store.run("UPDATE users SET username = ?, name_key = ?, email = COALESCE(?, email) WHERE id = ?", username, key, email ?? null, ownerId);
      return ownerId;
    }
    if (code.kind !== "SCP") {
      const current = await this.store.get<{ id: number }>("SELECT id FROM users WHERE access_code_id = ? ORDER BY id LIMIT 1", code.id);
      if (current) {
        await this.store.run("UPDATE users SET username = ?, name_key = ?, email = COALESCE(?, email) WHERE id = ?", username, key, email ?? null, current.id);
        return current.id;
      }
    }
    const row = await this.store.get<{ id: number }>(
      "INSERT INTO users (username, name_key, email, access_code_id, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
      username,
      key,
      email ?? null,
      code.id,
      Date.now(),
    );
    return row!.id;
  }
}
