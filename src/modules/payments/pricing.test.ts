import { describe, expect, test } from "bun:test";
import {
  ACCESS_PRICE_PENCE,
  createDonationIntentBody,
  formatPence,
  paymentStatusMessage,
  poundsToPence,
} from "../../contracts/payments.ts";

describe("money", () => {
  test("the access pass costs £1.00", () => {
    expect(ACCESS_PRICE_PENCE).toBe(100);
    expect(formatPence(ACCESS_PRICE_PENCE)).toBe("£1.00");
  });

  const conversions: [number, number][] = [
    [1, 100],
    [50, 5000],
    [0.1 + 0.2, 30],
    [19.99, 1999],
    [1000, 100000],
  ];
  for (const [pounds, pence] of conversions) {
    test(`£${pounds} is ${pence} pence`, () => expect(poundsToPence(pounds)).toBe(pence));
  }

  test("pence format as pounds with two decimals", () => {
    expect([formatPence(0), formatPence(5), formatPence(2500), formatPence(100000)]).toEqual(["£0.00", "£0.05", "£25.00", "£1,000.00"]);
  });

  const donations: { amount: unknown; ok: boolean; message?: string }[] = [
    { amount: 100, ok: true },
    { amount: 100000, ok: true },
    { amount: 99, ok: false, message: "The smallest donation is £1.00" },
    { amount: 100001, ok: false, message: "The largest donation is £1,000.00" },
    { amount: 150.5, ok: false, message: "Donation amount must be a whole number of pence" },
    { amount: "500", ok: false, message: "Donation amount must be a number of pence" },
  ];
  for (const d of donations) {
    test(`a donation of ${JSON.stringify(d.amount)} pence is ${d.ok ? "accepted" : "refused"}`, () => {
      const parsed = createDonationIntentBody.safeParse({ amount: d.amount });
      expect(parsed.success).toBe(d.ok);
      if (!parsed.success) expect(parsed.error.issues[0]!.message).toBe(d.message!);
    });
  }

  test("the payment dialog's status lines follow the spec", () => {
    expect(["succeeded", "processing", "requires_payment_method", "canceled"].map(paymentStatusMessage)).toEqual([
      "Payment succeeded!",
      "Your payment is processing.",
      "Please provide your payment details.",
      "Something went wrong.",
    ]);
  });
});
