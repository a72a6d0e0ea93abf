/** The Content-Security-Policy of our pages: our own scripts, Stripe's, and the stream player's origin as a frame. */
export function contentSecurityPolicy(embedUrl: string): string {
  let embedOrigin = "";
  try {
    if (embedUrl) embedOrigin = new URL(embedUrl).origin;
  } catch {
    embedOrigin = "";
  }
  const stripe = "https://js.stripe.com";
  return [
    "default-src 'self'",
    `script-src 'self' ${stripe}`,
    // Radix dialogs inject a small <style> for scroll locking; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self' https://api.stripe.com https://m.stripe.network https://r.stripe.com",
    `frame-src ${stripe} https://hooks.stripe.com${embedOrigin && embedOrigin !== "null" ? ` ${embedOrigin}` : ""}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}
