import { initialSchema } from "./migrations/001-initial-schema.ts";
import { streamSource } from "./migrations/002-stream-source.ts";
import { refundsDisputesPrice } from "./migrations/003-refunds-disputes-price.ts";
import { chatModeration } from "./migrations/004-chat-moderation.ts";
import { mailClaims } from "./migrations/005-mail-claims.ts";
import { uploadsInDatabase } from "./migrations/006-uploads.ts";
import { statsSampleCurrency } from "./migrations/007-stats-sample-currency.ts";
import { failedRefunds } from "./migrations/008-failed-refunds.ts";
import { ledgerViewJoins } from "./migrations/009-ledger-view-joins.ts";
import { organiserDetails } from "./migrations/010-organiser-details.ts";
import { donationLineCurrency } from "./migrations/011-donation-currency.ts";
import { lookAlikeNames } from "./migrations/012-look-alike-names.ts";
import { builtInIngest } from "./migrations/013-built-in-ingest.ts";
import { calendarEntry } from "./migrations/014-calendar-entry.ts";
import { reminders } from "./migrations/015-reminders.ts";
import { adminTeam } from "./migrations/016-admin-team.ts";
import { replay } from "./migrations/017-replay.ts";
import { chatLineEvents } from "./migrations/018-chat-line-events.ts";
import { relayPositions } from "./migrations/019-relay-positions.ts";
import { hashedAdminSessions } from "./migrations/020-hashed-admin-sessions.ts";
import { enrolmentByRule } from "./migrations/021-enrolment-by-rule.ts";
import { eventPhases } from "./migrations/022-event-phases.ts";
import { adminSessionEnds } from "./migrations/023-admin-session-ends.ts";
import { eventCancelled } from "./migrations/024-event-cancelled.ts";
import type { Migration } from "./migrate.ts";

/**
 * Numbered, append-only: one file each in migrations/, both engines' words side by side. Each runs in its
 * own transaction before the server listens. Times are epoch ms (BIGINT on PostgreSQL); booleans are 0/1
 * integers on both; names compared without case are `COLLATE NOCASE` on SQLite and `citext` on PostgreSQL.
 */
export const migrations: Migration[] = [
  initialSchema,
  streamSource,
  refundsDisputesPrice,
  chatModeration,
  mailClaims,
  uploadsInDatabase,
  statsSampleCurrency,
  failedRefunds,
  ledgerViewJoins,
  organiserDetails,
  donationLineCurrency,
  lookAlikeNames,
  builtInIngest,
  calendarEntry,
  reminders,
  adminTeam,
  replay,
  chatLineEvents,
  relayPositions,
  hashedAdminSessions,
  enrolmentByRule,
  eventPhases,
  adminSessionEnds,
  eventCancelled,
];

/** The schema this build writes: the newest migration's number. */
export const SCHEMA_VERSION = Math.max(...migrations.map((m) => m.version));
