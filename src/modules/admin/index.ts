import { Elysia } from "elysia";
import { createFirstAdminBody, loginBody } from "../../contracts/admin.ts";
import type { AppContext } from "../../context.ts";
import { tooManyRequests, unauthorized } from "../../lib/errors.ts";
import { readCookie, setSessionCookie } from "../../http/cookies.ts";
import { clientIpPlugin, cookieIsSecure } from "../../http/security.ts";
import { ADMIN_COOKIE, adminRoutes } from "./auth.ts";
import { ADMIN_SESSION_TTL_MS } from "./service.ts";

/** The longest a login waits because its username failed often from other addresses. */
export const USERNAME_SLOWDOWN_MAX_MS = 5_000;

/** First-admin setup, login, logout and the profile. */
export function adminAuthRoutes(ctx: AppContext) {
  const loginsPerIp = ctx.cluster.limiter("admin-logins", 30, 15 * 60_000);
  // Failures lock out where they come from: the address (whatever names it tries) and the address with
  // that username. A username's failures from every address only slow its logins down, and the right
  // password still signs in after the wait: otherwise anyone could keep the owner out for good.
  const failuresPerIp = ctx.cluster.backoff("admin-login-failures-ip", 10);
  const failuresPerIpUser = ctx.cluster.backoff("admin-login-failures", 5);
  const failuresPerUser = ctx.cluster.backoff("admin-login-failures-user", 5, USERNAME_SLOWDOWN_MAX_MS);
  const secure = cookieIsSecure(ctx.config);

  const signIn = new Elysia({ name: "admin-auth-routes", prefix: "/api/admin" })
    .use(clientIpPlugin(ctx.config))
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
        const user = body.username.toLowerCase();
        const ipUser = `${clientIp}|${user}`;
        const wait = Math.max(await loginsPerIp.hit(clientIp), await failuresPerIp.retryAfter(clientIp), await failuresPerIpUser.retryAfter(ipUser));
        if (wait > 0) throw tooManyRequests(`Too many login attempts. Try again in ${Math.ceil(wait)} seconds.`, wait);
        const slowdown = Math.min(USERNAME_SLOWDOWN_MAX_MS, (await failuresPerUser.retryAfter(user)) * 1000);
        if (slowdown > 0) await Bun.sleep(slowdown);
        const admin = await ctx.admins.verifyCredentials(body.username, body.password);
        if (!admin) {
          await Promise.all([failuresPerIp.fail(clientIp), failuresPerIpUser.fail(ipUser), failuresPerUser.fail(user)]);
          throw unauthorized("Invalid username or password");
        }
        failuresPerIp.succeed(clientIp);
        failuresPerIpUser.succeed(ipUser);
        failuresPerUser.succeed(user);
        setSessionCookie(set, ADMIN_COOKIE, (await ctx.admins.createSession(admin.id)), { secure, maxAge: ADMIN_SESSION_TTL_MS / 1000 });
        return { username: admin.username };
      },
      { body: loginBody },
    )
    .post("/logout", async ({ request, set }) => {
      await ctx.admins.endSession(readCookie(request, ADMIN_COOKIE));
      setSessionCookie(set, ADMIN_COOKIE, "", { secure, maxAge: 0 });
      return { ok: true };
    });
  return new Elysia().use(signIn).use(adminRoutes(ctx).get("/profile", ({ admin }) => ({ username: admin.username })));
}
