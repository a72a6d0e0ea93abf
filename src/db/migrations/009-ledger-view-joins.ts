import type { Migration } from "../migrate.ts";

export const ledgerViewJoins: Migration = {
  version: 9,
  name: "the ledger view joins its sums on PostgreSQL",
  // The same ledger, computed by joining each table's sums per payment rather than asking a subquery per
  // payment and column: PostgreSQL ran migration 8's view as nine lookups per row (the admin's Payments
  // list of 6,250 payments in ~160 ms, ~20 ms this way); a lookup of one payment still reads only its
  // own rows. SQLite answers the per-row subqueries from its indexes in ~17 ms and keeps migration 8's.
  sqlite: ``,
  postgres: `
        DROP VIEW payment_ledger;
        CREATE VIEW payment_ledger AS
          SELECT p.*,
            LEAST(p.amount, GREATEST(COALESCE(c.amount_refunded - COALESCE(cf.failed_since, 0), 0), COALESCE(r.counted, 0))) AS refunded_amount,
            COALESCE(d.held, 0) AS disputed_amount,
            d.status AS dispute_status,
            d.closed AS dispute_closed,
            COALESCE(r.failed, 0) AS failed_refund_amount,
            r.failure AS refund_failure
          FROM payments p
          LEFT JOIN charge_refunds c ON c.intent_id = p.intent_id
          -- The refunds the charge's word counted that failed after it (see migration 8).
          LEFT JOIN LATERAL (SELECT CAST(SUM(f.amount) AS BIGINT) AS failed_since FROM refunds f WHERE f.intent_id = c.intent_id
              AND f.status IN ('failed', 'canceled') AND COALESCE(f.refund_created, 0) <= c.observed_at AND f.failed_at >= c.observed_at) cf ON TRUE
          LEFT JOIN (SELECT intent_id,
                CAST(SUM(amount) FILTER (WHERE status NOT IN ('failed', 'canceled')) AS BIGINT) AS counted,
                CAST(SUM(amount) FILTER (WHERE status IN ('failed', 'canceled')) AS BIGINT) AS failed,
                (ARRAY_AGG(COALESCE(failure_reason, status) ORDER BY failed_at DESC) FILTER (WHERE status IN ('failed', 'canceled')))[1] AS failure
              FROM refunds GROUP BY intent_id) r ON r.intent_id = p.intent_id
          LEFT JOIN (SELECT intent_id,
                CAST(SUM(amount) FILTER (WHERE status <> 'won' AND status NOT LIKE 'warning%') AS BIGINT) AS held,
                (ARRAY_AGG(status ORDER BY closed, updated_at DESC))[1] AS status,
                MAX(closed) AS closed
              FROM disputes GROUP BY intent_id) d ON d.intent_id = p.intent_id;
      `,
};
