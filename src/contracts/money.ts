/**
 * Money, shared by the server and the web app without the schema library (the viewer pages load it).
 * Amounts are integer minor units (pence, cents, öre…) everywhere, always with their currency.
 */
export const DEFAULT_ACCESS_PRICE = 100;
export const MAX_ACCESS_PRICE = 100_000;
export const MIN_DONATION = 100;
export const MAX_DONATION = 100_000;
export const DONATION_PRESETS = [5, 10, 20, 50, 100] as const;

/** The event's currencies: two-decimal ones Stripe charges in, each with Stripe's minimum charge (minor units). */
export const CURRENCY_MINIMUMS = {
  gbp: 30,
  eur: 50,
  usd: 50,
  cad: 50,
  aud: 50,
  nzd: 50,
  chf: 50,
  sek: 300,
  nok: 300,
  dkk: 250,
  pln: 200,
} as const;
export type Currency = keyof typeof CURRENCY_MINIMUMS;
export const CURRENCIES = Object.keys(CURRENCY_MINIMUMS) as Currency[];
export const DEFAULT_CURRENCY: Currency = "gbp";

export function isCurrency(value: string): value is Currency {
  return Object.hasOwn(CURRENCY_MINIMUMS, value);
}

const formatters = new Map<string, Intl.NumberFormat>();

/** 450, "eur" → "€4.50"; the one place money becomes text. */
export function formatMoney(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  let format = formatters.get(code);
  if (!format) {
    format = new Intl.NumberFormat("en-GB", { style: "currency", currency: code, currencyDisplay: "narrowSymbol", minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formatters.set(code, format);
  }
  // "CHF 4.50" with a plain space, so the text is the same wherever it is compared or copied.
  return format.format(minor / 100).replace(/\s/g, " ");
}

/** Like formatMoney, without ".00" on a whole amount: "£20" for a preset or a thank-you, "€4.50" otherwise. */
export function formatAmount(minor: number, currency: string): string {
  return formatMoney(minor, currency).replace(/\.00$/, "");
}

/** Units typed in a form → whole minor units: times 100, rounded to the nearest. */
export function toMinorUnits(units: number): number {
  return Math.round(units * 100);
}

/** The smallest donation in a currency: one unit, or Stripe's minimum where that is higher. */
export function minDonation(currency: Currency): number {
  return Math.max(MIN_DONATION, CURRENCY_MINIMUMS[currency]);
}

/** Why a donation amount is refused in the event's currency, or null. */
export function donationAmountProblem(amount: number, currency: Currency): string | null {
  if (amount < minDonation(currency)) return `The smallest donation is ${formatMoney(minDonation(currency), currency)}`;
  if (amount > MAX_DONATION) return `The largest donation is ${formatMoney(MAX_DONATION, currency)}`;
  return null;
}

/** Why an access price is refused in a currency (Stripe's minimum charge up to 1,000.00), or null. */
export function accessPriceProblem(price: number, currency: Currency): string | null {
  const min = CURRENCY_MINIMUMS[currency];
  if (price < min) return `Access price must be at least ${formatMoney(min, currency)}`;
  if (price > MAX_ACCESS_PRICE) return `Access price must be at most ${formatMoney(MAX_ACCESS_PRICE, currency)}`;
  return null;
}
