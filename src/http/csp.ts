import type { CspSources } from "../modules/stream/providers.ts";

/**
 * The Content-Security-Policy of our pages: our own scripts, Stripe's, and what the chosen stream source
 * needs — its player's origin as a frame, or our relay's media and the player's worker.
 */
export function contentSecurityPolicy(stream: CspSources): string {
  const stripe = "https://js.stripe.com";
  const sources = (list: string[]) => (list.length ? ` ${list.join(" ")}` : "");
  return [
    "default-src 'self'",
    `script-src 'self' ${stripe}`,
    // Radix dialogs inject a small <style> for scroll locking; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    ...(stream.media.length ? [`media-src${sources(stream.media)}`] : []),
    ...(stream.worker.length ? [`worker-src${sources(stream.worker)}`] : []),
    "connect-src 'self' https://api.stripe.com https://m.stripe.network https://r.stripe.com",
    `frame-src ${stripe} https://hooks.stripe.com${sources(stream.frame.filter((origin) => origin !== "null"))}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}
