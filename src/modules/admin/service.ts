import type { Database } from "bun:sqlite";
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
  constructor(private readonly db: Database) {}

  count(): number {
    return this.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM admins").get()!.n;
  }

  needsFirstAdmin(): boolean {
    return this.count() === 0;
  }

  /** Creates the first admin; refuses once any admin exists, also when two requests race. */
  async createFirst(username: string, email: string, password: string): Promise<Admin> {
    if (!this.needsFirstAdmin()) throw conflict("An admin account already exists");
    const hash = await Bun.password.hash(password);
    return this.db.transaction(() => {
      if (!this.needsFirstAdmin()) throw conflict("An admin account already exists");
      return this.insert(username, email, hash);
    }).immediate();
  }

  /** Creates an admin regardless of how many exist (the CLI's `admin create`). */
  async create(username: string, email: string, password: string): Promise<Admin> {
    const hash = await Bun.password.hash(password);
    return this.db.transaction(() => {
      if (this.findByUsername(username)) throw conflict(`An admin named '${username}' already exists`);
      return this.insert(username, email, hash);
    }).immediate();
  }

  /** Sets a new password and ends every session of that admin. */
  async resetPassword(username: string, password: string): Promise<Admin | null> {
    const admin = this.findByUsername(username);
    if (!admin) return null;
    const hash = await Bun.password.hash(password);
    this.db.transaction(() => {
      this.db.query("UPDATE admins SET password_hash = ? WHERE id = ?").run(hash, admin.id);
      this.db.query("DELETE FROM admin_sessions WHERE admin_id = ?").run(admin.id);
    }).immediate();
    return admin;
  }

  /** Checks the password; returns the admin or null. Always spends a hash verification to not leak names. */
  async verifyCredentials(username: string, password: string): Promise<Admin | null> {
    const row = this.db
      .query<Admin & { password_hash: string }, [string]>("SELECT id, username, email, password_hash FROM admins WHERE username = ?")
      .get(username);
    const ok = await Bun.password.verify(password, row?.password_hash ?? (await dummyPasswordHash()));
    if (!row || !ok) return null;
    return { id: row.id, username: row.username, email: row.email };
  }

  createSession(adminId: number): string {
    const id = randomToken();
    const now = Date.now();
    this.db.query("DELETE FROM admin_sessions WHERE expires_at <= ?").run(now);
    this.db.query("INSERT INTO admin_sessions (id, admin_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(id, adminId, now, now + ADMIN_SESSION_TTL_MS);
    return id;
  }

  findSession(sessionId: string | undefined): Admin | null {
    if (!sessionId || sessionId.length !== 64) return null;
    return (
      this.db
        .query<Admin, [string, number]>(
          `SELECT a.id, a.username, a.email FROM admin_sessions s JOIN admins a ON a.id = s.admin_id
           WHERE s.id = ? AND s.expires_at > ?`,
        )
        .get(sessionId, Date.now()) ?? null
    );
  }

  requireSession(sessionId: string | undefined): Admin {
    const admin = this.findSession(sessionId);
    if (!admin) throw unauthorized();
    return admin;
  }

  endSession(sessionId: string | undefined): void {
    if (sessionId) this.db.query("DELETE FROM admin_sessions WHERE id = ?").run(sessionId);
  }

  private findByUsername(username: string): Admin | null {
    return this.db.query<Admin, [string]>("SELECT id, username, email FROM admins WHERE username = ?").get(username) ?? null;
  }

  private insert(username: string, email: string, hash: string): Admin {
    const row = this.db
      .query<{ id: number }, [string, string, string, number]>(
        "INSERT INTO admins (username, email, password_hash, created_at) VALUES (?, ?, ?, ?) RETURNING id",
      )
      .get(username, email, hash, Date.now())!;
    return { id: row.id, username, email };
  }
}

// A real argon2id hash of a random string, made on first use: verifying against it costs the same as a real account.
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= Bun.password.hash(randomToken(16));
  return dummyHash;
}
