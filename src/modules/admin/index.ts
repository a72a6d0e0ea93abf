import { Elysia } from "elysia";
import { createFirstAdminBody, loginBody } from "../../contracts/admin.ts";
import type { AppContext } from "../../context.ts";
import { tooManyRequests, unauthorized } from "../../lib/errors.ts";
import { readCookie, setSessionCookie } from "../../http/cookies.ts";
import { clientIpPlugin, cookieIsSecure } from "../../http/security.ts";
import { ADMIN_COOKIE, adminAuth } from "./auth.ts";
import { ADMIN_SESSION_TTL_MS } from "./service.ts";

/** First-admin setup, login, logout and the profile. */
export function adminAuthRoutes(ctx: AppContext) {
  const loginsPerIp = ctx.cluster.limiter("admin-logins", 30, 15 * 60_000);
  const failures = ctx.cluster.backoff("admin-login-failures", 5);
  const secure = cookieIsSecure(ctx.config);

  return new Elysia({ name: "admin-auth-routes", prefix: "/api/admin" })
    .use(clientIpPlugin(ctx.config))
    .use(adminAuth(ctx))
    .get("/check-first-admin", async () => ({ needsFirstAdmin: await ctx.admins.needsFirstAdmin() }))
    .post(
      "/create-first",
      async ({ body, set }) => {
        const admin = await ctx.admins.createFirst(body.username, body.email, body.password);
        ctx.log.info(`first admin '${admin.username}' created`);
        set.status = 201;
        return { username: admin.username };
      },
      { body: createFirstAdminBody },
    )
    .post(
      "/login",
      async ({ body, set, clientIp }) => {
        const keys = [`ip:${clientIp}|${body.username.toLowerCase()}`, `user:${body.username.toLowerCase()}`];
        const wait = Math.max(await loginsPerIp.hit(clientIp), ...(await Promise.all(keys.map((k) => failures.retryAfter(k)))));
        if (wait > 0) throw tooManyRequests(`Too many login attempts. Try again in ${Math.ceil(wait)} seconds.`, wait);
        const admin = await ctx.admins.verifyCredentials(body.username, body.password);
        if (!admin) {
          await Promise.all(keys.map((k) => failures.fail(k)));
          throw unauthorized("Invalid username or password");
        }
        for (const k of keys) failures.succeed(k);
        setSessionCookie(set, ADMIN_COOKIE, (await ctx.admins.createSession(admin.id)), { secure, maxAge: ADMIN_SESSION_TTL_MS / 1000 });
        return { username: admin.username };
      },
      { body: loginBody },
    )
    .post("/logout", async ({ request, set }) => {
      await ctx.admins.endSession(readCookie(request, ADMIN_COOKIE));
      setSessionCookie(set, ADMIN_COOKIE, "", { secure, maxAge: 0 });
      return { ok: true };
    })
    .get("/profile", ({ admin }) => ({ username: admin.username }), { isAdmin: true });
}
