import type { Migration } from "../migrate.ts";

export const refundsDisputesPrice: Migration = {
  version: 3,
  name: "refunds, disputes, the event's price and currency",
  sqlite: `
        ALTER TABLE livestream_settings ADD COLUMN access_price INTEGER NOT NULL DEFAULT 100 CHECK (access_price BETWEEN 1 AND 100000);
        ALTER TABLE livestream_settings ADD COLUMN currency TEXT NOT NULL DEFAULT 'gbp';
        CREATE INDEX payments_created ON payments(created_at);
        -- Each refund once, by its id (the admin's refunds and those seen in charge events).
        CREATE TABLE refunds (
          id TEXT PRIMARY KEY,
          intent_id TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount > 0),
          created_at INTEGER NOT NULL
        );
        CREATE INDEX refunds_intent ON refunds(intent_id);
        -- The charge's own cumulative amount_refunded, the highest seen (events may come in any order).
        CREATE TABLE charge_refunds (
          intent_id TEXT PRIMARY KEY,
          amount_refunded INTEGER NOT NULL CHECK (amount_refunded >= 0),
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE disputes (
          id TEXT PRIMARY KEY,
          intent_id TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount >= 0),
          status TEXT NOT NULL,
          closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX disputes_intent ON disputes(intent_id);
        -- Every payment with what was refunded and what an open or lost dispute holds back.
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            MIN(p.amount, MAX(
              COALESCE((SELECT amount_refunded FROM charge_refunds c WHERE c.intent_id = p.intent_id), 0),
              COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id), 0))) AS refunded_amount,
            COALESCE((SELECT SUM(amount) FROM disputes d WHERE d.intent_id = p.intent_id AND d.status NOT IN ('won', 'warning_closed')), 0) AS disputed_amount,
            (SELECT status FROM disputes d WHERE d.intent_id = p.intent_id ORDER BY d.closed, d.updated_at DESC LIMIT 1) AS dispute_status,
            (SELECT MAX(closed) FROM disputes d WHERE d.intent_id = p.intent_id) AS dispute_closed
          FROM payments p;
      `,
  postgres: `
        ALTER TABLE livestream_settings ADD COLUMN access_price INTEGER NOT NULL DEFAULT 100 CHECK (access_price BETWEEN 1 AND 100000);
        ALTER TABLE livestream_settings ADD COLUMN currency TEXT NOT NULL DEFAULT 'gbp';
        CREATE INDEX payments_created ON payments(created_at);
        -- Each refund once, by its id (the admin's refunds and those seen in charge events).
        CREATE TABLE refunds (
          id TEXT PRIMARY KEY,
          intent_id TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount > 0),
          created_at BIGINT NOT NULL
        );
        CREATE INDEX refunds_intent ON refunds(intent_id);
        -- The charge's own cumulative amount_refunded, the highest seen (events may come in any order).
        CREATE TABLE charge_refunds (
          intent_id TEXT PRIMARY KEY,
          amount_refunded INTEGER NOT NULL CHECK (amount_refunded >= 0),
          updated_at BIGINT NOT NULL
        );
        CREATE TABLE disputes (
          id TEXT PRIMARY KEY,
          intent_id TEXT NOT NULL,
          amount INTEGER NOT NULL CHECK (amount >= 0),
          status TEXT NOT NULL,
          closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL
        );
        CREATE INDEX disputes_intent ON disputes(intent_id);
        -- Every payment with what was refunded and what an open or lost dispute holds back.
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            LEAST(p.amount, GREATEST(
              COALESCE((SELECT amount_refunded FROM charge_refunds c WHERE c.intent_id = p.intent_id), 0),
              CAST(COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id), 0) AS BIGINT))) AS refunded_amount,
            CAST(COALESCE((SELECT SUM(amount) FROM disputes d WHERE d.intent_id = p.intent_id AND d.status NOT IN ('won', 'warning_closed')), 0) AS BIGINT) AS disputed_amount,
            (SELECT status FROM disputes d WHERE d.intent_id = p.intent_id ORDER BY d.closed, d.updated_at DESC LIMIT 1) AS dispute_status,
            (SELECT MAX(closed) FROM disputes d WHERE d.intent_id = p.intent_id) AS dispute_closed
          FROM payments p;
      `,
};
