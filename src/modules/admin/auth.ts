import { Elysia } from "elysia";
import { roleCan, type Capability } from "../../contracts/team.ts";
import type { AppContext } from "../../context.ts";
import { readCookie, setSessionCookie } from "../../http/cookies.ts";
import { cookieIsSecure } from "../../http/security.ts";
import { clientAddress } from "../../http/client-ip.ts";
import { HttpError } from "../../lib/errors.ts";
import { ADMIN_SESSION_TTL_MS, type AdminSession } from "./service.ts";

export const ADMIN_COOKIE = "dreadcast_admin";

/** How long a password or second factor counts for actions that move money or keys. */
export const STEP_UP_WINDOW_MS = 10 * 60_000;

export const ROLE_REFUSED = "Your role does not allow this";
export const ENROL_FIRST = "Set up two-factor sign-in to continue";
export const REAUTH_NEEDED = "Confirm it's you to continue";
/** A member who must enrol proves it is them again by signing in, never by the password alone. */
export const SIGN_IN_TO_ENROL = "Your team requires two-factor sign-in. Sign in again to set it up.";

/**
 * What a group of admin routes needs: a capability (the roles that have it, CAPABILITY_ROLES), `member`
 * (any role), or `self` (any role, and also open to a member who must first set up two factors: their own
 * profile, two-factor setup and sign-out).
 */
export type AdminNeed = Capability | "member" | "self";

/**
 * The one admin check: every route added to the returned app answers 401 without a live admin session and
 * 403 when the member's role lacks `need` (deny by default: the need is not optional), and has the
 * `admin`, its `session`, the caller's `clientIp`, `userAgent` and `receivedAt` in its context. It is a derive, which runs
 * before validation, so a caller without the right learns nothing about a route's input. Routes are added on
 * the returned instance:
 *
 *     adminRoutes(ctx, "payments").get("/payments", …)
 *
 * No plugin name on purpose: a named plugin is applied once per app, and a second module's routes would
 * then go unchecked.
 */
export function adminRoutes(ctx: AppContext, need: AdminNeed) {
  let server: { requestIP(request: Request): { address: string } | null } | null = null;
  return new Elysia({ prefix: "/api/admin" })
    .onStart((app) => {
      server = app.server;
    })
    .derive(async ({ request }) => {
      const receivedAt = performance.now();
      const session = await ctx.admins.requireSession(readCookie(request, ADMIN_COOKIE));
      if (session.enrolOnly && need !== "self") throw new HttpError(403, ENROL_FIRST, {}, undefined, { enrol: true });
      if (need !== "self" && need !== "member" && !roleCan(session.admin.role, need)) throw new HttpError(403, ROLE_REFUSED);
      return {
        admin: session.admin,
        session,
        /** This session's row id (never shown; for the calls that act on this very session). */
        sessionId: session.id,
        clientIp: clientAddress(server?.requestIP(request)?.address, request.headers.get("x-forwarded-for"), ctx.config.trustProxy),
        userAgent: request.headers.get("user-agent") ?? "",
        /** `performance.now()` when the request was taken in, before its session was looked up. */
        receivedAt,
      };
    });
}

/** 403 `{ reauth: true }` unless the session's holder gave a password or second factor in the last 10 minutes. */
export function requireRecentProof(session: AdminSession, now = Date.now()): void {
  if (now - session.verifiedAt > STEP_UP_WINDOW_MS) throw new HttpError(403, REAUTH_NEEDED, {}, undefined, { reauth: true });
}

/**
 * A new admin session for `adminId` (signed in, enrolled, or just joined), its cookie set on the answer;
 * returns its token. A member the team requires to set up two factors may only enrol with it until they
 * have (`AdminSession.enrolOnly`, read on every request).
 */
export async function startAdminSession(
  ctx: AppContext,
  set: { headers: Record<string, unknown> },
  adminId: number,
  client: { address: string; userAgent: string | null },
): Promise<string> {
  const token = await ctx.admins.createSession(adminId, { address: client.address, userAgent: client.userAgent });
  setSessionCookie(set, ADMIN_COOKIE, token, { secure: cookieIsSecure(ctx.config), maxAge: ADMIN_SESSION_TTL_MS / 1000 });
  return token;
}
