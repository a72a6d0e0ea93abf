import type { Database } from "bun:sqlite";
import { ACCESS_MESSAGES, FORCED_ACCESS_CODE, type DeviceFingerprint } from "../../contracts/access.ts";
import { testCodesEnabled, type Config } from "../../config.ts";
import { notFound } from "../../lib/errors.ts";
import type { MailService } from "../mail/service.ts";
import { generateCode, normaliseCode, type CodeKind } from "./codes.ts";
import { checkDeviceFingerprint } from "./fingerprint.ts";
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
  | { valid: true; message: string; sessionId: string; userId: number; username: string; code: AccessCodeRecord }
  | { valid: false; message: string; reason: AccessRefusal };

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
    private readonly db: Database,
    private readonly config: Config,
    private readonly sessions: ViewerSessionService,
    private readonly mail: MailService,
  ) {}

  /** A new random code of `kind`. Synchronous, so payment fulfilment can call it inside its transaction. */
  issueAccessCode(kind: CodeKind, options: { email?: string | null; paymentId?: number | null } = {}): AccessCodeRecord {
    const row = this.db
      .query<CodeRow, [string, string, string | null, number | null, number]>(
        "INSERT INTO access_codes (code, kind, email, payment_id, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *",
      )
      .get(generateCode(kind), kind, options.email ?? null, options.paymentId ?? null, Date.now())!;
    return toRecord(row);
  }

  /** An SCP- test code; unknown (404) unless test codes are enabled. */
  issueTestCode(): AccessCodeRecord {
    if (!testCodesEnabled(this.config)) throw notFound();
    return this.issueAccessCode("SCP");
  }

  findCode(code: string): AccessCodeRecord | null {
    const row = this.findRow(normaliseCode(code));
    return row ? toRecord(row) : null;
  }

  codeForPayment(paymentId: number): AccessCodeRecord | null {
    const row = this.db.query<CodeRow, [number]>("SELECT * FROM access_codes WHERE payment_id = ?").get(paymentId);
    return row ? toRecord(row) : null;
  }

  /**
   * Revokes a code and ends every viewer session made with it; returns the usernames that held one.
   * Synchronous: the caller holds the transaction (an admin's revoke, a refund or dispute).
   */
  revoke(id: number): string[] {
    this.db.query("UPDATE access_codes SET revoked = 1 WHERE id = ?").run(id);
    const names = this.db
      .query<{ username: string }, [number]>("SELECT DISTINCT u.username FROM viewer_sessions s JOIN users u ON u.id = s.user_id WHERE s.access_code_id = ?")
      .all(id)
      .map((r) => r.username);
    this.sessions.endAllForCode(id);
    return names;
  }

  /** Read-only check of a code and username, without a device (verify-access, verify-special-access's kind rule). */
  check(accessCode: string, username: string, onlyKinds?: CodeKind[]): { valid: true } | Refusal {
    const code = this.usableCode(accessCode, false);
    if (!code) return refuse("invalid-code");
    if (onlyKinds && !onlyKinds.includes(code.kind)) return refuse("wrong-kind");
    if (this.sessions.isBanned(username, code.id)) return refuse("banned");
    const taken = this.usernameRefusal(username, code.id);
    if (taken) return taken;
    return { valid: true };
  }

  /**
   * Lets a viewer in: the code must be live, neither name nor code banned, the device allowed by the
   * spec's fingerprint rules and the username free. Marks the code used, records the user and opens a
   * viewer session, all in one transaction.
   */
  admit(request: AdmitRequest): AdmitOutcome {
    const outcome = this.db
      .transaction((): AdmitOutcome => {
        const code = this.usableCode(request.accessCode, true);
        if (!code) return refuse("invalid-code");
        if (request.onlyKinds && !request.onlyKinds.includes(code.kind)) return refuse("wrong-kind");
        if (this.sessions.isBanned(request.username, code.id)) return refuse("banned");
        const device = checkDeviceFingerprint(code.device_fingerprint, request.deviceFingerprint, code.code);
        if (!device.allowed) return refuse("wrong-device");
        const taken = this.usernameRefusal(request.username, code.id);
        if (taken) return taken;
        const owner = this.userByName(request.username);

        if (device.update) this.db.query("UPDATE access_codes SET device_fingerprint = ? WHERE id = ?").run(JSON.stringify(device.update), code.id);
        const userId = this.upsertUser(code, request.username, request.email, owner?.id);
        const newEmail = !code.email && request.email && code.kind !== "SCP" ? request.email : null;
        this.db.query("UPDATE access_codes SET used = 1, email = COALESCE(email, ?) WHERE id = ?").run(newEmail, code.id);
        if (newEmail) this.mail.queueAccessCode(code.id, code.code, newEmail, request.siteUrl);
        const sessionId = this.sessions.open(request.currentSessionId, userId, code.id);
        const fresh = this.findRow(code.code)!;
        return { valid: true, message: ACCESS_MESSAGES.granted, sessionId, userId, username: request.username, code: toRecord(fresh) };
      })
      .immediate();
    return outcome;
  }

  /** Codes bought with (or registered to) an address, for the lost-code e-mail. */
  codesForEmail(email: string): string[] {
    return this.db
      .query<{ code: string }, [string]>(
        `SELECT DISTINCT c.code, c.created_at FROM access_codes c
         LEFT JOIN payments p ON p.id = c.payment_id
         LEFT JOIN users u ON u.access_code_id = c.id
         WHERE c.revoked = 0 AND c.kind IN ('SKP', 'MOD')
           AND (lower(c.email) = lower(?1) OR lower(p.email) = lower(?1) OR lower(u.email) = lower(?1))
         ORDER BY c.created_at`,
      )
      .all(email)
      .map((r) => r.code);
  }

  /** Queues one e-mail listing the address's codes, if it has any. The caller answers the same either way. */
  sendLostCodes(email: string, siteUrl: string): void {
    const codes = this.codesForEmail(email);
    if (codes.length > 0) this.mail.queueLostCodes(codes, email, siteUrl);
  }

  /** The code if it can let someone in now. Creates the spec's forced-access code on first use where test codes are on. */
  private usableCode(input: string, createForced: boolean): CodeRow | null {
    const code = normaliseCode(input);
    const testCodes = testCodesEnabled(this.config);
    if (createForced && testCodes && code === FORCED_ACCESS_CODE) {
      this.db.query("INSERT INTO access_codes (code, kind, created_at) VALUES (?, 'SCP', ?) ON CONFLICT (code) DO NOTHING").run(code, Date.now());
    }
    const row = this.findRow(code);
    if (!row || row.revoked === 1) return null;
    if (row.kind === "SCP" && !testCodes) return null;
    return row;
  }

  private findRow(code: string): CodeRow | null {
    return this.db.query<CodeRow, [string]>("SELECT * FROM access_codes WHERE code = ?").get(code) ?? null;
  }

  /** A name held by another code's viewer, or an admin's name (admins chat under it), is not free. */
  private usernameRefusal(username: string, codeId: number): Refusal | null {
    const owner = this.userByName(username);
    if (owner && owner.access_code_id !== codeId) return refuse("username-taken");
    if (this.db.query("SELECT 1 FROM admins WHERE username = ?").get(username) !== null) return refuse("username-reserved");
    return null;
  }

  private userByName(username: string): { id: number; access_code_id: number | null } | null {
    return this.db.query<{ id: number; access_code_id: number | null }, [string]>("SELECT id, access_code_id FROM users WHERE username = ?").get(username) ?? null;
  }

  /**
   * A regular or moderator code is one person: a new username renames them. Test codes are shared by
   * testers, so each username is its own user.
   */
  private upsertUser(code: CodeRow, username: string, email: string | undefined, ownerId: number | undefined): number {
    if (ownerId !== undefined) {
      this.db.query("UPDATE users SET username = ?, email = COALESCE(?, email) WHERE id = ?").run(username, email ?? null, ownerId);
      return ownerId;
    }
    if (code.kind !== "SCP") {
      const current = this.db.query<{ id: number }, [number]>("SELECT id FROM users WHERE access_code_id = ? ORDER BY id LIMIT 1").get(code.id);
      if (current) {
        this.db.query("UPDATE users SET username = ?, email = COALESCE(?, email) WHERE id = ?").run(username, email ?? null, current.id);
        return current.id;
      }
    }
    return this.db
      .query<{ id: number }, [string, string | null, number, number]>(
        "INSERT INTO users (username, email, access_code_id, created_at) VALUES (?, ?, ?, ?) RETURNING id",
      )
      .get(username, email ?? null, code.id, Date.now())!.id;
  }
}
