import type { Migration } from "../migrate.ts";

/** An install upgraded after its night (the switch off, a recording made after the start) has its night ended then. */
const endedNights = (bigint: string) => `
        UPDATE livestream_settings SET
          went_live_at = (SELECT MIN(r.started_at) FROM recordings r WHERE r.started_at >= livestream_settings.start_date),
          ended_at = (SELECT CAST(MAX(COALESCE(r.ended_at, r.started_at)) AS ${bigint}) FROM recordings r)
        WHERE is_active = 0 AND EXISTS (SELECT 1 FROM recordings r WHERE r.started_at >= livestream_settings.start_date);`;

export const eventPhases: Migration = {
  version: 22,
  name: "the night's phases: when it went live and was ended, its latest end, sales after it, rehearsals",
  // `opened_at`: when the doors were last opened; `went_live_at`: the first time a publisher was live with the doors open (a publisher gone after it is a
  // break, not the end); `ended_at`: the owner ended the night; `latest_end`: it ends by itself then (null:
  // never); `previous_start`: the start buyers were sold before the owner moved it; `sell_after_night`: passes to the replay are sold while it is open. A recording made while the
  // doors were closed is a rehearsal: kept out of the replay unless the streamer keeps it.
  sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN opened_at INTEGER;
        ALTER TABLE livestream_settings ADD COLUMN went_live_at INTEGER;
        ALTER TABLE livestream_settings ADD COLUMN ended_at INTEGER;
        ALTER TABLE livestream_settings ADD COLUMN latest_end INTEGER;
        ALTER TABLE livestream_settings ADD COLUMN previous_start INTEGER;
        ALTER TABLE livestream_settings ADD COLUMN sell_after_night INTEGER NOT NULL DEFAULT 1 CHECK (sell_after_night IN (0, 1));
        ALTER TABLE recordings ADD COLUMN rehearsal INTEGER NOT NULL DEFAULT 0 CHECK (rehearsal IN (0, 1));
        ${endedNights("INTEGER")}`,
  postgres: `
        ALTER TABLE livestream_settings ADD COLUMN opened_at BIGINT;
        ALTER TABLE livestream_settings ADD COLUMN went_live_at BIGINT;
        ALTER TABLE livestream_settings ADD COLUMN ended_at BIGINT;
        ALTER TABLE livestream_settings ADD COLUMN latest_end BIGINT;
        ALTER TABLE livestream_settings ADD COLUMN previous_start BIGINT;
        ALTER TABLE livestream_settings ADD COLUMN sell_after_night INTEGER NOT NULL DEFAULT 1 CHECK (sell_after_night IN (0, 1));
        ALTER TABLE recordings ADD COLUMN rehearsal INTEGER NOT NULL DEFAULT 0 CHECK (rehearsal IN (0, 1));
        ${endedNights("BIGINT")}`,
};
