import type { Migration } from "../migrate.ts";

export const mailClaims: Migration = {
  version: 5,
  name: "mail claims apart from retry times",
  // A worker takes a message until `claimed_until` (epoch ms); 0 when no one holds it.
  sqlite: `ALTER TABLE email_queue ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;`,
  postgres: `ALTER TABLE email_queue ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;`,
};
