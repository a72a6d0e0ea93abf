import { nameSkeleton } from "../../modules/access/name-skeleton.ts";
import type { Migration } from "../migrate.ts";

export const lookAlikeNames: Migration = {
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
};
