import { useCallback } from "react";
import { DEFAULT_CURRENCY, formatAmount, formatMoney } from "@contracts/money";
import { useLivestreamSettings } from "@/lib/livestream-settings";

/** The event's currency for viewer pages (from the public settings), GBP until they load. */
export function useEventCurrency(): string {
  return useLivestreamSettings().data?.currency ?? DEFAULT_CURRENCY;
}

/** Minor units → "€4.50" in the event's currency; amounts with a currency of their own use `formatMoney`. */
export function useFormatMoney(): (minor: number) => string {
  const currency = useEventCurrency();
  return useCallback((minor: number) => formatMoney(minor, currency), [currency]);
}

/** Minor units → "£20" / "€4.50" (no ".00" on whole amounts) in the event's currency. */
export function useFormatAmount(): (minor: number) => string {
  const currency = useEventCurrency();
  return useCallback((minor: number) => formatAmount(minor, currency), [currency]);
}
