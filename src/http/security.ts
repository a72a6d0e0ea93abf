import { Elysia } from "elysia";
import type { Config } from "../config.ts";
import { clientAddress } from "./client-ip.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Body limits by path; the server-wide cap (app.ts) is the largest of them. */
export const UPLOAD_BODY_LIMIT = 6 * 1024 * 1024;
export const WEBHOOK_BODY_LIMIT = 512 * 1024;
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** The policy of everything that is not one of our pages (JSON, CSV): nothing may load, nobody may frame it. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function bodyLimit(path: string): number {
  if (path === "/api/admin/upload-thumbnail") return UPLOAD_BODY_LIMIT;
  if (path === "/api/stripe/webhook") return WEBHOOK_BODY_LIMIT;
  return DEFAULT_BODY_LIMIT;
}

/** Origins a browser may send state-changing requests from: the request's own and the public URL's. */
export function isCrossSite(request: Request, config: Config): boolean {
  const origin = request.headers.get("origin");
  if (origin) {
    if (origin === new URL(request.url).origin) return false;
    if (config.publicUrl && origin === new URL(config.publicUrl).origin) return false;
    return true;
  }
  return request.headers.get("sec-fetch-site") === "cross-site";
}

export function baseSecurityHeaders(config: Config): Record<string, string> {
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    // The stream player may still go full screen and autoplay; nothing here needs these.
    "permissions-policy": "camera=(), microphone=(), geolocation=(), usb=(), interest-cohort=()",
  };
  if (config.publicUrl?.startsWith("https:")) headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

function tooLarge(set: { status?: number | string }, limit: number) {
  set.status = 413;
  return { error: `Request body too large (limit ${Math.round(limit / 1024)} KiB)` };
}

/**
 * A body sent without a Content-Length (chunked) is measured before any handler reads it: a copy is read
 * up to the limit, and the request is refused as soon as it goes over. Under the limit the original
 * stream still holds every byte for the handler.
 */
async function chunkedBodyExceeds(request: Request, limit: number): Promise<boolean> {
  const stream = request.clone().body;
  if (!stream) return false;
  const reader = stream.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      size += value.byteLength;
      if (size > limit) return true;
    }
  } catch {
    // A body that breaks off is the handler's to refuse (as malformed).
    return false;
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * Runs first on every request: security headers, the client address (trusting X-Forwarded-For only
 * from --trust-proxy peers), the refusal of cross-site state-changing calls and the body limits.
 */
export function securityPlugin(config: Config) {
  const headers = baseSecurityHeaders(config);
  return new Elysia({ name: "security" })
    .onRequest(async ({ request, set }) => {
      Object.assign(set.headers, headers);
      const path = new URL(request.url).pathname;
      // Pages and files set their own policy and caching; API answers are never framed, run or stored.
      if (path === "/api" || path.startsWith("/api/") || path === "/healthz") {
        set.headers["content-security-policy"] = API_CONTENT_SECURITY_POLICY;
        set.headers["cache-control"] = "no-store";
      }
      if (STATE_CHANGING.has(request.method) && isCrossSite(request, config)) {
        set.status = 403;
        return { error: "Cross-site request refused" };
      }
      const limit = bodyLimit(path);
      const declared = request.headers.get("content-length");
      if (declared !== null) {
        if (Number(declared) > limit) return tooLarge(set, limit);
      } else if (request.body && (await chunkedBodyExceeds(request, limit))) {
        return tooLarge(set, limit);
      }
    })
    .derive({ as: "global" }, ({ request, server }) => ({
      clientIp: clientAddress(server?.requestIP(request)?.address, request.headers.get("x-forwarded-for"), config.trustProxy),
    }));
}

export function cookieIsSecure(config: Config): boolean {
  return config.publicUrl?.startsWith("https:") ?? false;
}
