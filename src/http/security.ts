import { Elysia } from "elysia";
import type { Config } from "../config.ts";
import { HttpError } from "../lib/errors.ts";
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

/** The origin a request was sent to, from its Host header; a Host that makes no address (`a"b`) is a bad request. */
export function requestOrigin(request: Request): string {
  if (!URL.canParse(request.url)) throw new HttpError(400, "Invalid Host header");
  return new URL(request.url).origin;
}

/** Origins a browser may send state-changing requests from: the request's own and the public URL's. */
export function isCrossSite(request: Request, config: Config): boolean {
  const origin = request.headers.get("origin");
  if (origin) {
    if (origin === requestOrigin(request)) return false;
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

/** The headers of everything that is not one of our pages (API answers, health, errors, the relayed stream). */
export function apiHeaders(config: Config): Record<string, string> {
  return { ...baseSecurityHeaders(config), "content-security-policy": API_CONTENT_SECURITY_POLICY, "cache-control": "no-store" };
}

function bodyTooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body too large (limit ${Math.round(limit / 1024)} KiB)`);
}

/** The path of a request URL (`http://host/path?query`; a request's URL has no fragment), without building a URL object. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return url.slice(start, query === -1 ? url.length : query);
}

/**
 * A body sent without a Content-Length (chunked) cannot be measured before it is read, so it is read
 * through a counter instead: the request is replaced by one whose body stream fails with 413 as soon as
 * it goes over the limit, whoever reads it (the JSON parser, the upload or the webhook handler). Under
 * the limit every byte passes through unchanged.
 */
function limitedRequest(request: Request, limit: number): Request {
  let size = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) controller.error(bodyTooLarge(limit));
      else controller.enqueue(chunk);
    },
  });
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body!.pipeThrough(counter),
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}

/**
 * Security on every request. The headers are the app's default headers (merged into each response by
 * the framework; pages and files replace the policy and the caching with their own): the base set, and
 * for everything else — API answers, health, errors — a policy under which nothing may load or frame it,
 * and no storing.
 *
 * The hook refuses cross-site state-changing calls and bodies over their limit. It is synchronous on
 * purpose, and returns at once for GET and HEAD: whatever it does is compiled into every route of the
 * app, and an `async` hook would put an `await` into all of them. So a chunked body is limited as it is
 * read (above) rather than measured first.
 */
export function securityPlugin(config: Config) {
  return new Elysia({ name: "security" }).headers(apiHeaders(config)).onRequest((context) => {
    const request = context.request;
    if (request.method === "GET" || request.method === "HEAD") return;
    if (!URL.canParse(request.url)) throw new HttpError(400, "Invalid Host header");
    if (STATE_CHANGING.has(request.method) && isCrossSite(request, config)) throw new HttpError(403, "Cross-site request refused");
    const limit = bodyLimit(pathOf(request.url));
    const declared = request.headers.get("content-length");
    if (declared !== null) {
      if (Number(declared) > limit) throw bodyTooLarge(limit);
    } else if (request.body) {
      (context as { request: Request }).request = limitedRequest(request, limit);
    }
  });
}

/**
 * The client's address for the routes that limit by it (code checks, logins, payments, sockets). Worked
 * out only where one of those routes asks, not for every request: `requestIP` is a call into the server
 * for the socket's peer. The server is taken once when it starts rather than from each request's
 * context, where asking for it would add a getter to the context of every route. Unnamed, so each module
 * that uses it gets the derive on its own routes.
 */
export function clientIpPlugin(config: Config) {
  let server: { requestIP(request: Request): { address: string } | null } | null = null;
  return new Elysia()
    .onStart((app) => {
      server = app.server;
    })
    .derive({ as: "scoped" }, ({ request }) => ({
      clientIp: clientAddress(server?.requestIP(request)?.address, request.headers.get("x-forwarded-for"), config.trustProxy),
    }));
}

export function cookieIsSecure(config: Config): boolean {
  return config.publicUrl?.startsWith("https:") ?? false;
}
