import { testCodesEnabled, type Config } from "../../config.ts";
import type { Store } from "../../db/store.ts";
import { randomToken } from "../../lib/tokens.ts";
import type { CodeKind } from "./codes.ts";

export const VIEWER_COOKIE = "dreadcast_viewer";
export const VIEWER_SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** A viewer who has been let in: who they are and which code let them in. */
export interface ViewerSession {
  sessionId: string;
  userId: number;
  username: string;
  accessCodeId: number;
  code: string;
  kind: CodeKind;
  isModerator: boolean;
  /** Epoch ms. */
  expiresAt: number;
}

interface SessionRow {
  id: string;
  user_id: number;
  username: string;
  access_code_id: number;
  code: string;
  kind: CodeKind;
  promoted: number;
  expires_at: number;
}

/**
 * Viewer sessions: a random id in an HttpOnly cookie, the session in the database. The chat WebSocket,
 * donations and the stream link all go through `findSession`.
 */
export class ViewerSessionService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
  ) {}

  /** Keeps the caller's session when it is this user's on this code (extending it); otherwise starts a new one. */
  async open(currentSessionId: string | undefined, userId: number, accessCodeId: number): Promise<string> {
    const now = Date.now();
    if (currentSessionId) {
      const extended = await this.store.run(
        "UPDATE viewer_sessions SET expires_at = ? WHERE id = ? AND user_id = ? AND access_code_id = ? AND expires_at > ?",
        now + VIEWER_SESSION_TTL_MS,
        currentSessionId,
        userId,
        accessCodeId,
        now,
      );
      if (extended.changes > 0) return currentSessionId;
    }
    const id = randomToken();
    await this.store.run("DELETE FROM viewer_sessions WHERE expires_at <= ?", now);
    await this.store.run(
      "INSERT INTO viewer_sessions (id, user_id, access_code_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      id,
      userId,
      accessCodeId,
      now,
      now + VIEWER_SESSION_TTL_MS,
    );
    return id;
  }

  /** The live session behind a cookie value, or null (unknown, expired, revoked code, or test codes switched off). */
  async findSession(cookieValue: string | undefined | null): Promise<ViewerSession | null> {
    if (!cookieValue || cookieValue.length !== 64) return null;
    const row = await this.store.get<SessionRow>(
      `SELECT s.id, s.user_id, u.username, s.access_code_id, c.code, c.kind, s.expires_at,
         EXISTS (SELECT 1 FROM chat_moderators m WHERE m.user_id = s.user_id) AS promoted
       FROM viewer_sessions s JOIN users u ON u.id = s.user_id JOIN access_codes c ON c.id = s.access_code_id
       WHERE s.id = ? AND s.expires_at > ? AND c.revoked = 0`,
      cookieValue,
      Date.now(),
    );
    if (!row) return null;
    if (row.kind === "SCP" && !testCodesEnabled(this.config)) return null;
    return {
      sessionId: row.id,
      userId: row.user_id,
      username: row.username,
      accessCodeId: row.access_code_id,
      code: row.code,
      kind: row.kind,
      // A MOD- code, or a viewer an admin made a moderator in the panel.
      isModerator: row.kind === "MOD" || row.promoted === 1,
      expiresAt: row.expires_at,
    };
  }

  /** Banned by name (any code) or by code (any name). */
  async isBanned(username: string, accessCodeId: number | null): Promise<boolean> {
    const row = await this.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM banned_users WHERE username = ? OR access_code_id = ?", username, accessCodeId ?? -1);
    return row!.n > 0;
  }

  async end(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.store.run("DELETE FROM viewer_sessions WHERE id = ?", sessionId);
  }

  /** Ends every session of a code (after a ban or revocation). */
  async endAllForCode(accessCodeId: number): Promise<void> {
    await this.store.run("DELETE FROM viewer_sessions WHERE access_code_id = ?", accessCodeId);
  }
}
