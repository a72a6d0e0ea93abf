import { DEFAULT_EVENT_TITLE, DEFAULT_THUMBNAIL_URL } from "../contracts/event-defaults.ts";
import { nameSkeleton } from "../modules/access/name-skeleton.ts";
import type { Queries } from "./store.ts";

const DEFAULT_DONATION_GOAL_PENCE = 5000;
const FIVE_DAYS_MS = 5 * 24 * 60 * 60 * 1000;

export interface Migration {
  version: number;
  name: string;
  /** The schema change in each engine's words (the same tables, columns and constraints; empty: none on that engine). */
  sqlite: string;
  postgres: string;
  /** Rows the change needs, written the same way on both engines. */
  seed?: (q: Queries) => Promise<void>;
}

/**
 * Numbered, append-only. Each runs in its own transaction before the server listens. Times are epoch ms
 * (BIGINT on PostgreSQL); booleans are 0/1 integers on both; names compared without case are
 * `COLLATE NOCASE` on SQLite and `citext` on PostgreSQL.
 */
export const migrations: Migration[] = [
  {
    version: 1,
    name: "initial schema",
    sqlite: `
        CREATE TABLE admins (
          id INTEGER PRIMARY KEY,
          username TEXT NOT NULL UNIQUE COLLATE NOCASE,
          email TEXT NOT NULL,
          password_hash TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE admin_sessions (
          id TEXT PRIMARY KEY,
          admin_id INTEGER NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL
        );
        CREATE INDEX admin_sessions_admin ON admin_sessions(admin_id);
        CREATE TABLE access_codes (
          id INTEGER PRIMARY KEY,
          code TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL CHECK (kind IN ('SKP', 'MOD', 'SCP')),
          used INTEGER NOT NULL DEFAULT 0 CHECK (used IN (0, 1)),
          revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1)),
          email TEXT,
          device_fingerprint TEXT,
          payment_id INTEGER UNIQUE REFERENCES payments(id),
          created_at INTEGER NOT NULL
        );
        CREATE INDEX access_codes_email ON access_codes(email COLLATE NOCASE);
        CREATE TABLE users (
          id INTEGER PRIMARY KEY,
          username TEXT NOT NULL UNIQUE COLLATE NOCASE,
          email TEXT,
          access_code_id INTEGER REFERENCES access_codes(id) ON DELETE SET NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX users_access_code ON users(access_code_id);
        CREATE TABLE viewer_sessions (
          id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          access_code_id INTEGER NOT NULL REFERENCES access_codes(id) ON DELETE CASCADE,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL
        );
        CREATE INDEX viewer_sessions_code ON viewer_sessions(access_code_id);
        CREATE TABLE livestream_settings (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          event_title TEXT NOT NULL,
          thumbnail_url TEXT NOT NULL,
          embed_url TEXT NOT NULL DEFAULT '',
          donation_goal INTEGER NOT NULL CHECK (donation_goal >= 100),
          is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
          start_date INTEGER NOT NULL,
          fake_viewers_enabled INTEGER NOT NULL DEFAULT 0 CHECK (fake_viewers_enabled IN (0, 1)),
          fake_viewers_target INTEGER NOT NULL DEFAULT 0 CHECK (fake_viewers_target BETWEEN 0 AND 5000),
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE banned_users (
          id INTEGER PRIMARY KEY,
          username TEXT NOT NULL UNIQUE COLLATE NOCASE,
          access_code_id INTEGER REFERENCES access_codes(id) ON DELETE SET NULL,
          banned_by TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX banned_users_code ON banned_users(access_code_id);
        CREATE TABLE chat_messages (
          id TEXT PRIMARY KEY,
          seq INTEGER NOT NULL UNIQUE,
          user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
          username TEXT NOT NULL,
          text TEXT NOT NULL,
          type TEXT NOT NULL CHECK (type IN ('user', 'system', 'donation')),
          is_pinned INTEGER NOT NULL DEFAULT 0 CHECK (is_pinned IN (0, 1)),
          donation_pence INTEGER,
          deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
          created_at INTEGER NOT NULL
        );
        CREATE INDEX chat_messages_username ON chat_messages(username COLLATE NOCASE);
        CREATE TABLE event_counters (
          name TEXT PRIMARY KEY,
          value INTEGER NOT NULL
        );
        CREATE TABLE payments (
          id INTEGER PRIMARY KEY,
          intent_id TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL CHECK (kind IN ('access', 'donation')),
          amount INTEGER NOT NULL CHECK (amount > 0),
          currency TEXT NOT NULL DEFAULT 'gbp',
          status TEXT NOT NULL,
          email TEXT,
          viewer_session_id TEXT,
          user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
          username TEXT,
          site_url TEXT,
          fulfilled INTEGER NOT NULL DEFAULT 0 CHECK (fulfilled IN (0, 1)),
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE demo_payment_intents (
          id TEXT PRIMARY KEY,
          client_secret TEXT NOT NULL UNIQUE,
          amount INTEGER NOT NULL CHECK (amount > 0),
          currency TEXT NOT NULL,
          status TEXT NOT NULL,
          metadata TEXT NOT NULL,
          email TEXT,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE donations (
          id INTEGER PRIMARY KEY,
          payment_id INTEGER NOT NULL UNIQUE REFERENCES payments(id),
          user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
          username TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount > 0),
          created_at INTEGER NOT NULL
        );
        CREATE TABLE webhook_events (
          id TEXT PRIMARY KEY,
          type TEXT NOT NULL,
          received_at INTEGER NOT NULL
        );
        CREATE TABLE email_queue (
          id INTEGER PRIMARY KEY,
          dedupe_key TEXT UNIQUE,
          to_address TEXT NOT NULL,
          subject TEXT NOT NULL,
          text_body TEXT NOT NULL,
          html_body TEXT,
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at INTEGER NOT NULL,
          last_error TEXT,
          created_at INTEGER NOT NULL,
          sent_at INTEGER
        );
        CREATE INDEX email_queue_due ON email_queue(status, next_attempt_at);
        CREATE TABLE stats_samples (
          sampled_at INTEGER PRIMARY KEY,
          viewer_count INTEGER NOT NULL,
          donation_total INTEGER NOT NULL
        );
      `,
    postgres: `
        CREATE EXTENSION IF NOT EXISTS citext;
        CREATE TABLE admins (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          username CITEXT NOT NULL UNIQUE,
          email TEXT NOT NULL,
          password_hash TEXT NOT NULL,
          created_at BIGINT NOT NULL
        );
        CREATE TABLE admin_sessions (
          id TEXT PRIMARY KEY,
          admin_id BIGINT NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL
        );
        CREATE INDEX admin_sessions_admin ON admin_sessions(admin_id);
        CREATE TABLE payments (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          intent_id TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL CHECK (kind IN ('access', 'donation')),
          amount INTEGER NOT NULL CHECK (amount > 0),
          currency TEXT NOT NULL DEFAULT 'gbp',
          status TEXT NOT NULL,
          email TEXT,
          viewer_session_id TEXT,
          user_id BIGINT,
          username TEXT,
          site_url TEXT,
          fulfilled INTEGER NOT NULL DEFAULT 0 CHECK (fulfilled IN (0, 1)),
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL
        );
        CREATE TABLE access_codes (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          code TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL CHECK (kind IN ('SKP', 'MOD', 'SCP')),
          used INTEGER NOT NULL DEFAULT 0 CHECK (used IN (0, 1)),
          revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1)),
          email CITEXT,
          device_fingerprint TEXT,
          payment_id BIGINT UNIQUE REFERENCES payments(id),
          created_at BIGINT NOT NULL
        );
        CREATE INDEX access_codes_email ON access_codes(email);
        CREATE TABLE users (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          username CITEXT NOT NULL UNIQUE,
          email TEXT,
          access_code_id BIGINT REFERENCES access_codes(id) ON DELETE SET NULL,
          created_at BIGINT NOT NULL
        );
        CREATE INDEX users_access_code ON users(access_code_id);
        ALTER TABLE payments ADD FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL;
        CREATE TABLE viewer_sessions (
          id TEXT PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          access_code_id BIGINT NOT NULL REFERENCES access_codes(id) ON DELETE CASCADE,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL
        );
        CREATE INDEX viewer_sessions_code ON viewer_sessions(access_code_id);
        CREATE TABLE livestream_settings (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          event_title TEXT NOT NULL,
          thumbnail_url TEXT NOT NULL,
          embed_url TEXT NOT NULL DEFAULT '',
          donation_goal INTEGER NOT NULL CHECK (donation_goal >= 100),
          is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
          start_date BIGINT NOT NULL,
          fake_viewers_enabled INTEGER NOT NULL DEFAULT 0 CHECK (fake_viewers_enabled IN (0, 1)),
          fake_viewers_target INTEGER NOT NULL DEFAULT 0 CHECK (fake_viewers_target BETWEEN 0 AND 5000),
          updated_at BIGINT NOT NULL
        );
        CREATE TABLE banned_users (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          username CITEXT NOT NULL UNIQUE,
          access_code_id BIGINT REFERENCES access_codes(id) ON DELETE SET NULL,
          banned_by TEXT,
          created_at BIGINT NOT NULL
        );
        CREATE INDEX banned_users_code ON banned_users(access_code_id);
        CREATE TABLE chat_messages (
          id TEXT PRIMARY KEY,
          seq BIGINT NOT NULL UNIQUE,
          user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
          username CITEXT NOT NULL,
          text TEXT NOT NULL,
          type TEXT NOT NULL CHECK (type IN ('user', 'system', 'donation')),
          is_pinned INTEGER NOT NULL DEFAULT 0 CHECK (is_pinned IN (0, 1)),
          donation_pence INTEGER,
          deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
          created_at BIGINT NOT NULL
        );
        CREATE INDEX chat_messages_username ON chat_messages(username);
        CREATE TABLE event_counters (
          name TEXT PRIMARY KEY,
          value BIGINT NOT NULL
        );
        CREATE TABLE demo_payment_intents (
          id TEXT PRIMARY KEY,
          client_secret TEXT NOT NULL UNIQUE,
          amount INTEGER NOT NULL CHECK (amount > 0),
          currency TEXT NOT NULL,
          status TEXT NOT NULL,
          metadata TEXT NOT NULL,
          email TEXT,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL
        );
        CREATE TABLE donations (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          payment_id BIGINT NOT NULL UNIQUE REFERENCES payments(id),
          user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
          username TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount > 0),
          created_at BIGINT NOT NULL
        );
        CREATE TABLE webhook_events (
          id TEXT PRIMARY KEY,
          type TEXT NOT NULL,
          received_at BIGINT NOT NULL
        );
        CREATE TABLE email_queue (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          dedupe_key TEXT UNIQUE,
          to_address TEXT NOT NULL,
          subject TEXT NOT NULL,
          text_body TEXT NOT NULL,
          html_body TEXT,
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at BIGINT NOT NULL,
          last_error TEXT,
          created_at BIGINT NOT NULL,
          sent_at BIGINT
        );
        CREATE INDEX email_queue_due ON email_queue(status, next_attempt_at);
        CREATE TABLE stats_samples (
          sampled_at BIGINT PRIMARY KEY,
          viewer_count INTEGER NOT NULL,
          donation_total BIGINT NOT NULL
        );
      `,
    async seed(q) {
      const now = Date.now();
      await q.run(
        `INSERT INTO livestream_settings (id, event_title, thumbnail_url, donation_goal, start_date, updated_at)
         VALUES (1, ?, ?, ?, ?, ?)`,
        DEFAULT_EVENT_TITLE,
        DEFAULT_THUMBNAIL_URL,
        DEFAULT_DONATION_GOAL_PENCE,
        now + FIVE_DAYS_MS,
        now,
      );
    },
  },
  {
    version: 2,
    name: "stream source",
    // One row: the kind of source and its fields as JSON (secrets included; the API never returns them).
    // The embed kind's address stays in livestream_settings.embed_url, which the settings form edits too.
    sqlite: `
        CREATE TABLE stream_source (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          kind TEXT NOT NULL CHECK (kind IN ('embed', 'mux', 'cloudflare', 'bunny', 'hls')),
          fields TEXT NOT NULL,
          watermark INTEGER NOT NULL CHECK (watermark IN (0, 1)),
          updated_at INTEGER NOT NULL
        );
      `,
    postgres: `
        CREATE TABLE stream_source (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          kind TEXT NOT NULL CHECK (kind IN ('embed', 'mux', 'cloudflare', 'bunny', 'hls')),
          fields TEXT NOT NULL,
          watermark INTEGER NOT NULL CHECK (watermark IN (0, 1)),
          updated_at BIGINT NOT NULL
        );
      `,
    async seed(q) {
      await q.run("INSERT INTO stream_source (id, kind, fields, watermark, updated_at) VALUES (1, 'embed', '{}', 0, ?)", Date.now());
    },
  },
  {
    version: 3,
    name: "refunds, disputes, the event's price and currency",
    sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN access_price INTEGER NOT NULL DEFAULT 100 CHECK (access_price BETWEEN 1 AND 100000);
        ALTER TABLE livestream_settings ADD COLUMN currency TEXT NOT NULL DEFAULT 'gbp';
        CREATE INDEX payments_created ON payments(created_at);
        -- Each refund once, by its id (the admin's refunds and those seen in charge events).
        CREATE TABLE refunds (
          id TEXT PRIMARY KEY,
          intent_id TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount > 0),
          created_at INTEGER NOT NULL
        );
        CREATE INDEX refunds_intent ON refunds(intent_id);
        -- The charge's own cumulative amount_refunded, the highest seen (events may come in any order).
        CREATE TABLE charge_refunds (
          intent_id TEXT PRIMARY KEY,
          amount_refunded INTEGER NOT NULL CHECK (amount_refunded >= 0),
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE disputes (
          id TEXT PRIMARY KEY,
          intent_id TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount >= 0),
          status TEXT NOT NULL,
          closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX disputes_intent ON disputes(intent_id);
        -- Every payment with what was refunded and what an open or lost dispute holds back.
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            MIN(p.amount, MAX(
              COALESCE((SELECT amount_refunded FROM charge_refunds c WHERE c.intent_id = p.intent_id), 0),
              COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id), 0))) AS refunded_amount,
            COALESCE((SELECT SUM(amount) FROM disputes d WHERE d.intent_id = p.intent_id AND d.status NOT IN ('won', 'warning_closed')), 0) AS disputed_amount,
            (SELECT status FROM disputes d WHERE d.intent_id = p.intent_id ORDER BY d.closed, d.updated_at DESC LIMIT 1) AS dispute_status,
            (SELECT MAX(closed) FROM disputes d WHERE d.intent_id = p.intent_id) AS dispute_closed
          FROM payments p;
      `,
    postgres: `
        ALTER TABLE livestream_settings ADD COLUMN access_price INTEGER NOT NULL DEFAULT 100 CHECK (access_price BETWEEN 1 AND 100000);
        ALTER TABLE livestream_settings ADD COLUMN currency TEXT NOT NULL DEFAULT 'gbp';
        CREATE INDEX payments_created ON payments(created_at);
        -- Each refund once, by its id (the admin's refunds and those seen in charge events).
        CREATE TABLE refunds (
          id TEXT PRIMARY KEY,
          intent_id TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount > 0),
          created_at BIGINT NOT NULL
        );
        CREATE INDEX refunds_intent ON refunds(intent_id);
        -- The charge's own cumulative amount_refunded, the highest seen (events may come in any order).
        CREATE TABLE charge_refunds (
          intent_id TEXT PRIMARY KEY,
          amount_refunded INTEGER NOT NULL CHECK (amount_refunded >= 0),
          updated_at BIGINT NOT NULL
        );
        CREATE TABLE disputes (
          id TEXT PRIMARY KEY,
          intent_id TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount >= 0),
          status TEXT NOT NULL,
          closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL
        );
        CREATE INDEX disputes_intent ON disputes(intent_id);
        -- Every payment with what was refunded and what an open or lost dispute holds back.
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            LEAST(p.amount, GREATEST(
              COALESCE((SELECT amount_refunded FROM charge_refunds c WHERE c.intent_id = p.intent_id), 0),
              CAST(COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id), 0) AS BIGINT))) AS refunded_amount,
            CAST(COALESCE((SELECT SUM(amount) FROM disputes d WHERE d.intent_id = p.intent_id AND d.status NOT IN ('won', 'warning_closed')), 0) AS BIGINT) AS disputed_amount,
            (SELECT status FROM disputes d WHERE d.intent_id = p.intent_id ORDER BY d.closed, d.updated_at DESC LIMIT 1) AS dispute_status,
            (SELECT MAX(closed) FROM disputes d WHERE d.intent_id = p.intent_id) AS dispute_closed
          FROM payments p;
      `,
  },
  {
    version: 4,
    name: "chat moderation: rules, timeouts, moderation log, panel-made moderators, ban reasons",
    sqlite: `
        CREATE TABLE chat_rules (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          slow_mode_seconds INTEGER NOT NULL DEFAULT 0 CHECK (slow_mode_seconds BETWEEN 0 AND 120),
          blocked_terms TEXT NOT NULL DEFAULT '[]',
          filter_action TEXT NOT NULL DEFAULT 'block' CHECK (filter_action IN ('block', 'mask')),
          block_links INTEGER NOT NULL DEFAULT 0 CHECK (block_links IN (0, 1)),
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE chat_timeouts (
          id INTEGER PRIMARY KEY,
          user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
          username TEXT NOT NULL COLLATE NOCASE,
          access_code_id INTEGER REFERENCES access_codes(id) ON DELETE SET NULL,
          until INTEGER NOT NULL,
          timed_out_by TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX chat_timeouts_until ON chat_timeouts(until);
        CREATE TABLE moderation_log (
          id INTEGER PRIMARY KEY,
          action TEXT NOT NULL,
          moderator TEXT,
          target TEXT,
          message_text TEXT,
          detail TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX moderation_log_action ON moderation_log(action, id);
        CREATE TABLE chat_moderators (
          user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          granted_by TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        ALTER TABLE banned_users ADD COLUMN reason TEXT;
      `,
    postgres: `
        CREATE TABLE chat_rules (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          slow_mode_seconds INTEGER NOT NULL DEFAULT 0 CHECK (slow_mode_seconds BETWEEN 0 AND 120),
          blocked_terms TEXT NOT NULL DEFAULT '[]',
          filter_action TEXT NOT NULL DEFAULT 'block' CHECK (filter_action IN ('block', 'mask')),
          block_links INTEGER NOT NULL DEFAULT 0 CHECK (block_links IN (0, 1)),
          updated_at BIGINT NOT NULL
        );
        CREATE TABLE chat_timeouts (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          user_id BIGINT REFERENCES users(id) ON DELETE CASCADE,
          username CITEXT NOT NULL,
          access_code_id BIGINT REFERENCES access_codes(id) ON DELETE SET NULL,
          until BIGINT NOT NULL,
          timed_out_by TEXT NOT NULL,
          created_at BIGINT NOT NULL
        );
        CREATE INDEX chat_timeouts_until ON chat_timeouts(until);
        CREATE TABLE moderation_log (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          action TEXT NOT NULL,
          moderator TEXT,
          target TEXT,
          message_text TEXT,
          detail TEXT,
          created_at BIGINT NOT NULL
        );
        CREATE INDEX moderation_log_action ON moderation_log(action, id);
        CREATE TABLE chat_moderators (
          user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          granted_by TEXT NOT NULL,
          created_at BIGINT NOT NULL
        );
        ALTER TABLE banned_users ADD COLUMN reason TEXT;
      `,
    async seed(q) {
      await q.run("INSERT INTO chat_rules (id, updated_at) VALUES (1, ?)", Date.now());
    },
  },
  {
    version: 5,
    name: "mail claims apart from retry times",
    // A worker takes a message until `claimed_until` (epoch ms); 0 when no one holds it.
    sqlite: `ALTER TABLE email_queue ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;`,
    postgres: `ALTER TABLE email_queue ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;`,
  },
  {
    version: 6,
    name: "uploaded images in the database",
    // Named by their content; every server on the database serves them (files in DATA_DIR/uploads from
    // before are still served from there).
    sqlite: `CREATE TABLE uploads (name TEXT PRIMARY KEY, content_type TEXT NOT NULL, bytes BLOB NOT NULL, created_at INTEGER NOT NULL);`,
    postgres: `CREATE TABLE uploads (name TEXT PRIMARY KEY, content_type TEXT NOT NULL, bytes BYTEA NOT NULL, created_at BIGINT NOT NULL);`,
  },
  {
    version: 7,
    name: "stats samples keep their currency",
    // The donation total a sample took counts one currency, the event's then; samples from before are NULL.
    sqlite: `ALTER TABLE stats_samples ADD COLUMN currency TEXT;`,
    postgres: `ALTER TABLE stats_samples ADD COLUMN currency TEXT;`,
  },
  {
    version: 8,
    name: "refunds that fail, inquiries that hold no money",
    // A refund's status as Stripe last told it: a failed or canceled one (its money came back to the
    // account, not to the buyer) no longer counts. `refund_created` and `failed_at` are Stripe's times
    // (epoch seconds), as is the charge's `observed_at`: the charge's cumulative refund as of that moment,
    // less the refunds it counted that failed after it. A dispute's `observed_at` is its latest event's
    // time; an inquiry (status `warning_…`) takes no money until it becomes a dispute. Rows from before
    // count as seen when last written.
    sqlite: `
        ALTER TABLE refunds ADD COLUMN status TEXT NOT NULL DEFAULT 'succeeded';
        ALTER TABLE refunds ADD COLUMN failure_reason TEXT;
        ALTER TABLE refunds ADD COLUMN refund_created INTEGER;
        ALTER TABLE refunds ADD COLUMN failed_at INTEGER;
        ALTER TABLE charge_refunds ADD COLUMN observed_at INTEGER NOT NULL DEFAULT 0;
        UPDATE charge_refunds SET observed_at = updated_at / 1000;
        ALTER TABLE disputes ADD COLUMN observed_at INTEGER NOT NULL DEFAULT 0;
        UPDATE disputes SET observed_at = updated_at / 1000;
        DROP VIEW payment_ledger;
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            MIN(p.amount, MAX(
              COALESCE((SELECT c.amount_refunded - COALESCE((SELECT SUM(f.amount) FROM refunds f WHERE f.intent_id = c.intent_id
                  AND f.status IN ('failed', 'canceled') AND COALESCE(f.refund_created, 0) <= c.observed_at AND f.failed_at >= c.observed_at), 0)
                FROM charge_refunds c WHERE c.intent_id = p.intent_id), 0),
              COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status NOT IN ('failed', 'canceled')), 0))) AS refunded_amount,
            COALESCE((SELECT SUM(amount) FROM disputes d WHERE d.intent_id = p.intent_id AND d.status <> 'won' AND d.status NOT LIKE 'warning%'), 0) AS disputed_amount,
            (SELECT status FROM disputes d WHERE d.intent_id = p.intent_id ORDER BY d.closed, d.updated_at DESC LIMIT 1) AS dispute_status,
            (SELECT MAX(closed) FROM disputes d WHERE d.intent_id = p.intent_id) AS dispute_closed,
            COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status IN ('failed', 'canceled')), 0) AS failed_refund_amount,
            (SELECT COALESCE(r.failure_reason, r.status) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status IN ('failed', 'canceled') ORDER BY r.failed_at DESC LIMIT 1) AS refund_failure
          FROM payments p;
      `,
    postgres: `
        ALTER TABLE refunds ADD COLUMN status TEXT NOT NULL DEFAULT 'succeeded';
        ALTER TABLE refunds ADD COLUMN failure_reason TEXT;
        ALTER TABLE refunds ADD COLUMN refund_created BIGINT;
        ALTER TABLE refunds ADD COLUMN failed_at BIGINT;
        ALTER TABLE charge_refunds ADD COLUMN observed_at BIGINT NOT NULL DEFAULT 0;
        UPDATE charge_refunds SET observed_at = updated_at / 1000;
        ALTER TABLE disputes ADD COLUMN observed_at BIGINT NOT NULL DEFAULT 0;
        UPDATE disputes SET observed_at = updated_at / 1000;
        DROP VIEW payment_ledger;
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            LEAST(p.amount, GREATEST(
              COALESCE((SELECT c.amount_refunded - CAST(COALESCE((SELECT SUM(f.amount) FROM refunds f WHERE f.intent_id = c.intent_id
                  AND f.status IN ('failed', 'canceled') AND COALESCE(f.refund_created, 0) <= c.observed_at AND f.failed_at >= c.observed_at), 0) AS BIGINT)
                FROM charge_refunds c WHERE c.intent_id = p.intent_id), 0),
              CAST(COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status NOT IN ('failed', 'canceled')), 0) AS BIGINT))) AS refunded_amount,
            CAST(COALESCE((SELECT SUM(amount) FROM disputes d WHERE d.intent_id = p.intent_id AND d.status <> 'won' AND d.status NOT LIKE 'warning%'), 0) AS BIGINT) AS disputed_amount,
            (SELECT status FROM disputes d WHERE d.intent_id = p.intent_id ORDER BY d.closed, d.updated_at DESC LIMIT 1) AS dispute_status,
            (SELECT MAX(closed) FROM disputes d WHERE d.intent_id = p.intent_id) AS dispute_closed,
            CAST(COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status IN ('failed', 'canceled')), 0) AS BIGINT) AS failed_refund_amount,
            (SELECT COALESCE(r.failure_reason, r.status) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status IN ('failed', 'canceled') ORDER BY r.failed_at DESC LIMIT 1) AS refund_failure
          FROM payments p;
      `,
  },
  {
    version: 9,
    name: "the ledger view joins its sums on PostgreSQL",
    // The same ledger, computed by joining each table's sums per payment rather than asking a subquery per
    // payment and column: PostgreSQL ran migration 8's view as nine lookups per row (the admin's Payments
    // list of 6,250 payments in ~160 ms, ~20 ms this way); a lookup of one payment still reads only its
    // own rows. SQLite answers the per-row subqueries from its indexes in ~17 ms and keeps migration 8's.
    sqlite: ``,
    postgres: `
        DROP VIEW payment_ledger;
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            LEAST(p.amount, GREATEST(COALESCE(c.amount_refunded - COALESCE(cf.failed_since, 0), 0), COALESCE(r.counted, 0))) AS refunded_amount,
            COALESCE(d.held, 0) AS disputed_amount,
            d.status AS dispute_status,
            d.closed AS dispute_closed,
            COALESCE(r.failed, 0) AS failed_refund_amount,
            r.failure AS refund_failure
          FROM payments p
          LEFT JOIN charge_refunds c ON c.intent_id = p.intent_id
          -- The refunds the charge's word counted that failed after it (see migration 8).
          LEFT JOIN LATERAL (SELECT CAST(SUM(f.amount) AS BIGINT) AS failed_since FROM refunds f WHERE f.intent_id = c.intent_id
              AND f.status IN ('failed', 'canceled') AND COALESCE(f.refund_created, 0) <= c.observed_at AND f.failed_at >= c.observed_at) cf ON TRUE
          LEFT JOIN (SELECT intent_id,
                CAST(SUM(amount) FILTER (WHERE status NOT IN ('failed', 'canceled')) AS BIGINT) AS counted,
                CAST(SUM(amount) FILTER (WHERE status IN ('failed', 'canceled')) AS BIGINT) AS failed,
                (ARRAY_AGG(COALESCE(failure_reason, status) ORDER BY failed_at DESC) FILTER (WHERE status IN ('failed', 'canceled')))[1] AS failure
              FROM refunds GROUP BY intent_id) r ON r.intent_id = p.intent_id
          LEFT JOIN (SELECT intent_id,
                CAST(SUM(amount) FILTER (WHERE status <> 'won' AND status NOT LIKE 'warning%') AS BIGINT) AS held,
                (ARRAY_AGG(status ORDER BY closed, updated_at DESC))[1] AS status,
                MAX(closed) AS closed
              FROM disputes GROUP BY intent_id) d ON d.intent_id = p.intent_id;
      `,
  },
  {
    version: 10,
    name: "the organiser's details",
    // Shown in the footer, the purchase e-mail and the device refusal; "" while not set. social_links is
    // a JSON object of profile links by network.
    sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN organizer_name TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN contact_email TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN privacy_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN terms_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN social_links TEXT NOT NULL DEFAULT '{}';
      `,
    postgres: `
        ALTER TABLE livestream_settings ADD COLUMN organizer_name TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN contact_email TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN privacy_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN terms_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN social_links TEXT NOT NULL DEFAULT '{}';
      `,
  },
  {
    version: 11,
    name: "a donation line keeps its currency",
    // A donation's chat line shows its amount in the currency it was paid in, not the event's currency of
    // the day. Lines from before: the currency of the donation of that amount by that name nearest in time.
    sqlite: `
        ALTER TABLE chat_messages ADD COLUMN donation_currency TEXT;
        UPDATE chat_messages SET donation_currency = (SELECT p.currency FROM donations d JOIN payments p ON p.id = d.payment_id
            WHERE d.amount = chat_messages.donation_pence AND lower(d.username) = lower(chat_messages.username)
            ORDER BY ABS(d.created_at - chat_messages.created_at) LIMIT 1)
          WHERE type = 'donation';
      `,
    postgres: `
        ALTER TABLE chat_messages ADD COLUMN donation_currency TEXT;
        UPDATE chat_messages SET donation_currency = (SELECT p.currency FROM donations d JOIN payments p ON p.id = d.payment_id
            WHERE d.amount = chat_messages.donation_pence AND lower(d.username) = lower(CAST(chat_messages.username AS TEXT))
            ORDER BY ABS(d.created_at - chat_messages.created_at) LIMIT 1)
          WHERE type = 'donation';
      `,
  },
  {
    version: 12,
    name: "look-alike names, staff lines, timeouts an admin set",
    // `users.name_key` is the name's skeleton (src/modules/access/name-skeleton.ts): no two viewers hold
    // names that look alike (the earlier of two such names from before keeps it, the later has none).
    // `chat_messages.staff` marks the lines an admin or a moderator wrote, set by the server (lines from
    // before: by an admin's name, or by a moderator's user). `chat_timeouts.by_admin`: a moderator may
    // not lift a timeout an admin set.
    sqlite: `
        ALTER TABLE users ADD COLUMN name_key TEXT;
        CREATE UNIQUE INDEX users_name_key ON users(name_key);
        ALTER TABLE chat_messages ADD COLUMN staff TEXT CHECK (staff IN ('admin', 'moderator'));
        UPDATE chat_messages SET staff = 'admin' WHERE type = 'user' AND username COLLATE NOCASE IN (SELECT username FROM admins);
        UPDATE chat_messages SET staff = 'moderator' WHERE type = 'user' AND staff IS NULL AND user_id IN (
          SELECT u.id FROM users u JOIN access_codes c ON c.id = u.access_code_id WHERE c.kind = 'MOD' UNION SELECT user_id FROM chat_moderators);
        ALTER TABLE chat_timeouts ADD COLUMN by_admin INTEGER NOT NULL DEFAULT 0 CHECK (by_admin IN (0, 1));
        UPDATE chat_timeouts SET by_admin = 1 WHERE timed_out_by COLLATE NOCASE IN (SELECT username FROM admins);
      `,
    postgres: `
        ALTER TABLE users ADD COLUMN name_key TEXT;
        CREATE UNIQUE INDEX users_name_key ON users(name_key);
        ALTER TABLE chat_messages ADD COLUMN staff TEXT CHECK (staff IN ('admin', 'moderator'));
        UPDATE chat_messages SET staff = 'admin' WHERE type = 'user' AND username IN (SELECT username FROM admins);
        UPDATE chat_messages SET staff = 'moderator' WHERE type = 'user' AND staff IS NULL AND user_id IN (
          SELECT u.id FROM users u JOIN access_codes c ON c.id = u.access_code_id WHERE c.kind = 'MOD' UNION SELECT user_id FROM chat_moderators);
        ALTER TABLE chat_timeouts ADD COLUMN by_admin INTEGER NOT NULL DEFAULT 0 CHECK (by_admin IN (0, 1));
        UPDATE chat_timeouts SET by_admin = 1 WHERE CAST(timed_out_by AS CITEXT) IN (SELECT username FROM admins);
      `,
    async seed(q) {
      const taken = new Set<string>();
      for (const user of await q.all<{ id: number; username: string }>("SELECT id, username FROM users ORDER BY id")) {
        const key = nameSkeleton(user.username);
        if (taken.has(key)) continue;
        taken.add(key);
        await q.run("UPDATE users SET name_key = ? WHERE id = ?", key, user.id);
      }
    },
  },
  {
    version: 13,
    name: "the built-in ingest: its stream source kind and stream key",
    // SQLite cannot change a CHECK in place: the one-row table is made anew with the "ingest" kind allowed.
    // `ingest_key` holds OBS's stream key: its SHA-256 (what a publish is checked against, on any instance)
    // and the key sealed with AES-256-GCM under a key kept outside the database (src/modules/ingest/key.ts).
    sqlite: `
        CREATE TABLE stream_source_next (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          kind TEXT NOT NULL CHECK (kind IN ('embed', 'mux', 'cloudflare', 'bunny', 'hls', 'ingest')),
          fields TEXT NOT NULL,
          watermark INTEGER NOT NULL CHECK (watermark IN (0, 1)),
          updated_at INTEGER NOT NULL
        );
        INSERT INTO stream_source_next (id, kind, fields, watermark, updated_at) SELECT id, kind, fields, watermark, updated_at FROM stream_source;
        DROP TABLE stream_source;
        ALTER TABLE stream_source_next RENAME TO stream_source;
        CREATE TABLE ingest_key (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          key_hash TEXT NOT NULL,
          sealed TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
      `,
    postgres: `
        ALTER TABLE stream_source DROP CONSTRAINT stream_source_kind_check;
        ALTER TABLE stream_source ADD CONSTRAINT stream_source_kind_check CHECK (kind IN ('embed', 'mux', 'cloudflare', 'bunny', 'hls', 'ingest'));
        CREATE TABLE ingest_key (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          key_hash TEXT NOT NULL,
          sealed TEXT NOT NULL,
          created_at BIGINT NOT NULL
        );
      `,
  },
  {
    version: 14,
    name: "the event's calendar entry",
    // `duration_minutes` ends the calendar entry (and the search engines' event) after the start.
    // `calendar_sequence` is the entry's SEQUENCE (RFC 5545): it grows when the start or the duration
    // changes, so calendars that hold the entry move it. `calendar_uid` names the event for good (its UID).
    // `email_queue.calendar` is the calendar file an e-mail carries (the purchase e-mail's .ics).
    sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN duration_minutes INTEGER NOT NULL DEFAULT 120;
        ALTER TABLE livestream_settings ADD COLUMN calendar_sequence INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE livestream_settings ADD COLUMN calendar_uid TEXT NOT NULL DEFAULT '';
        ALTER TABLE email_queue ADD COLUMN calendar TEXT;
      `,
    postgres: `
        ALTER TABLE livestream_settings ADD COLUMN duration_minutes INTEGER NOT NULL DEFAULT 120;
        ALTER TABLE livestream_settings ADD COLUMN calendar_sequence INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE livestream_settings ADD COLUMN calendar_uid TEXT NOT NULL DEFAULT '';
        ALTER TABLE email_queue ADD COLUMN calendar TEXT;
      `,
    async seed(q) {
      await q.run("UPDATE livestream_settings SET calendar_uid = ? WHERE id = 1", crypto.randomUUID());
    },
  },
  {
    version: 15,
    name: "reminders before the event",
    // `reminders_enabled`: the admin's switch for the e-mails 24 hours and 15 minutes before the start.
    // `access_codes.reminder_token` is the secret of a pass's unsubscribe link (made with its first
    // reminder), `reminders_off` that its holder unsubscribed. `email_queue.list_unsubscribe` is the
    // one-click unsubscribe address a message carries (List-Unsubscribe, RFC 8058).
    sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN reminders_enabled INTEGER NOT NULL DEFAULT 1 CHECK (reminders_enabled IN (0, 1));
        ALTER TABLE access_codes ADD COLUMN reminder_token TEXT;
        CREATE UNIQUE INDEX access_codes_reminder_token ON access_codes(reminder_token);
        ALTER TABLE access_codes ADD COLUMN reminders_off INTEGER NOT NULL DEFAULT 0 CHECK (reminders_off IN (0, 1));
        ALTER TABLE email_queue ADD COLUMN list_unsubscribe TEXT;
      `,
    postgres: `
        ALTER TABLE livestream_settings ADD COLUMN reminders_enabled INTEGER NOT NULL DEFAULT 1 CHECK (reminders_enabled IN (0, 1));
        ALTER TABLE access_codes ADD COLUMN reminder_token TEXT;
        CREATE UNIQUE INDEX access_codes_reminder_token ON access_codes(reminder_token);
        ALTER TABLE access_codes ADD COLUMN reminders_off INTEGER NOT NULL DEFAULT 0 CHECK (reminders_off IN (0, 1));
        ALTER TABLE email_queue ADD COLUMN list_unsubscribe TEXT;
      `,
  },
];
