import { describe, expect, test } from "bun:test";
import { CURRENCIES, DEFAULT_ACCESS_PRICE, DEFAULT_CURRENCY, accessPriceProblem, donationAmountProblem, formatMoney, toMinorUnits } from "../../contracts/money.ts";
import { createDonationIntentBody, paymentStatusMessage } from "../../contracts/payments.ts";

const formatPence = (pence: number) => formatMoney(pence, "gbp");

describe("money", () => {
  test("the access pass costs £1.00 by default", () => {
    expect(formatMoney(DEFAULT_ACCESS_PRICE, DEFAULT_CURRENCY)).toBe("£1.00");
  });

  test("each currency is formatted with its own symbol and two decimals", () => {
    expect(CURRENCIES.map((c) => formatMoney(450, c))).toEqual(["£4.50", "€4.50", "$4.50", "$4.50", "$4.50", "$4.50", "CHF 4.50", "kr 4.50", "kr 4.50", "kr 4.50", "zł 4.50"]);
  });

  test("an access price is at least the currency's Stripe minimum and at most 1,000.00", () => {
    expect(accessPriceProblem(30, "gbp")).toBeNull();
    expect(accessPriceProblem(29, "gbp")).toBe("Access price must be at least £0.30");
    expect(accessPriceProblem(299, "sek")).toBe("Access price must be at least kr 3.00");
    expect(accessPriceProblem(100_000, "eur")).toBeNull();
    expect(accessPriceProblem(100_001, "eur")).toBe("Access price must be at most €1,000.00");
  });

  const conversions: [number, number][] = [
    [1, 100],
    [50, 5000],
    [0.1 + 0.2, 30],
    [19.99, 1999],
    [1000, 100000],
  ];
  for (const [pounds, pence] of conversions) {
    test(`£${pounds} is ${pence} pence`, () => expect(toMinorUnits(pounds)).toBe(pence));
  }

  test("pence format as pounds with two decimals", () => {
    expect([formatPence(0), formatPence(5), formatPence(2500), formatPence(100000)]).toEqual(["£0.00", "£0.05", "£25.00", "£1,000.00"]);
  });

  test("a donation is 1.00 to 1,000.00 of the event's currency, and at least Stripe's minimum", () => {
    expect([100, 100_000].map((a) => donationAmountProblem(a, "gbp"))).toEqual([null, null]);
    expect(donationAmountProblem(99, "gbp")).toBe("The smallest donation is £1.00");
    expect(donationAmountProblem(100_001, "gbp")).toBe("The largest donation is £1,000.00");
    expect(donationAmountProblem(299, "nok")).toBe("The smallest donation is kr 3.00");
    expect(donationAmountProblem(300, "nok")).toBeNull();
  });

  const donations: { amount: unknown; ok: boolean; message?: string }[] = [
    { amount: 100, ok: true },
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

  test("the payment dialog has a line for each intent status on load, and 'Something went wrong.' for any other", () => {
    expect(["succeeded", "processing", "requires_payment_method", "canceled"].map(paymentStatusMessage)).toEqual([
      "Payment succeeded!",
      "Your payment is processing.",
      "Please provide your payment details.",
      "Something went wrong.",
    ]);
  });
});
