import { Elysia } from "elysia";
import type { Config } from "../config.ts";
import { clientAddress } from "./client-ip.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Body limits by path; the server-wide cap (app.ts) is the largest of them. */
export const UPLOAD_BODY_LIMIT = 6 * 1024 * 1024;
const WEBHOOK_BODY_LIMIT = 512 * 1024;
const DEFAULT_BODY_LIMIT = 64 * 1024;

function bodyLimit(path: string): number {
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
  };
  if (config.publicUrl?.startsWith("https:")) headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/**
 * Runs first on every request: security headers, the client address (trusting X-Forwarded-For only
 * from --trust-proxy peers) and the refusal of cross-site state-changing calls.
 */
export function securityPlugin(config: Config) {
  const headers = baseSecurityHeaders(config);
  return new Elysia({ name: "security" })
    .onRequest(({ request, set }) => {
      Object.assign(set.headers, headers);
      if (!STATE_CHANGING.has(request.method)) return;
      if (isCrossSite(request, config)) {
        set.status = 403;
        return { error: "Cross-site request refused" };
      }
      const length = Number(request.headers.get("content-length") ?? 0);
      const limit = bodyLimit(new URL(request.url).pathname);
      if (length > limit) {
        set.status = 413;
        return { error: `Request body too large (limit ${Math.round(limit / 1024)} KiB)` };
      }
    })
    .derive({ as: "global" }, ({ request, server }) => ({
      clientIp: clientAddress(server?.requestIP(request)?.address, request.headers.get("x-forwarded-for"), config.trustProxy),
    }));
}

export function cookieIsSecure(config: Config): boolean {
  return config.publicUrl?.startsWith("https:") ?? false;
}
