import type { Database } from "bun:sqlite";
import { CHAT_HISTORY_LIMIT, type ChatMessage } from "../../contracts/chat.ts";
import { randomToken } from "../../lib/tokens.ts";

interface MessageRow {
  id: string;
  username: string;
  text: string;
  type: ChatMessage["type"];
  is_pinned: number;
  donation_pence: number | null;
  created_at: number;
}

const COLUMNS = "id, username, text, type, is_pinned, donation_pence, created_at";

function toMessage(row: MessageRow): ChatMessage {
  const message: ChatMessage = {
    id: row.id,
    username: row.username,
    text: row.text,
    timestamp: new Date(row.created_at).toISOString(),
    type: row.type,
    isPinned: row.is_pinned === 1,
  };
  if (row.donation_pence !== null) message.donation = row.donation_pence / 100;
  return message;
}

export interface NewMessage {
  userId: number | null;
  username: string;
  text: string;
  type: ChatMessage["type"];
  donationPence?: number;
}

/** The chat log in SQLite: written before anything is broadcast, so a restart keeps the history. */
export class ChatMessageStore {
  /** Goes up on every write, so a reader can tell whether its copy of the history is stale. */
  revision = 0;

  constructor(private readonly db: Database) {}

  add(message: NewMessage): ChatMessage {
    this.revision++;
    const row = this.db
      .query<MessageRow, [string, number | null, string, string, string, number | null, number]>(
        `INSERT INTO chat_messages (id, seq, user_id, username, text, type, donation_pence, created_at)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_messages), ?, ?, ?, ?, ?, ?)
         RETURNING ${COLUMNS}`,
      )
      .get(randomToken(8), message.userId, message.username, message.text, message.type, message.donationPence ?? null, Date.now())!;
    return toMessage(row);
  }

  /** The last `limit` visible messages, oldest first. */
  history(limit = CHAT_HISTORY_LIMIT): ChatMessage[] {
    return this.db
      .query<MessageRow, [number]>(`SELECT ${COLUMNS} FROM chat_messages WHERE deleted = 0 ORDER BY seq DESC LIMIT ?`)
      .all(limit)
      .reverse()
      .map(toMessage);
  }

  find(id: string): ChatMessage | null {
    const row = this.db.query<MessageRow, [string]>(`SELECT ${COLUMNS} FROM chat_messages WHERE id = ? AND deleted = 0`).get(id);
    return row ? toMessage(row) : null;
  }

  /** Hides one message from everyone; false when it was not there (or already gone). */
  delete(id: string): boolean {
    this.revision++;
    return this.db.query("UPDATE chat_messages SET deleted = 1, is_pinned = 0 WHERE id = ? AND deleted = 0").run(id).changes > 0;
  }

  /** Hides every message of a kicked or banned user, as the clients do. */
  deleteAllBy(username: string): void {
    this.revision++;
    this.db.query("UPDATE chat_messages SET deleted = 1, is_pinned = 0 WHERE username = ? COLLATE NOCASE AND deleted = 0").run(username);
  }

  /**
   * Pins an unpinned message (one pin at a time: any other pinned message is unpinned) or unpins a pinned
   * one. Returns every message whose state changed, or null when the message is not there.
   */
  togglePin(id: string): ChatMessage[] | null {
    this.revision++;
    return this.db.transaction(() => {
      const target = this.find(id);
      if (!target) return null;
      if (target.isPinned) {
        this.db.query("UPDATE chat_messages SET is_pinned = 0 WHERE id = ?").run(id);
        return [{ ...target, isPinned: false }];
      }
      const unpinned = this.db
        .query<MessageRow, [string]>(`UPDATE chat_messages SET is_pinned = 0 WHERE is_pinned = 1 AND id != ? RETURNING ${COLUMNS}`)
        .all(id)
        .map(toMessage);
      this.db.query("UPDATE chat_messages SET is_pinned = 1 WHERE id = ?").run(id);
      return [...unpinned, { ...target, isPinned: true }];
    }).immediate();
  }
}
