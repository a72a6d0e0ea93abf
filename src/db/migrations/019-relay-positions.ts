import type { Migration } from "../migrate.ts";

export const relayPositions: Migration = {
  version: 19,
  name: "which relayed origin a recording followed, and each kept segment's number there",
  // An instance that takes the relay's recording over (another one stopped, or this one restarted) goes on
  // after the last segment kept by its number in the origin's playlist, not by an estimate of its time.
  sqlite: `
        ALTER TABLE recordings ADD COLUMN origin TEXT;
        ALTER TABLE recording_segments ADD COLUMN origin_msn INTEGER;
      `,
  postgres: `
        ALTER TABLE recordings ADD COLUMN origin TEXT;
        ALTER TABLE recording_segments ADD COLUMN origin_msn BIGINT;
      `,
};
