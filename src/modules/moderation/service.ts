import type { Store } from "../../db/store.ts";
import type { ChatExportMessage, ModerationLogEntry } from "../../contracts/moderation.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { toCsv } from "../../http/csv.ts";
import type { ModerationLog } from "../chat/moderation-log.ts";

interface ExportRow {
  id: string;
  username: string;
  text: string;
  type: ChatExportMessage["type"];
  is_pinned: number;
  deleted: number;
  donation_pence: number | null;
  donation_currency: string | null;
  created_at: number;
}

/** The admin side of moderation: moderators made in the panel, the log as CSV and the whole chat exported. */
export class ModerationAdminService {
  constructor(
    private readonly store: Store,
    private readonly log: ModerationLog,
  ) {}

  /**
   * Makes a viewer a moderator or takes it back; returns the user's name. A MOD- code's moderator stays
   * one (revoke the code instead). Logged when it changes anything.
   */
  async setModerator(userId: number, isModerator: boolean, by: string): Promise<{ username: string; changed: boolean }> {
    const user = await this.store.get<{ username: string; kind: string | null }>(
      "SELECT u.username, c.kind FROM users u LEFT JOIN access_codes c ON c.id = u.access_code_id WHERE u.id = ?",
      userId,
    );
    if (!user) throw notFound("Unknown user");
    if (user.kind === "MOD" && !isModerator) throw conflict("This viewer is a moderator by their MOD- code; revoke the code to take it back.");
    const changes = isModerator
      ? (await this.store.run("INSERT INTO chat_moderators (user_id, granted_by, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING", userId, by, Date.now())).changes
      : (await this.store.run("DELETE FROM chat_moderators WHERE user_id = ?", userId)).changes;
    if (changes > 0) await this.log.record({ action: isModerator ? "moderator_added" : "moderator_removed", moderator: by, target: user.username });
    return { username: user.username, changed: changes > 0 };
  }

  /** A viewer by id, with the code they entered with; 404 for an unknown id. */
  async findUser(userId: number): Promise<{ username: string; accessCodeId: number | null }> {
    const user = await this.store.get<{ username: string; accessCodeId: number | null }>('SELECT username, access_code_id AS "accessCodeId" FROM users WHERE id = ?', userId);
    if (!user) throw notFound("Unknown user");
    return user;
  }

  logCsv(entries: ModerationLogEntry[]): string {
    return toCsv(
      ["time", "action", "moderator", "target", "message", "detail"],
      entries.map((e) => [e.createdAt, e.action, e.moderator, e.target, e.messageText, e.detail]),
    );
  }

  /** Every chat line ever sent, oldest first, deleted ones included and marked. */
  async chatExport(): Promise<ChatExportMessage[]> {
    return (
      await this.store.all<ExportRow>("SELECT id, username, text, type, is_pinned, deleted, donation_pence, donation_currency, created_at FROM chat_messages ORDER BY seq")
    ).map((r) => ({
      id: r.id,
      username: r.username,
      text: r.text,
      type: r.type,
      timestamp: new Date(r.created_at).toISOString(),
      deleted: r.deleted === 1,
      pinned: r.is_pinned === 1,
      donation: r.donation_pence === null ? null : r.donation_pence / 100,
      currency: r.donation_pence === null ? null : r.donation_currency,
    }));
  }

  chatExportCsv(messages: ChatExportMessage[]): string {
    return toCsv(
      ["time", "username", "type", "text", "donation", "currency", "pinned", "deleted", "id"],
      messages.map((m) => [
        m.timestamp,
        m.username,
        m.type,
        m.text,
        m.donation === null ? null : m.donation.toFixed(2),
        m.currency?.toUpperCase() ?? null,
        m.pinned,
        m.deleted,
        m.id,
      ]),
    );
  }
}
