import type { Param, Store } from "../../db/store.ts";
import { CHAT_HISTORY_LIMIT, type ChatMessage } from "../../contracts/chat.ts";
import type { ReplayChat, ReplayLine } from "../../contracts/replay.ts";
import { randomToken } from "../../lib/tokens.ts";

interface MessageRow {
  id: string;
  username: string;
  text: string;
  type: ChatMessage["type"];
  is_pinned: number;
  donation_pence: number | null;
  donation_currency: string | null;
  staff: NonNullable<ChatMessage["staff"]> | null;
  created_at: number;
  /** Only where asked for (to order the rows an insert returns). */
  seq?: number;
}

const COLUMNS = "id, username, text, type, is_pinned, donation_pence, donation_currency, staff, created_at";
/** Rows per INSERT statement (ten parameters each, well under either engine's limit). */
const INSERT_ROWS = 200;

/**
 * A new line's id: the time in base 36, then random hex. Ids that grow with time land at the end of the
 * table's key index, so a window's lines touch a page or two of it rather than one page each.
 */
function lineId(now: number): string {
  return now.toString(36).padStart(9, "0") + randomToken(4);
}

/**
 * A new line's values in the order both inserts list the columns: id, seq (or its place in the window),
 * user_id, username, text, type, donation_pence, donation_currency, staff, created_at.
 */
function lineParams(m: NewMessage, seq: number, now: number): Param[] {
  return [lineId(now), seq, m.userId, m.username, m.text, m.type, m.donationPence ?? null, m.donationCurrency ?? null, m.staff ?? null, now];
}

const bySeq = (a: MessageRow, b: MessageRow) => a.seq! - b.seq!;

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
  if (row.donation_pence !== null && row.donation_currency !== null) message.currency = row.donation_currency;
  if (row.staff !== null) message.staff = row.staff;
  return message;
}

/** A line moderators took down, as the replay carries it: its place and time only. */
function removedLine(row: MessageRow): ReplayLine {
  return {
    id: row.id,
    username: "",
    text: "",
    timestamp: new Date(Number(row.created_at)).toISOString(),
    type: row.type === "system" ? "system" : "user",
    isPinned: false,
    removed: true,
  };
}

/** What storing one new line came to: the stored line, or why it could not be stored. */
export type Stored = { line: ChatMessage } | { error: unknown };

export interface NewMessage {
  userId: number | null;
  username: string;
  text: string;
  type: ChatMessage["type"];
  donationPence?: number;
  /** The currency the donation was paid in. */
  donationCurrency?: string;
  /** Written by an admin or a moderator: set from the socket's identity, never from what was typed. */
  staff?: ChatMessage["staff"];
}

/**
 * The chat log in the database: written before anything is broadcast, so a restart keeps the history.
 * The last 100 visible lines are also kept in memory, so a joining socket gets them without a query.
 */
export class ChatMessageStore {
  /** Goes up on every change, so a reader can tell whether its copy of the history is stale. */
  revision = 0;
  private recent: ChatMessage[] = [];

  constructor(private readonly store: Store) {}

  /** Reads the recent history into memory (at start, and after a change that may reach back into it). */
  async load(): Promise<void> {
    const rows = await this.store.all<MessageRow>(`SELECT ${COLUMNS} FROM chat_messages WHERE deleted = 0 ORDER BY seq DESC LIMIT ?`, CHAT_HISTORY_LIMIT);
    this.recent = rows.reverse().map(toMessage);
    this.revision++;
  }

  /** Stores a line under the next sequence number (one writer at a time takes it) and returns it. */
  async add(message: NewMessage): Promise<ChatMessage> {
    const [stored] = await this.addMany([message]);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the storage failure, passed on as it was caught
    if (!stored || "error" in stored) throw stored?.error ?? new Error("line not stored");
    return stored.line;
  }

  /**
   * Stores lines in one transaction, in order, under the next sequence numbers. One result per line: when
   * the transaction fails for a reason other than the database being away (a line it refuses), each line
   * is tried on its own, so that one bad line costs only itself.
   */
  async addMany(messages: NewMessage[]): Promise<Stored[]> {
    if (messages.length === 0) return [];
    let rows: MessageRow[];
    try {
      rows = await this.insert(messages);
    } catch (error) {
      if (messages.length === 1 || this.store.isUnavailable(error)) return messages.map(() => ({ error }));
      const results: Stored[] = [];
      for (const message of messages) results.push(...(await this.addMany([message])));
      return results;
    }
    const lines = rows.map(toMessage);
    this.keep(lines);
    return lines.map((line) => ({ line }));
  }

  /**
   * The lines' rows, under sequence numbers following the last one: on PostgreSQL in one statement (one
   * round trip), on SQLite in a transaction (every write transaction there runs alone).
   */
  private insert(messages: NewMessage[]): Promise<MessageRow[]> {
    if (this.store.engine !== "postgres" || messages.length > INSERT_ROWS) return this.insertLocked(messages);
    return this.insertCounted(messages).catch((error: unknown) => {
      // The counter behind the table (rows an older instance wrote during a rolling upgrade): the slow
      // way, which also brings the counter up to date.
      if (this.store.isUniqueViolation(error)) return this.insertLocked(messages);
      throw error;
    });
  }

  /**
   * PostgreSQL: the numbers come from the `chat_seq` counter, moved on in the same statement that inserts
   * the lines. Its row stays locked until the statement commits, so the next writer waits for it and
   * numbers follow the order of commits, as under the lock. A counter not there yet starts from the table.
   * The statement takes the chat's lock too (held to its commit, like the counter's row): an instance of an
   * earlier version, which numbers its lines from the table under that lock alone, then never picks a
   * number this one is taking (it would lose its line to the unique key during a rolling upgrade).
   */
  private insertCounted(messages: NewMessage[]): Promise<MessageRow[]> {
    const now = Date.now();
    const count = messages.length;
    const params: Param[] = [count, count, count, ...messages.flatMap((m, i) => lineParams(m, i + 1, now))];
    const values = messages.map(() => "(?::text, ?::bigint, ?::bigint, ?::text, ?::text, ?::text, ?::integer, ?::text, ?::text, ?::bigint)").join(", ");
    return this.store
      .all<MessageRow>(
        `WITH chat_lock AS (SELECT pg_advisory_xact_lock(hashtext('chat_messages')) AS held),
         counter AS (
           INSERT INTO event_counters (name, value) SELECT 'chat_seq', (SELECT COALESCE(MAX(seq), 0) FROM chat_messages) + ? FROM chat_lock
           ON CONFLICT (name) DO UPDATE SET value = event_counters.value + ?
           RETURNING value
         )
         INSERT INTO chat_messages (id, seq, user_id, username, text, type, donation_pence, donation_currency, staff, created_at)
         SELECT line.id, counter.value - ? + line.n, line.user_id, line.username, line.text, line.type, line.donation_pence, line.donation_currency, line.staff, line.created_at
         FROM counter, (VALUES ${values}) AS line (id, n, user_id, username, text, type, donation_pence, donation_currency, staff, created_at)
         RETURNING ${COLUMNS}, seq`,
        ...params,
      )
      .then((rows) => rows.sort(bySeq));
  }

  /**
   * The lines' rows, under sequence numbers following the last one, taken under the chat's lock. On
   * PostgreSQL the counter is locked too, numbers follow both it and the table, and it is left at the last.
   */
  private insertLocked(messages: NewMessage[]): Promise<MessageRow[]> {
    const counted = this.store.engine === "postgres";
    return this.store.tx(async () => {
      await this.store.lock("chat_messages");
      const counter = counted
        ? await this.store.get<{ value: number }>(
            "INSERT INTO event_counters (name, value) VALUES ('chat_seq', 0) ON CONFLICT (name) DO UPDATE SET value = event_counters.value RETURNING value",
          )
        : null;
      const last = await this.store.get<{ seq: number }>("SELECT COALESCE(MAX(seq), 0) AS seq FROM chat_messages");
      const base = Math.max(Number(last!.seq), Number(counter?.value ?? 0));
      const rows: MessageRow[] = [];
      for (let from = 0; from < messages.length; from += INSERT_ROWS) {
        const chunk = messages.slice(from, from + INSERT_ROWS);
        const now = Date.now();
        const params = chunk.flatMap((m, i) => lineParams(m, base + from + i + 1, now));
        const inserted = await this.store.all<MessageRow>(
          `INSERT INTO chat_messages (id, seq, user_id, username, text, type, donation_pence, donation_currency, staff, created_at) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")} RETURNING ${COLUMNS}, seq`,
          ...params,
        );
        rows.push(...inserted.sort(bySeq));
      }
      if (counted) await this.store.run("UPDATE event_counters SET value = ? WHERE name = 'chat_seq'", base + messages.length);
      return rows;
    });
  }

  /** A line another instance stored: kept with the recent ones (once, should a reload have read it already). */
  remember(line: ChatMessage): void {
    if (this.recent.some((m) => m.id === line.id)) return;
    this.keep([line]);
  }

  /** New lines joined to the recent ones in memory, the oldest beyond the history's length let go. */
  private keep(lines: ChatMessage[]): void {
    this.recent.push(...lines);
    if (this.recent.length > CHAT_HISTORY_LIMIT) this.recent.splice(0, this.recent.length - CHAT_HISTORY_LIMIT);
    this.revision++;
  }

  /** Notes when a line was pinned, unpinned or deleted: the replay's chat shows it as it happened. */
  private async noteEvent(messageId: string, kind: "pin" | "unpin" | "delete"): Promise<void> {
    await this.store.run("INSERT INTO chat_line_events (message_id, kind, at) VALUES (?, ?, ?)", messageId, kind, Date.now());
  }

  /**
   * Every line said between two times, as it was when said (unpinned), oldest first; and what happened to
   * them in that time. A line moderators took down — deleted, its author kicked or banned, or by a name
   * banned now (a line stored as the ban came) — keeps its place and time, never its words or its author.
   */
  async asItHappened(from: number, to: number, limit: number): Promise<ReplayChat> {
    const rows = await this.store.all<MessageRow & { removed: number }>(
      `SELECT ${COLUMNS}, CASE WHEN deleted = 1 OR (type <> 'system' AND EXISTS (SELECT 1 FROM banned_users b WHERE b.username = chat_messages.username COLLATE NOCASE)) THEN 1 ELSE 0 END AS removed
         FROM chat_messages WHERE created_at >= ? AND created_at <= ? ORDER BY seq LIMIT ?`,
      from,
      to,
      limit,
    );
    const events = await this.store.all<{ message_id: string; kind: "pin" | "unpin" | "delete"; at: number }>(
      "SELECT message_id, kind, at FROM chat_line_events WHERE at >= ? AND at <= ? ORDER BY at, id",
      from,
      to,
    );
    return {
      lines: rows.map((r) => (Number(r.removed) === 1 ? removedLine(r) : { ...toMessage(r), isPinned: false })),
      events: events.map((e) => ({ messageId: e.message_id, kind: e.kind, at: new Date(Number(e.at)).toISOString() })),
    };
  }

  /** The last `limit` visible messages, oldest first (from memory). */
  history(limit = CHAT_HISTORY_LIMIT): ChatMessage[] {
    return this.recent.slice(-limit);
  }

  /** The pinned message, if there is one. */
  async pinned(): Promise<ChatMessage | null> {
    const row = await this.store.get<MessageRow>(`SELECT ${COLUMNS} FROM chat_messages WHERE is_pinned = 1 AND deleted = 0`);
    return row ? toMessage(row) : null;
  }

  async find(id: string): Promise<ChatMessage | null> {
    const row = await this.store.get<MessageRow>(`SELECT ${COLUMNS} FROM chat_messages WHERE id = ? AND deleted = 0`, id);
    return row ? toMessage(row) : null;
  }

  /** Hides one message from everyone; false when it was not there (or already gone). */
  async delete(id: string): Promise<boolean> {
    const deleted = await this.store.tx(async () => {
      const done = (await this.store.run("UPDATE chat_messages SET deleted = 1, is_pinned = 0 WHERE id = ? AND deleted = 0", id)).changes > 0;
      if (done) await this.noteEvent(id, "delete");
      return done;
    });
    if (deleted) await this.load();
    return deleted;
  }

  /**
   * Hides every message of a kicked or banned user, as the clients do. Under the chat's lock, so a line
   * being stored at that moment is stored first and hidden with the others.
   */
  async deleteAllBy(username: string): Promise<void> {
    await this.store.tx(async () => {
      await this.store.lock("chat_messages");
      const gone = await this.store.all<{ id: string }>(
        "UPDATE chat_messages SET deleted = 1, is_pinned = 0 WHERE username = ? COLLATE NOCASE AND deleted = 0 RETURNING id",
        username,
      );
      for (const { id } of gone) await this.noteEvent(id, "delete");
    });
    await this.load();
  }

  /**
   * Pins an unpinned message (one pin at a time: any other pinned message is unpinned) or unpins a pinned
   * one. Returns every message whose state changed, or null when the message is not there.
   */
  async togglePin(id: string): Promise<ChatMessage[] | null> {
    const changed = await this.store.tx(async () => {
      await this.store.lock("chat_pins");
      const target = await this.find(id);
      if (!target) return null;
      if (target.isPinned) {
        await this.store.run("UPDATE chat_messages SET is_pinned = 0 WHERE id = ?", id);
        await this.noteEvent(id, "unpin");
        return [{ ...target, isPinned: false }];
      }
      const unpinned = await this.store.all<MessageRow>(`UPDATE chat_messages SET is_pinned = 0 WHERE is_pinned = 1 AND id != ? RETURNING ${COLUMNS}`, id);
      await this.store.run("UPDATE chat_messages SET is_pinned = 1 WHERE id = ?", id);
      for (const row of unpinned) await this.noteEvent(row.id, "unpin");
      await this.noteEvent(id, "pin");
      return [...unpinned.map(toMessage), { ...target, isPinned: true }];
    });
    if (changed) await this.load();
    return changed;
  }
}
