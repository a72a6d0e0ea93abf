import type { Migration } from "../migrate.ts";

export const enrolmentByRule: Migration = {
  version: 21,
  name: "an admin session's enrolment follows the team's rule, not a flag set at sign-in",
  // Whether a session may only enrol is read from the team's rule and the member's factors on every
  // request (turned on, the rule reaches sessions already open), so the flag each session kept goes.
  sqlite: "ALTER TABLE admin_sessions DROP COLUMN enrol_only;",
  postgres: "ALTER TABLE admin_sessions DROP COLUMN enrol_only;",
};
