import { DEFAULT_EVENT_TITLE, DEFAULT_THUMBNAIL_URL } from "../../contracts/event-defaults.ts";
import type { Migration } from "../migrate.ts";

const DEFAULT_DONATION_GOAL_PENCE = 5000;
const FIVE_DAYS_MS = 5 * 24 * 60 * 60 * 1000;

export const initialSchema: Migration = {
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
};
