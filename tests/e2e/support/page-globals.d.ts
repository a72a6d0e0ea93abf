/** What the browser tests keep on a page's window (set by an init script or page.evaluate), and read back. */
interface Window {
  /** The Stripe.js stand-in's record of what the page asked of it (support/stripe-js.mjs). */
  __fakeStripe?: {
    elementsOptions: Record<string, any> | null;
    elementOptions: { type: string; options: Record<string, any> }[];
    confirmCalls: { confirmParams: Record<string, any>; redirect: string; hasElements: boolean }[];
  };
  /** What the page handed the stand-in share sheet. */
  __shared?: ShareData[];
  /** The toast titles shown so far. */
  toastTitles?: string[];
  /** The src of each video load. */
  videoLoads?: string[];
  /** Messages the stand-in embedded player received. */
  received?: any[];
  /** Set before an action: still there after it, the page was not reloaded. */
  notReloaded?: boolean;
  /** Safari's MediaSource, deleted to take the browser's other playback path. */
  ManagedMediaSource?: unknown;
}
