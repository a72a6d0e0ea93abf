import type { Migration } from "../migrate.ts";

export const uploadsInDatabase: Migration = {
  version: 6,
  name: "uploaded images in the database",
  // Named by their content; every server on the database serves them (files in DATA_DIR/uploads from
  // before are still served from there).
  sqlite: `CREATE TABLE uploads (name TEXT PRIMARY KEY, content_type TEXT NOT NULL, bytes BLOB NOT NULL, created_at INTEGER NOT NULL);`,
  postgres: `CREATE TABLE uploads (name TEXT PRIMARY KEY, content_type TEXT NOT NULL, bytes BYTEA NOT NULL, created_at BIGINT NOT NULL);`,
};
