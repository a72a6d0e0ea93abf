import type { Database } from "bun:sqlite";

export interface BannedUser {
  username: string;
  bannedBy: string | null;
  /** ISO 8601 */
  bannedAt: string;
}

/** A viewer as the database knows them, for acting on someone who may be offline. */
export interface KnownViewer {
  userId: number;
  username: string;
  accessCodeId: number | null;
  codeKind: "SKP" | "MOD" | "SCP" | null;
}

/**
 * Bans by username and by access code: a banned viewer can come back neither under the same name nor
 * with the same code under a new one. The admin panel lists and lifts them.
 */
export class BanList {
  constructor(private readonly db: Database) {}

  ban(username: string, accessCodeId: number | null, bannedBy: string): void {
    this.db
      .query(
        `INSERT INTO banned_users (username, access_code_id, banned_by, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (username) DO UPDATE SET access_code_id = COALESCE(excluded.access_code_id, access_code_id)`,
      )
      .run(username, accessCodeId, bannedBy, Date.now());
  }

  /** Lifts the ban on that name (and with it the ban on its code); false when there was none. */
  unban(username: string): boolean {
    return this.db.query("DELETE FROM banned_users WHERE username = ?").run(username.trim()).changes > 0;
  }

  list(): BannedUser[] {
    return this.db
      .query<{ username: string; banned_by: string | null; created_at: number }, []>(
        "SELECT username, banned_by, created_at FROM banned_users ORDER BY created_at DESC, id DESC",
      )
      .all()
      .map((r) => ({ username: r.username, bannedBy: r.banned_by, bannedAt: new Date(r.created_at).toISOString() }));
  }

  findViewer(username: string): KnownViewer | null {
    return (
      this.db
        .query<KnownViewer, [string]>(
          `SELECT u.id AS userId, u.username, u.access_code_id AS accessCodeId, c.kind AS codeKind
           FROM users u LEFT JOIN access_codes c ON c.id = u.access_code_id WHERE u.username = ?`,
        )
        .get(username.trim()) ?? null
    );
  }

  isAdminName(username: string): boolean {
    return this.db.query("SELECT 1 FROM admins WHERE username = ?").get(username.trim()) !== null;
  }
}
