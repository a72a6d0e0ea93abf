import type { Migration } from "../migrate.ts";

export const adminTeam: Migration = {
  version: 16,
  name: "the admin team: roles, two factors, sessions one can see, the audit log",
  // Every admin so far becomes an owner. TOTP secrets are sealed (AES-256-GCM) under a key outside the
  // database; `totp_last_step` is the last time step accepted, so a code is never good twice. A session has
  // a public id (the one shown and ended in the panel; the cookie's id is never shown), its address and
  // browser, and `verified_at`: when its holder last gave a password or a second factor (the step-up
  // window). `enrol_only`: the team requires two factors and this member has none yet. A sign-in waiting
  // for its second factor is an `admin_challenges` row, keyed by its token's SHA-256. Recovery codes and
  // invite tokens are kept as SHA-256 hashes. The audit log refuses updates and deletes.
  sqlite: `
        ALTER TABLE admins ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'operator', 'support', 'moderator'));
        ALTER TABLE admins ADD COLUMN totp_secret TEXT;
        ALTER TABLE admins ADD COLUMN totp_enabled_at INTEGER;
        ALTER TABLE admins ADD COLUMN totp_last_step INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE admins ADD COLUMN last_seen_at INTEGER;
        ALTER TABLE admin_sessions ADD COLUMN public_id TEXT;
        ALTER TABLE admin_sessions ADD COLUMN last_seen_at INTEGER;
        ALTER TABLE admin_sessions ADD COLUMN address TEXT;
        ALTER TABLE admin_sessions ADD COLUMN user_agent TEXT;
        ALTER TABLE admin_sessions ADD COLUMN verified_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE admin_sessions ADD COLUMN enrol_only INTEGER NOT NULL DEFAULT 0 CHECK (enrol_only IN (0, 1));
        ALTER TABLE admin_sessions ADD COLUMN webauthn_challenge TEXT;
        UPDATE admin_sessions SET public_id = lower(hex(randomblob(12))), last_seen_at = created_at;
        CREATE UNIQUE INDEX admin_sessions_public ON admin_sessions(public_id);
        CREATE TABLE admin_challenges (
          id TEXT PRIMARY KEY,
          admin_id INTEGER NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          failures INTEGER NOT NULL DEFAULT 0,
          webauthn_challenge TEXT
        );
        CREATE TABLE admin_recovery_codes (
          id INTEGER PRIMARY KEY,
          admin_id INTEGER NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
          code_hash TEXT NOT NULL,
          used_at INTEGER,
          created_at INTEGER NOT NULL,
          UNIQUE (admin_id, code_hash)
        );
        CREATE TABLE admin_passkeys (
          id TEXT PRIMARY KEY,
          admin_id INTEGER NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
          public_key TEXT NOT NULL,
          counter INTEGER NOT NULL DEFAULT 0,
          transports TEXT NOT NULL DEFAULT '[]',
          name TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          last_used_at INTEGER
        );
        CREATE INDEX admin_passkeys_admin ON admin_passkeys(admin_id);
        CREATE TABLE admin_invites (
          id INTEGER PRIMARY KEY,
          token_hash TEXT NOT NULL UNIQUE,
          email TEXT NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('owner', 'operator', 'support', 'moderator')),
          created_by TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          accepted_at INTEGER,
          revoked_at INTEGER
        );
        CREATE TABLE team_settings (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          require_two_factor INTEGER NOT NULL DEFAULT 0 CHECK (require_two_factor IN (0, 1))
        );
        INSERT INTO team_settings (id, require_two_factor) VALUES (1, 0);
        CREATE TABLE audit_log (
          id INTEGER PRIMARY KEY,
          at INTEGER NOT NULL,
          actor_id INTEGER,
          actor TEXT NOT NULL,
          action TEXT NOT NULL,
          target TEXT,
          before_value TEXT,
          after_value TEXT,
          address TEXT
        );
        CREATE INDEX audit_log_at ON audit_log(at);
        CREATE INDEX audit_log_actor ON audit_log(actor, at);
        CREATE INDEX audit_log_action ON audit_log(action, at);
        CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      `,
  postgres: `
        ALTER TABLE admins ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'operator', 'support', 'moderator'));
        ALTER TABLE admins ADD COLUMN totp_secret TEXT;
        ALTER TABLE admins ADD COLUMN totp_enabled_at BIGINT;
        ALTER TABLE admins ADD COLUMN totp_last_step BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE admins ADD COLUMN last_seen_at BIGINT;
        ALTER TABLE admin_sessions ADD COLUMN public_id TEXT;
        ALTER TABLE admin_sessions ADD COLUMN last_seen_at BIGINT;
        ALTER TABLE admin_sessions ADD COLUMN address TEXT;
        ALTER TABLE admin_sessions ADD COLUMN user_agent TEXT;
        ALTER TABLE admin_sessions ADD COLUMN verified_at BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE admin_sessions ADD COLUMN enrol_only INTEGER NOT NULL DEFAULT 0 CHECK (enrol_only IN (0, 1));
        ALTER TABLE admin_sessions ADD COLUMN webauthn_challenge TEXT;
        UPDATE admin_sessions SET public_id = substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), last_seen_at = created_at;
        CREATE UNIQUE INDEX admin_sessions_public ON admin_sessions(public_id);
        CREATE TABLE admin_challenges (
          id TEXT PRIMARY KEY,
          admin_id BIGINT NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          failures INTEGER NOT NULL DEFAULT 0,
          webauthn_challenge TEXT
        );
        CREATE TABLE admin_recovery_codes (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          admin_id BIGINT NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
          code_hash TEXT NOT NULL,
          used_at BIGINT,
          created_at BIGINT NOT NULL,
          UNIQUE (admin_id, code_hash)
        );
        CREATE TABLE admin_passkeys (
          id TEXT PRIMARY KEY,
          admin_id BIGINT NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
          public_key TEXT NOT NULL,
          counter BIGINT NOT NULL DEFAULT 0,
          transports TEXT NOT NULL DEFAULT '[]',
          name TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          last_used_at BIGINT
        );
        CREATE INDEX admin_passkeys_admin ON admin_passkeys(admin_id);
        CREATE TABLE admin_invites (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          token_hash TEXT NOT NULL UNIQUE,
          email TEXT NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('owner', 'operator', 'support', 'moderator')),
          created_by TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          accepted_at BIGINT,
          revoked_at BIGINT
        );
        CREATE TABLE team_settings (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          require_two_factor INTEGER NOT NULL DEFAULT 0 CHECK (require_two_factor IN (0, 1))
        );
        INSERT INTO team_settings (id, require_two_factor) VALUES (1, 0);
        CREATE TABLE audit_log (
          id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
          at BIGINT NOT NULL,
          actor_id BIGINT,
          actor TEXT NOT NULL,
          action TEXT NOT NULL,
          target TEXT,
          before_value TEXT,
          after_value TEXT,
          address TEXT
        );
        CREATE INDEX audit_log_at ON audit_log(at);
        CREATE INDEX audit_log_actor ON audit_log(actor, at);
        CREATE INDEX audit_log_action ON audit_log(action, at);
        CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
        CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
      `,
};
