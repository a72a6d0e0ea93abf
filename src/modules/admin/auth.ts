import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";

export const ADMIN_COOKIE = "dreadcast_admin";

/**
 * The one admin check: every route added to the returned app answers 401 without a live admin session, and
 * has the `admin` in its context otherwise. It is a derive, which runs before validation, so a caller
 * without a session learns nothing about a route's input. Routes are added on the returned instance:
 *
 *     adminRoutes(ctx).get("/stats", ({ admin }) => …)
 *
 * No plugin name on purpose: a named plugin is applied once per app, and a second module's routes would
 * then go unchecked.
 */
export function adminRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/api/admin" }).derive(async ({ request }) => ({
    admin: await ctx.admins.requireSession(readCookie(request, ADMIN_COOKIE)),
  }));
}
