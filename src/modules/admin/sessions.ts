import type { AdminSessionView } from "../../contracts/team.ts";
import type { Store } from "../../db/store.ts";
import { browserName } from "./browser-name.ts";
import type { AdminService, SessionEnd } from "./service.ts";

interface SessionRow {
  id: string;
  public_id: string;
  created_at: number;
  last_seen_at: number | null;
  address: string | null;
  user_agent: string | null;
}

/** A member's signed-in sessions, as the Security screen lists and ends them (by public id, never the cookie's). */
export class AdminSessions {
  constructor(
    private readonly store: Store,
    private readonly admins: AdminService,
  ) {}

  async list(adminId: number, currentId: string | null): Promise<AdminSessionView[]> {
    const rows = await this.store.all<SessionRow>(
      "SELECT id, public_id, created_at, last_seen_at, address, user_agent FROM admin_sessions WHERE admin_id = ? AND expires_at > ? ORDER BY last_seen_at DESC, created_at DESC",
      adminId,
      Date.now(),
    );
    return rows.map((r) => ({
      id: r.public_id,
      createdAt: new Date(Number(r.created_at)).toISOString(),
      lastSeenAt: new Date(Number(r.last_seen_at ?? r.created_at)).toISOString(),
      address: r.address ?? "unknown",
      browser: browserName(r.user_agent),
      current: r.id === currentId,
    }));
  }

  /** Ends one of this member's sessions; false when it is not theirs or already gone. */
  async end(adminId: number, publicId: string): Promise<boolean> {
    return (await this.admins.endSessions("ended-elsewhere", "admin_id = ? AND public_id = ?", adminId, publicId)) === 1;
  }

  /** Ends every session of this member but `keepId` (a session's row id), for `why`; answers how many. */
  async endOthers(adminId: number, keepId: string | null, why: SessionEnd): Promise<number> {
    return this.admins.endSessions(why, "admin_id = ? AND id <> ?", adminId, keepId ?? "");
  }

  /** Marks that this session's holder just gave a password or a second factor (the step-up window starts again). */
  async verified(sessionId: string, now = Date.now()): Promise<void> {
    await this.store.run("UPDATE admin_sessions SET verified_at = ? WHERE id = ?", now, sessionId);
  }
}
