/**
 * The two session cookies, read and written by hand rather than through the framework's cookie jar.
 *
 * The jar is built for every request of the app as soon as any one handler asks for `cookie` — an
 * asynchronous parse of every cookie, a Proxy per request, and an `await` compiled into every route (the
 * public settings read, the pages, the assets) — while only a few routes read one of our two cookies.
 * Reading one name out of the header is a string search; the session ids are hex, so nothing needs
 * decoding.
 */

/** The value of cookie `name` in the request's Cookie header, or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (let start = 0; start < header.length;) {
    let end = header.indexOf(";", start);
    if (end === -1) end = header.length;
    const eq = header.indexOf("=", start);
    if (eq !== -1 && eq < end && header.slice(start, eq).trim() === name) {
      let value = header.slice(eq + 1, end).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      return value;
    }
    start = end + 1;
  }
  return undefined;
}

export interface SessionCookieOptions {
  /** Seconds; 0 removes the cookie. */
  maxAge: number;
  /** Secure flag: only when the site is served over https. */
  secure: boolean;
}

/** A `Set-Cookie` value for one of our session cookies: HttpOnly, SameSite=Lax, whole site. */
export function sessionCookie(name: string, value: string, { maxAge, secure }: SessionCookieOptions): string {
  const parts = [`${name}=${value}`, `Max-Age=${Math.floor(maxAge)}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (maxAge === 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

/** Adds the cookie to the response being built (`set.headers` of the handler's context). */
export function setSessionCookie(set: { headers: Record<string, unknown> }, name: string, value: string, options: SessionCookieOptions): void {
  set.headers["set-cookie"] = sessionCookie(name, value, options);
}
