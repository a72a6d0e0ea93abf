import type { Migration } from "../migrate.ts";

export const eventCancelled: Migration = {
  version: 24,
  name: "a cancelled event: when the owner cancelled it and what they told the people who bought a pass",
  // `cancelled_at`: the owner called the event off (nothing is sold, the pages and the search engines say
  // so, the buyers are written to); opening the doors again clears it. `cancel_note`: the owner's words to
  // the buyers, shown on the home page and in the mail ("" for none).
  sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN cancelled_at INTEGER;
        ALTER TABLE livestream_settings ADD COLUMN cancel_note TEXT NOT NULL DEFAULT '';`,
  postgres: `
        ALTER TABLE livestream_settings ADD COLUMN cancelled_at BIGINT;
        ALTER TABLE livestream_settings ADD COLUMN cancel_note TEXT NOT NULL DEFAULT '';`,
};
