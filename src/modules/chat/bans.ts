import type { Database } from "bun:sqlite";

export interface BannedUser {
  username: string;
  bannedBy: string | null;
  reason: string | null;
  /** ISO 8601 */
  bannedAt: string;
}

/** A viewer as the database knows them, for acting on someone who may be offline. */
export interface KnownViewer {
  userId: number;
  username: string;
  accessCodeId: number | null;
  codeKind: "SKP" | "MOD" | "SCP" | null;
  /** By a MOD- code or made one in the admin panel. */
  isModerator: boolean;
}

/**
 * Bans by username and by access code: a banned viewer can come back neither under the same name nor
 * with the same code under a new one. The admin panel lists and lifts them.
 */
export class BanList {
  constructor(private readonly db: Database) {}

  ban(username: string, accessCodeId: number | null, bannedBy: string, reason: string | null = null): void {
    this.db
      .query(
        `INSERT INTO banned_users (username, access_code_id, banned_by, reason, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (username) DO UPDATE SET access_code_id = COALESCE(excluded.access_code_id, access_code_id),
           reason = COALESCE(excluded.reason, reason)`,
      )
      .run(username, accessCodeId, bannedBy, reason, Date.now());
  }

  /** Lifts the ban on that name (and with it the ban on its code); false when there was none. */
  unban(username: string): boolean {
    return this.db.query("DELETE FROM banned_users WHERE username = ?").run(username.trim()).changes > 0;
  }

  list(): BannedUser[] {
    return this.db
      .query<{ username: string; banned_by: string | null; reason: string | null; created_at: number }, []>(
        "SELECT username, banned_by, reason, created_at FROM banned_users ORDER BY created_at DESC, id DESC",
      )
      .all()
      .map((r) => ({ username: r.username, bannedBy: r.banned_by, reason: r.reason, bannedAt: new Date(r.created_at).toISOString() }));
  }

  findViewer(username: string): KnownViewer | null {
    const row = this.db
      .query<Omit<KnownViewer, "isModerator"> & { promoted: number }, [string]>(
        `SELECT u.id AS userId, u.username, u.access_code_id AS accessCodeId, c.kind AS codeKind,
           EXISTS (SELECT 1 FROM chat_moderators m WHERE m.user_id = u.id) AS promoted
         FROM users u LEFT JOIN access_codes c ON c.id = u.access_code_id WHERE u.username = ?`,
      )
      .get(username.trim());
    if (!row) return null;
    const { promoted, ...viewer } = row;
    return { ...viewer, isModerator: viewer.codeKind === "MOD" || promoted === 1 };
  }

  isAdminName(username: string): boolean {
    return this.db.query("SELECT 1 FROM admins WHERE username = ?").get(username.trim()) !== null;
  }
}
