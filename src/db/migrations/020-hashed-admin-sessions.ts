import { sha256Hex } from "../../lib/tokens.ts";
import type { Migration } from "../migrate.ts";

export const hashedAdminSessions: Migration = {
  version: 20,
  name: "admin sessions kept by the hash of their cookie's token",
  // `admin_sessions.id` held the cookie's token itself: a copy of the database opened every live admin
  // session. It now holds the token's SHA-256 (as sign-in challenges and invites do), and the sessions
  // open before the upgrade go on: their ids become their hashes, the cookies stay as they are.
  sqlite: "",
  postgres: "",
  async seed(q) {
    for (const { id } of await q.all<{ id: string }>("SELECT id FROM admin_sessions")) {
      await q.run("UPDATE admin_sessions SET id = ? WHERE id = ?", sha256Hex(id), id);
    }
  },
};
