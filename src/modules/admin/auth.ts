import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";

export const ADMIN_COOKIE = "dreadcast_admin";

/** `{ isAdmin: true }` on a route: 401 without a live admin session, else `admin` in the context. */
export function adminAuth(ctx: AppContext) {
  return new Elysia({ name: "admin-auth" }).macro({
    isAdmin: {
      async resolve({ request }) {
        return { admin: await ctx.admins.requireSession(readCookie(request, ADMIN_COOKIE)) };
      },
    },
  });
}
