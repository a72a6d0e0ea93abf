/** The dashboard's "ready to sell" checklist (GET /api/admin/ready-to-sell) and the rule that closes sales. */

export type ReadyItemKey = "organizer" | "privacy" | "terms" | "payments" | "stream" | "testPurchase";

export interface ReadyItem {
  key: ReadyItemKey;
  label: string;
  done: boolean;
  /** What is set, or what is missing and where to set it. */
  detail: string;
}

export interface ReadyToSell {
  items: ReadyItem[];
  paymentMode: "demo" | "stripe";
  /** Whether BUY NOW sells passes now. */
  salesOpen: boolean;
  /** Why it does not, for the panel; null while it does. */
  closedReason: string | null;
}

/**
 * Why new passes cannot be sold, or null when they can: taking real money needs the organiser's privacy
 * policy and terms of service published first (demo mode takes none, so it sells without them).
 */
export function salesClosedReason(paymentMode: "demo" | "stripe", links: { privacyUrl: string; termsUrl: string }): string | null {
  if (paymentMode !== "stripe") return null;
  const missing = [links.privacyUrl ? "" : "privacy policy", links.termsUrl ? "" : "terms of service"].filter(Boolean);
  if (missing.length === 0) return null;
  return `BUY NOW stays closed until the ${missing.join(" and ")} link${missing.length > 1 ? "s are" : " is"} set in Settings: real card payments need them published first.`;
}

/** What a buyer is told while passes are not on sale (the reason is the panel's). */
export const SALES_CLOSED_MESSAGE = "Passes are not on sale yet. Check back soon.";
