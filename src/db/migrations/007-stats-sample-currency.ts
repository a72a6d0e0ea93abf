import type { Migration } from "../migrate.ts";

export const statsSampleCurrency: Migration = {
  version: 7,
  name: "stats samples keep their currency",
  // The donation total a sample took counts one currency, the event's then; samples from before are NULL.
  sqlite: `ALTER TABLE stats_samples ADD COLUMN currency TEXT;`,
  postgres: `ALTER TABLE stats_samples ADD COLUMN currency TEXT;`,
};
