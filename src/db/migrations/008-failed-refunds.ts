import type { Migration } from "../migrate.ts";

export const failedRefunds: Migration = {
  version: 8,
  name: "refunds that fail, inquiries that hold no money",
  // A refund's status as Stripe last told it: a failed or canceled one (its money came back to the
  // account, not to the buyer) no longer counts. `refund_created` and `failed_at` are Stripe's times
  // (epoch seconds), as is the charge's `observed_at`: the charge's cumulative refund as of that moment,
  // less the refunds it counted that failed after it. A dispute's `observed_at` is its latest event's
  // time; an inquiry (status `warning_…`) takes no money until it becomes a dispute. Rows from before
  // count as seen when last written.
  sqlite: `
        ALTER TABLE refunds ADD COLUMN status TEXT NOT NULL DEFAULT 'succeeded';
        ALTER TABLE refunds ADD COLUMN failure_reason TEXT;
        ALTER TABLE refunds ADD COLUMN refund_created INTEGER;
        ALTER TABLE refunds ADD COLUMN failed_at INTEGER;
        ALTER TABLE charge_refunds ADD COLUMN observed_at INTEGER NOT NULL DEFAULT 0;
        UPDATE charge_refunds SET observed_at = updated_at / 1000;
        ALTER TABLE disputes ADD COLUMN observed_at INTEGER NOT NULL DEFAULT 0;
        UPDATE disputes SET observed_at = updated_at / 1000;
        DROP VIEW payment_ledger;
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            MIN(p.amount, MAX(
              COALESCE((SELECT c.amount_refunded - COALESCE((SELECT SUM(f.amount) FROM refunds f WHERE f.intent_id = c.intent_id
                  AND f.status IN ('failed', 'canceled') AND COALESCE(f.refund_created, 0) <= c.observed_at AND f.failed_at >= c.observed_at), 0)
                FROM charge_refunds c WHERE c.intent_id = p.intent_id), 0),
              COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status NOT IN ('failed', 'canceled')), 0))) AS refunded_amount,
            COALESCE((SELECT SUM(amount) FROM disputes d WHERE d.intent_id = p.intent_id AND d.status <> 'won' AND d.status NOT LIKE 'warning%'), 0) AS disputed_amount,
            (SELECT status FROM disputes d WHERE d.intent_id = p.intent_id ORDER BY d.closed, d.updated_at DESC LIMIT 1) AS dispute_status,
            (SELECT MAX(closed) FROM disputes d WHERE d.intent_id = p.intent_id) AS dispute_closed,
            COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status IN ('failed', 'canceled')), 0) AS failed_refund_amount,
            (SELECT COALESCE(r.failure_reason, r.status) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status IN ('failed', 'canceled') ORDER BY r.failed_at DESC LIMIT 1) AS refund_failure
          FROM payments p;
      `,
  postgres: `
        ALTER TABLE refunds ADD COLUMN status TEXT NOT NULL DEFAULT 'succeeded';
        ALTER TABLE refunds ADD COLUMN failure_reason TEXT;
        ALTER TABLE refunds ADD COLUMN refund_created BIGINT;
        ALTER TABLE refunds ADD COLUMN failed_at BIGINT;
        ALTER TABLE charge_refunds ADD COLUMN observed_at BIGINT NOT NULL DEFAULT 0;
        UPDATE charge_refunds SET observed_at = updated_at / 1000;
        ALTER TABLE disputes ADD COLUMN observed_at BIGINT NOT NULL DEFAULT 0;
        UPDATE disputes SET observed_at = updated_at / 1000;
        DROP VIEW payment_ledger;
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            LEAST(p.amount, GREATEST(
              COALESCE((SELECT c.amount_refunded - CAST(COALESCE((SELECT SUM(f.amount) FROM refunds f WHERE f.intent_id = c.intent_id
                  AND f.status IN ('failed', 'canceled') AND COALESCE(f.refund_created, 0) <= c.observed_at AND f.failed_at >= c.observed_at), 0) AS BIGINT)
                FROM charge_refunds c WHERE c.intent_id = p.intent_id), 0),
              CAST(COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status NOT IN ('failed', 'canceled')), 0) AS BIGINT))) AS refunded_amount,
            CAST(COALESCE((SELECT SUM(amount) FROM disputes d WHERE d.intent_id = p.intent_id AND d.status <> 'won' AND d.status NOT LIKE 'warning%'), 0) AS BIGINT) AS disputed_amount,
            (SELECT status FROM disputes d WHERE d.intent_id = p.intent_id ORDER BY d.closed, d.updated_at DESC LIMIT 1) AS dispute_status,
            (SELECT MAX(closed) FROM disputes d WHERE d.intent_id = p.intent_id) AS dispute_closed,
            CAST(COALESCE((SELECT SUM(amount) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status IN ('failed', 'canceled')), 0) AS BIGINT) AS failed_refund_amount,
            (SELECT COALESCE(r.failure_reason, r.status) FROM refunds r WHERE r.intent_id = p.intent_id AND r.status IN ('failed', 'canceled') ORDER BY r.failed_at DESC LIMIT 1) AS refund_failure
          FROM payments p;
      `,
};
