import type { Migration } from "../migrate.ts";

export const adminSessionEnds: Migration = {
  version: 23,
  name: "why an admin session was ended, for the browser that still holds it",
  // A session an owner ended, or that went with its member, a new password or another of the member's
  // devices, leaves its row id (the cookie token's hash) and the reason here, so that the open panel's
  // next request is told what happened rather than only that it is signed out. Kept for a session's
  // lifetime (ADMIN_SESSION_TTL_MS), then pruned; no foreign key, as a removed member's row is gone.
  sqlite: `
        CREATE TABLE admin_session_ends (
          id TEXT PRIMARY KEY,
          reason TEXT NOT NULL CHECK (reason IN ('ended-by-owner', 'removed', 'ended-elsewhere', 'password-changed')),
          ended_at INTEGER NOT NULL
        );
        CREATE INDEX admin_session_ends_at ON admin_session_ends(ended_at);
      `,
  postgres: `
        CREATE TABLE admin_session_ends (
          id TEXT PRIMARY KEY,
          reason TEXT NOT NULL CHECK (reason IN ('ended-by-owner', 'removed', 'ended-elsewhere', 'password-changed')),
          ended_at BIGINT NOT NULL
        );
        CREATE INDEX admin_session_ends_at ON admin_session_ends(ended_at);
      `,
};
