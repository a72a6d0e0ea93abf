import type { Migration } from "../migrate.ts";

export const organiserDetails: Migration = {
  version: 10,
  name: "the organiser's details",
  // Shown in the footer, the purchase e-mail and the device refusal; "" while not set. social_links is
  // a JSON object of profile links by network.
  sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN organizer_name TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN contact_email TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN privacy_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN terms_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN social_links TEXT NOT NULL DEFAULT '{}';
      `,
  postgres: `
        ALTER TABLE livestream_settings ADD COLUMN organizer_name TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN contact_email TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN privacy_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN terms_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE livestream_settings ADD COLUMN social_links TEXT NOT NULL DEFAULT '{}';
      `,
};
