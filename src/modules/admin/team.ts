import type { Role, TeamMember, TeamView } from "../../contracts/team.ts";
import type { Store } from "../../db/store.ts";
import { badRequest, conflict, forbidden, notFound } from "../../lib/errors.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";
import type { Admin, AdminService } from "./service.ts";

/** An invite link works this long, once. */
export const INVITE_TTL_MS = 48 * 60 * 60 * 1000;
export const INVITE_GONE = "This invite link has expired or has already been used. Ask an owner for a new one.";
export const LAST_OWNER = "The team needs at least one owner";
export const OWNERS_ONLY = "Only an owner can change another owner";

interface MemberRow {
  id: number;
  username: string;
  email: string;
  role: Role;
  totp: number;
  keys: number;
  last_seen_at: number | null;
  created_at: number;
}

/**
 * The admin team: members and their roles, invites, and whether everyone must use two factors. The rules
 * that keep it safe are here, not in the routes: the last owner is never demoted or removed (checked under
 * a lock, so two owners demoting each other at once cannot both succeed), and only an owner acts on an
 * owner. Removing a member ends their sessions with their row.
 */
export class TeamService {
  constructor(
    private readonly store: Store,
    private readonly admins: AdminService,
  ) {}

  async view(me: number): Promise<TeamView> {
    const rows = await this.store.all<MemberRow>(
      `SELECT a.id, a.username, a.email, a.role, CASE WHEN a.totp_enabled_at IS NULL THEN 0 ELSE 1 END AS totp,
              (SELECT COUNT(*) FROM admin_passkeys p WHERE p.admin_id = a.id) AS keys, a.last_seen_at, a.created_at
       FROM admins a ORDER BY a.created_at, a.id`,
    );
    const members: TeamMember[] = rows.map((r) => ({
      id: Number(r.id),
      username: r.username,
      email: r.email,
      role: r.role,
      twoFactor: Number(r.totp) === 1 || Number(r.keys) > 0,
      lastSeenAt: r.last_seen_at === null ? null : new Date(Number(r.last_seen_at)).toISOString(),
      createdAt: new Date(Number(r.created_at)).toISOString(),
      isYou: Number(r.id) === me,
    }));
    const now = Date.now();
    const invites = await this.store.all<{ id: number; email: string; role: Role; expires_at: number; created_by: string }>(
      "SELECT id, email, role, expires_at, created_by FROM admin_invites WHERE accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at",
      now,
    );
    return {
      members,
      invites: invites.map((i) => ({ id: Number(i.id), email: i.email, role: i.role, expiresAt: new Date(Number(i.expires_at)).toISOString(), createdBy: i.created_by })),
      requireTwoFactor: await this.requiresTwoFactor(),
    };
  }

  async requiresTwoFactor(): Promise<boolean> {
    const row = await this.store.get<{ require_two_factor: number }>("SELECT require_two_factor FROM team_settings WHERE id = 1");
    return Number(row?.require_two_factor ?? 0) === 1;
  }

  async setRequireTwoFactor(required: boolean): Promise<void> {
    await this.store.run("UPDATE team_settings SET require_two_factor = ? WHERE id = 1", required ? 1 : 0);
  }

  /** A one-time invite; answers its token (the link's secret, kept only as a hash). */
  async invite(email: string, role: Role, by: Admin, now = Date.now()): Promise<{ token: string; id: number; expiresAt: number }> {
    if (role === "owner" && by.role !== "owner") throw forbidden(OWNERS_ONLY);
    const token = randomToken(24);
    const row = await this.store.get<{ id: number }>(
      "INSERT INTO admin_invites (token_hash, email, role, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
      sha256Hex(token),
      email,
      role,
      by.username,
      now,
      now + INVITE_TTL_MS,
    );
    return { token, id: Number(row!.id), expiresAt: now + INVITE_TTL_MS };
  }

  async revokeInvite(id: number, now = Date.now()): Promise<boolean> {
    return (await this.store.run("UPDATE admin_invites SET revoked_at = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL", now, id)).changes === 1;
  }

  /** What an invite link offers, for the page that accepts it; 410-like 404 when it is no longer good. */
  async inviteDetails(token: string, now = Date.now()): Promise<{ email: string; role: Role }> {
    const row = await this.liveInvite(token, now);
    return { email: row.email, role: row.role };
  }

  private async liveInvite(token: string, now: number): Promise<{ id: number; email: string; role: Role }> {
    if (!/^[0-9a-f]{48}$/.test(token)) throw notFound(INVITE_GONE);
    const row = await this.store.get<{ id: number; email: string; role: Role }>(
      "SELECT id, email, role FROM admin_invites WHERE token_hash = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?",
      sha256Hex(token),
      now,
    );
    if (!row) throw notFound(INVITE_GONE);
    return { id: Number(row.id), email: row.email, role: row.role };
  }

  /** Makes the member an invite names; the invite is used up in the same transaction (good once, also when two race). */
  async accept(token: string, username: string, password: string, now = Date.now()): Promise<Admin> {
    const invite = await this.liveInvite(token, now);
    return this.admins.create(username, invite.email, password, invite.role, async () => {
      const used = await this.store.run(
        "UPDATE admin_invites SET accepted_at = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?",
        now,
        invite.id,
        now,
      );
      if (used.changes !== 1) throw notFound(INVITE_GONE);
    });
  }

  /** Changes a member's role; answers the member before the change. */
  async setRole(id: number, role: Role, by: Admin): Promise<Admin> {
    return this.store.tx(async () => {
      await this.store.lock("admins");
      const member = await this.admins.findById(id);
      if (!member) throw notFound("No such team member");
      if ((member.role === "owner" || role === "owner") && by.role !== "owner") throw forbidden(OWNERS_ONLY);
      if (member.role === "owner" && role !== "owner" && (await this.ownerCount()) <= 1) throw conflict(LAST_OWNER);
      await this.store.run("UPDATE admins SET role = ? WHERE id = ?", role, id);
      return member;
    });
  }

  /** Removes a member: their sessions, keys and codes go with their row. Answers who it was. */
  async remove(id: number, by: Admin): Promise<Admin> {
    return this.store.tx(async () => {
      await this.store.lock("admins");
      const member = await this.admins.findById(id);
      if (!member) throw notFound("No such team member");
      if (member.role === "owner" && by.role !== "owner") throw forbidden(OWNERS_ONLY);
      if (member.role === "owner" && (await this.ownerCount()) <= 1) throw conflict(LAST_OWNER);
      await this.admins.endSessions("removed", "admin_id = ?", id);
      await this.store.run("DELETE FROM admins WHERE id = ?", id);
      return member;
    });
  }

  async owners(): Promise<{ username: string; email: string }[]> {
    return this.store.all("SELECT username, email FROM admins WHERE role = 'owner' ORDER BY id");
  }

  private async ownerCount(): Promise<number> {
    return Number((await this.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM admins WHERE role = 'owner'"))!.n);
  }
}

export function assertNotSelf(id: number, me: Admin, what: string): void {
  if (id === me.id) throw badRequest(what);
}
