import type { Migration } from "../migrate.ts";

export const calendarEntry: Migration = {
  version: 14,
  name: "the event's calendar entry",
  // `duration_minutes` ends the calendar entry (and the search engines' event) after the start.
  // `calendar_sequence` is the entry's SEQUENCE (RFC 5545): it grows when the start or the duration
  // changes, so calendars that hold the entry move it. `calendar_uid` names the event for good (its UID).
  // `email_queue.calendar` is the calendar file an e-mail carries (the purchase e-mail's .ics).
  sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN duration_minutes INTEGER NOT NULL DEFAULT 120;
        ALTER TABLE livestream_settings ADD COLUMN calendar_sequence INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE livestream_settings ADD COLUMN calendar_uid TEXT NOT NULL DEFAULT '';
        ALTER TABLE email_queue ADD COLUMN calendar TEXT;
      `,
  postgres: `
        ALTER TABLE livestream_settings ADD COLUMN duration_minutes INTEGER NOT NULL DEFAULT 120;
        ALTER TABLE livestream_settings ADD COLUMN calendar_sequence INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE livestream_settings ADD COLUMN calendar_uid TEXT NOT NULL DEFAULT '';
        ALTER TABLE email_queue ADD COLUMN calendar TEXT;
      `,
  async seed(q) {
    await q.run("UPDATE livestream_settings SET calendar_uid = ? WHERE id = 1", crypto.randomUUID());
  },
};
