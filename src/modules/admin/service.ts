import type { Store } from "../../db/store.ts";
import { conflict, unauthorized } from "../../lib/errors.ts";
import { randomToken } from "../../lib/tokens.ts";

export const ADMIN_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface Admin {
  id: number;
  username: string;
  email: string;
}

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
      return this.insert(username, email, hash);
    });
  }

  /** Creates an admin regardless of how many exist (the CLI's `admin create`). */
  async create(username: string, email: string, password: string): Promise<Admin> {
    const hash = await Bun.password.hash(password);
    try {
      return await this.store.tx(async () => {
        await this.store.lock("admins");
        if (await this.findByUsername(username)) throw conflict(`An admin named '${username}' already exists`);
        return this.insert(username, email, hash);
      });
    } catch (error) {
      if (this.store.isUniqueViolation(error)) throw conflict(`An admin named '${username}' already exists`);
      throw error;
    }
  }

  /** Sets a new password and ends every session of that admin. */
  async resetPassword(username: string, password: string): Promise<Admin | null> {
    const admin = await this.findByUsername(username);
    if (!admin) return null;
    const hash = await Bun.password.hash(password);
    await this.store.tx(async () => {
      await this.store.run("UPDATE admins SET password_hash = ? WHERE id = ?", hash, admin.id);
      await this.store.run("DELETE FROM admin_sessions WHERE admin_id = ?", admin.id);
    });
    return admin;
  }

  /** Checks the password; returns the admin or null. Always spends a hash verification to not leak names. */
  async verifyCredentials(username: string, password: string): Promise<Admin | null> {
    const row = await this.store.get<Admin & { password_hash: string }>("SELECT id, username, email, password_hash FROM admins WHERE username = ?", username);
    const ok = await Bun.password.verify(password, row?.password_hash ?? (await dummyPasswordHash()));
    if (!row || !ok) return null;
    return { id: row.id, username: row.username, email: row.email };
  }

  async createSession(adminId: number): Promise<string> {
    const id = randomToken();
    const now = Date.now();
    await this.store.run("DELETE FROM admin_sessions WHERE expires_at <= ?", now);
    await this.store.run("INSERT INTO admin_sessions (id, admin_id, created_at, expires_at) VALUES (?, ?, ?, ?)", id, adminId, now, now + ADMIN_SESSION_TTL_MS);
    return id;
  }

  async findSession(sessionId: string | undefined): Promise<Admin | null> {
    if (!sessionId || sessionId.length !== 64) return null;
    return this.store.get<Admin>(
      `SELECT a.id, a.username, a.email FROM admin_sessions s JOIN admins a ON a.id = s.admin_id
       WHERE s.id = ? AND s.expires_at > ?`,
      sessionId,
      Date.now(),
    );
  }

  async requireSession(sessionId: string | undefined): Promise<Admin> {
    const admin = await this.findSession(sessionId);
    if (!admin) throw unauthorized();
    return admin;
  }

  async endSession(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.store.run("DELETE FROM admin_sessions WHERE id = ?", sessionId);
  }

  private findByUsername(username: string): Promise<Admin | null> {
    return this.store.get<Admin>("SELECT id, username, email FROM admins WHERE username = ?", username);
  }

  private async insert(username: string, email: string, hash: string): Promise<Admin> {
    const row = await this.store.get<{ id: number }>(
      "INSERT INTO admins (username, email, password_hash, created_at) VALUES (?, ?, ?, ?) RETURNING id",
      username,
      email,
      hash,
      Date.now(),
    );
    return { id: row!.id, username, email };
  }
}

// A real argon2id hash of a random string, made on first use: verifying against it costs the same as a real account.
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= Bun.password.hash(randomToken(16));
  return dummyHash;
}
