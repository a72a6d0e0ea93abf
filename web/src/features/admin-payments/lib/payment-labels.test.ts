import { describe, expect, test } from "bun:test";
import type { PaymentRecord } from "@contracts/payments-ledger";
import { netRevenuePoints } from "./payment-labels";

const payment = (createdAt: string, amount: number, currency = "gbp", refundedAmount = 0, disputedAmount = 0): PaymentRecord => ({
  paymentIntentId: `pi_${createdAt}`,
  kind: "donation",
  amount,
  currency,
  status: "succeeded",
  refundedAmount,
  disputedAmount,
  failedRefundAmount: 0,
  refundFailure: null,
  codeRevoked: false,
  email: null,
  username: null,
  code: null,
  createdAt,
});

describe("netRevenuePoints", () => {
  test("counts and adds up the net of one currency in time order, refunds and disputes taken off", () => {
    const points = netRevenuePoints(
      [
        payment("2030-01-01T10:02:00.000Z", 500, "gbp", 200),
        payment("2030-01-01T10:00:00.000Z", 100),
        payment("2030-01-01T10:01:00.000Z", 900, "eur"),
        payment("2030-01-01T10:03:00.000Z", 1000, "gbp", 0, 1000),
      ],
      "gbp",
    );
    expect(points.map((p) => [p.count, p.money])).toEqual([
      [1, 100],
      [2, 400],
      [3, 400],
    ]);
  });
});
