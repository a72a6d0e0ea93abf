import type { Migration } from "../migrate.ts";

export const reminders: Migration = {
  version: 15,
  name: "reminders before the event",
  // `reminders_enabled`: the admin's switch for the e-mails 24 hours and 15 minutes before the start.
  // `access_codes.reminder_token` is the secret of a pass's unsubscribe link (made with its first
  // reminder), `reminders_off` that its holder unsubscribed. `email_queue.list_unsubscribe` is the
  // one-click unsubscribe address a message carries (List-Unsubscribe, RFC 8058).
  sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN reminders_enabled INTEGER NOT NULL DEFAULT 1 CHECK (reminders_enabled IN (0, 1));
        ALTER TABLE access_codes ADD COLUMN reminder_token TEXT;
        CREATE UNIQUE INDEX access_codes_reminder_token ON access_codes(reminder_token);
        ALTER TABLE access_codes ADD COLUMN reminders_off INTEGER NOT NULL DEFAULT 0 CHECK (reminders_off IN (0, 1));
        ALTER TABLE email_queue ADD COLUMN list_unsubscribe TEXT;
      `,
  postgres: `
        ALTER TABLE livestream_settings ADD COLUMN reminders_enabled INTEGER NOT NULL DEFAULT 1 CHECK (reminders_enabled IN (0, 1));
        ALTER TABLE access_codes ADD COLUMN reminder_token TEXT;
        CREATE UNIQUE INDEX access_codes_reminder_token ON access_codes(reminder_token);
        ALTER TABLE access_codes ADD COLUMN reminders_off INTEGER NOT NULL DEFAULT 0 CHECK (reminders_off IN (0, 1));
        ALTER TABLE email_queue ADD COLUMN list_unsubscribe TEXT;
      `,
};
