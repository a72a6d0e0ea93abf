import type { Role } from "../../contracts/team.ts";
import type { Store } from "../../db/store.ts";
import { conflict, unauthorized } from "../../lib/errors.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";
import { nameSkeleton } from "../access/name-skeleton.ts";

export const ADMIN_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A session's "last seen" is written at most this often (not on every request). */
const SEEN_EVERY_MS = 60_000;

export interface Admin {
  id: number;
  username: string;
  email: string;
  role: Role;
}

/** A signed-in admin's session as a request sees it. */
export interface AdminSession {
  admin: Admin;
  /** Its row's id: the hash of the cookie's token (the token itself is never stored). */
  id: string;
  /** The id shown and ended in the panel (never the cookie's). */
  publicId: string;
  /** When its holder last gave a password or a second factor (the step-up window). */
  verifiedAt: number;
  /** The team requires two factors and this member has none yet: only enrolment is open (read on every request). */
  enrolOnly: boolean;
}

export interface SessionMeta {
  address?: string | null;
  userAgent?: string | null;
}

const ADMIN_COLUMNS = "a.id, a.username, a.email, a.role";

/** Why a session was ended by something other than its own Logout: its browser is told at its next request. */
export type SessionEnd = "ended-by-owner" | "removed" | "ended-elsewhere" | "password-changed";

/** What the open panel of an ended session is told (the 401's message). */
export const SESSION_END_MESSAGES: Record<SessionEnd, string> = {
  "ended-by-owner": "An owner signed you out of the panel. Sign in again to go on.",
  removed: "An owner removed you from the team, so you were signed out.",
  "ended-elsewhere": "This session was ended from another of your devices. Sign in again to go on.",
  "password-changed": "Your password was changed, so this session ended. Sign in with the new one.",
};

/** The row id of the session a cookie's token opens: its hash, as challenges and invites are kept. */
export const sessionIdOf = (token: string): string => sha256Hex(token);

/** Admin accounts and their cookie sessions. Passwords are argon2id through Bun.password. */
export class AdminService {
  constructor(private readonly store: Store) {}

  async count(): Promise<number> {
    return (await this.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM admins"))!.n;
  }

  async needsFirstAdmin(): Promise<boolean> {
    return (await this.count()) === 0;
  }

  /** Creates the first admin; refuses once any admin exists, also when two requests (or two instances) race. */
  async createFirst(username: string, email: string, password: string): Promise<Admin> {
    if (!(await this.needsFirstAdmin())) throw conflict("An admin account already exists");
    const hash = await Bun.password.hash(password);
    return this.store.tx(async () => {
      await this.store.lock("admins");
      if (!(await this.needsFirstAdmin())) throw conflict("An admin account already exists");
      return this.insert(username, email, hash, "owner");
    });
  }

  /** Creates an admin regardless of how many exist (the CLI's `admin create`, an accepted invite). */
  async create(username: string, email: string, password: string, role: Role = "owner", inside?: () => Promise<void>): Promise<Admin> {
    const hash = await Bun.password.hash(password);
    try {
      return await this.store.tx(async () => {
        await this.store.lock("admins");
        if (await this.findByUsername(username)) throw conflict(`An admin named '${username}' already exists`);
        await this.refuseLookAlike(username);
        await inside?.();
        return this.insert(username, email, hash, role);
      });
    } catch (error) {
      if (this.store.isUniqueViolation(error)) throw conflict(`An admin named '${username}' already exists`);
      throw error;
    }
  }

  /** Sets a new password and ends every session of that admin (but `keepSession`, the row id of the one that changed it). */
  async resetPassword(username: string, password: string, keepSession?: string): Promise<Admin | null> {
    const admin = await this.findByUsername(username);
    if (!admin) return null;
    const hash = await Bun.password.hash(password);
    await this.store.tx(async () => {
      await this.store.run("UPDATE admins SET password_hash = ? WHERE id = ?", hash, admin.id);
      await this.endSessions("password-changed", "admin_id = ? AND id <> ?", admin.id, keepSession ?? "");
    });
    return admin;
  }

  /** Checks the password; returns the admin or null. Always spends a hash verification to not leak names. */
  async verifyCredentials(username: string, password: string): Promise<Admin | null> {
    const row = await this.store.get<Admin & { password_hash: string }>("SELECT id, username, email, role, password_hash FROM admins WHERE username = ?", username);
    const ok = await Bun.password.verify(password, row?.password_hash ?? (await dummyPasswordHash()));
    if (!row || !ok) return null;
    return { id: row.id, username: row.username, email: row.email, role: row.role };
  }

  /** Whether `password` is this admin's (for step-up and for changes that ask for it again). */
  async checkPassword(adminId: number, password: string): Promise<boolean> {
    const row = await this.store.get<{ password_hash: string }>("SELECT password_hash FROM admins WHERE id = ?", adminId);
    return Bun.password.verify(password, row?.password_hash ?? (await dummyPasswordHash()));
  }

  /** A new session (a new id every sign-in); its holder has just proved who they are. Answers the cookie's token. */
  async createSession(adminId: number, meta: SessionMeta = {}): Promise<string> {
    const token = randomToken();
    const now = Date.now();
    await this.store.run("DELETE FROM admin_sessions WHERE expires_at <= ?", now);
    await this.store.run(
      `INSERT INTO admin_sessions (id, admin_id, created_at, expires_at, public_id, last_seen_at, address, user_agent, verified_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      sessionIdOf(token),
      adminId,
      now,
      now + ADMIN_SESSION_TTL_MS,
      randomToken(12),
      now,
      meta.address?.slice(0, 100) ?? null,
      meta.userAgent?.slice(0, 400) ?? null,
      now,
    );
    await this.store.run("UPDATE admins SET last_seen_at = ? WHERE id = ?", now, adminId);
    return token;
  }

  /** The live session behind a cookie, or null; notes when it was last seen (at most once a minute). */
  async findSession(token: string | undefined): Promise<AdminSession | null> {
    if (!token || token.length !== 64) return null;
    const sessionId = sessionIdOf(token);
    const now = Date.now();
    // Enrolment only follows the team's rule as it is now, not as it was at sign-in: turned on, it reaches
    // the open sessions of members without a second factor at their next request.
    const row = await this.store.get<Admin & { public_id: string; verified_at: number; enrol_only: number; last_seen_at: number | null }>(
      `SELECT ${ADMIN_COLUMNS}, s.public_id, s.verified_at, s.last_seen_at,
         CASE WHEN (SELECT require_two_factor FROM team_settings WHERE id = 1) = 1 AND a.totp_enabled_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM admin_passkeys p WHERE p.admin_id = a.id) THEN 1 ELSE 0 END AS enrol_only
       FROM admin_sessions s JOIN admins a ON a.id = s.admin_id
       WHERE s.id = ? AND s.expires_at > ?`,
      sessionId,
      now,
    );
    if (!row) return null;
    if (!this.store.inTransaction() && now - Number(row.last_seen_at ?? 0) > SEEN_EVERY_MS) {
      // Best effort: a request is not refused because its "last seen" could not be written.
      void this.store
        .tx(async () => {
          await this.store.run("UPDATE admin_sessions SET last_seen_at = ? WHERE id = ?", now, sessionId);
          await this.store.run("UPDATE admins SET last_seen_at = ? WHERE id = ?", now, row.id);
        })
        .catch(() => {});
    }
    return {
      admin: { id: row.id, username: row.username, email: row.email, role: row.role },
      id: sessionId,
      publicId: row.public_id,
      verifiedAt: Number(row.verified_at),
      enrolOnly: Number(row.enrol_only) === 1,
    };
  }

  /** The live session behind a cookie; 401 without one, saying why when it was ended rather than logged out or expired. */
  async requireSession(token: string | undefined): Promise<AdminSession> {
    const session = await this.findSession(token);
    if (session) return session;
    const ended = token?.length === 64 ? await this.store.get<{ reason: SessionEnd }>("SELECT reason FROM admin_session_ends WHERE id = ?", sessionIdOf(token)) : null;
    throw ended ? unauthorized(SESSION_END_MESSAGES[ended.reason]) : unauthorized();
  }

  /**
   * Ends the sessions `where` picks (a condition on admin_sessions), keeping `why` for the browsers that
   * hold them; answers how many. Run inside the caller's transaction when it has one.
   */
  async endSessions(why: SessionEnd, where: string, ...params: (string | number)[]): Promise<number> {
    const now = Date.now();
    await this.store.run("DELETE FROM admin_session_ends WHERE ended_at <= ?", now - ADMIN_SESSION_TTL_MS);
    await this.store.run(`INSERT INTO admin_session_ends (id, reason, ended_at) SELECT id, ?, ? FROM admin_sessions WHERE ${where}`, why, now, ...params);
    return (await this.store.run(`DELETE FROM admin_sessions WHERE ${where}`, ...params)).changes;
  }

  /** Ends one session by its row id (`AdminSession.id`, or `sessionIdOf` a cookie's token). */
  async endSession(sessionId: string): Promise<void> {
    await this.store.run("DELETE FROM admin_sessions WHERE id = ?", sessionId);
  }

  async findById(id: number): Promise<Admin | null> {
    return this.store.get<Admin>("SELECT id, username, email, role FROM admins WHERE id = ?", id);
  }

  async findByUsername(username: string): Promise<Admin | null> {
    return this.store.get<Admin>("SELECT id, username, email, role FROM admins WHERE username = ?", username);
  }

  /**
   * A name that looks like a member's (the same skeleton, as viewers' names are compared: Cyrillic `оwner`,
   * full-width `ＯＷＮＥＲ`) would pass for them on the Team screen, in the chat and in the audit log.
   */
  private async refuseLookAlike(username: string): Promise<void> {
    const key = nameSkeleton(username);
    const members = await this.store.all<{ username: string }>("SELECT username FROM admins");
    const alike = members.find((m) => nameSkeleton(m.username) === key);
    if (alike) throw conflict(`The name '${username}' looks like '${alike.username}', already on the team. Choose another.`);
  }

  private async insert(username: string, email: string, hash: string, role: Role): Promise<Admin> {
    const row = await this.store.get<{ id: number }>(
      "INSERT INTO admins (username, email, password_hash, created_at, role) VALUES (?, ?, ?, ?, ?) RETURNING id",
      username,
      email,
      hash,
      Date.now(),
      role,
    );
    return { id: row!.id, username, email, role };
  }
}

// A real argon2id hash of a random string, made on first use: verifying against it costs the same as a real account.
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= Bun.password.hash(randomToken(16));
  return dummyHash;
}
