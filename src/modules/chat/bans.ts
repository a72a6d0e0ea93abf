import type { Store } from "../../db/store.ts";

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
  constructor(private readonly store: Store) {}

  async ban(username: string, accessCodeId: number | null, bannedBy: string, reason: string | null = null): Promise<void> {
    await this.store.run(
      `INSERT INTO banned_users (username, access_code_id, banned_by, reason, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (username) DO UPDATE SET access_code_id = COALESCE(excluded.access_code_id, banned_users.access_code_id),
           reason = COALESCE(excluded.reason, banned_users.reason)`,
      username,
      accessCodeId,
      bannedBy,
      reason,
      Date.now(),
    );
  }

  /** Lifts the ban on that name (and with it the ban on its code); false when there was none. */
  async unban(username: string): Promise<boolean> {
    return (await this.store.run("DELETE FROM banned_users WHERE username = ?", username.trim())).changes > 0;
  }

  async list(): Promise<BannedUser[]> {
    return (
      await this.store.all<{ username: string; banned_by: string | null; reason: string | null; created_at: number }>(
        "SELECT username, banned_by, reason, created_at FROM banned_users ORDER BY created_at DESC, id DESC",
      )
    ).map((r) => ({ username: r.username, bannedBy: r.banned_by, reason: r.reason, bannedAt: new Date(r.created_at).toISOString() }));
  }

  /** Every banned name and code, for checking open sockets against (after a gap in a cluster's messages). */
  async names(): Promise<{ username: string; accessCodeId: number | null }[]> {
    return this.store.all<{ username: string; accessCodeId: number | null }>(`SELECT username, access_code_id AS "accessCodeId" FROM banned_users`);
  }

  /** Of these codes, those revoked (a refund or dispute). */
  async revokedAmong(codeIds: number[]): Promise<number[]> {
    const revoked: number[] = [];
    for (let i = 0; i < codeIds.length; i += 500) {
      const chunk = codeIds.slice(i, i + 500);
      const rows = await this.store.all<{ id: number }>(`SELECT id FROM access_codes WHERE revoked = 1 AND id IN (${chunk.map(() => "?").join(", ")})`, ...chunk);
      revoked.push(...rows.map((r) => r.id));
    }
    return revoked;
  }

  async findViewer(username: string): Promise<KnownViewer | null> {
    const row = await this.store.get<Omit<KnownViewer, "isModerator"> & { promoted: number }>(
      `SELECT u.id AS "userId", u.username, u.access_code_id AS "accessCodeId", c.kind AS "codeKind",
           EXISTS (SELECT 1 FROM chat_moderators m WHERE m.user_id = u.id) AS promoted
         FROM users u LEFT JOIN access_codes c ON c.id = u.access_code_id WHERE u.username = ?`,
      username.trim(),
    );
    if (!row) return null;
    const { promoted, ...viewer } = row;
    return { ...viewer, isModerator: viewer.codeKind === "MOD" || promoted === 1 };
  }

  async isAdminName(username: string): Promise<boolean> {
    return (await this.store.get("SELECT 1 AS one FROM admins WHERE username = ?", username.trim())) !== null;
  }
}
