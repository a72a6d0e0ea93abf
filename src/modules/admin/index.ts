import { Elysia } from "elysia";
import { createFirstAdminBody, loginBody } from "../../contracts/admin.ts";
import { capabilitiesOf, secondFactorBody, TOO_MANY_WRONG_CODES, type AdminProfile, type LoginAnswer } from "../../contracts/team.ts";
import type { AppContext } from "../../context.ts";
import { tooManyRequests, unauthorized } from "../../lib/errors.ts";
import { readCookie, setSessionCookie } from "../../http/cookies.ts";
import { clientIpPlugin, cookieIsSecure } from "../../http/security.ts";
import { ADMIN_COOKIE, adminRoutes, startAdminSession } from "./auth.ts";
import { sessionIdOf } from "./service.ts";
import { CHALLENGE_GONE, CHALLENGE_TTL_MS, codeRefusal, type CodeCheck } from "./two-factor.ts";

/** The longest a login waits because its username failed often from other addresses. */
export const USERNAME_SLOWDOWN_MAX_MS = 5_000;
/** The cookie that carries a sign-in waiting for its second factor (it opens nothing else). */
export const CHALLENGE_COOKIE = "dreadcast_admin_challenge";

/** First-admin setup, sign-in (password, then a second factor where the account has one), sign-out and the profile. */
export function adminAuthRoutes(ctx: AppContext) {
  const { twoFactor, team } = ctx.adminTeam;
  const loginsPerIp = ctx.cluster.limiter("admin-logins", 30, 15 * 60_000);
  // Failures lock out where they come from: the address (whatever names it tries) and the address with
  // that username. A username's failures from every address only slow its logins down, and the right
  // password still signs in after the wait: otherwise anyone could keep the owner out for good.
  const failuresPerIp = ctx.cluster.backoff("admin-login-failures-ip", 10);
  const failuresPerIpUser = ctx.cluster.backoff("admin-login-failures", 5);
  const failuresPerUser = ctx.cluster.backoff("admin-login-failures-user", 5, USERNAME_SLOWDOWN_MAX_MS);
  // Second-factor codes: five wrong ones end a challenge; beyond that, an account (whatever addresses the
  // codes come from) and an address (whatever accounts) wait longer and longer.
  const codeFailuresPerAccount = ctx.cluster.backoff("admin-2fa-failures-account", 10);
  const codeFailuresPerIp = ctx.cluster.backoff("admin-2fa-failures-ip", 10);
  const secure = cookieIsSecure(ctx.config);

  const startSession = (set: { headers: Record<string, unknown> }, adminId: number, clientIp: string, userAgent: string | null) =>
    startAdminSession(ctx, set, adminId, { address: clientIp, userAgent });
  const clearChallenge = (set: { headers: Record<string, unknown> }) => {
    // One Set-Cookie header per response through `set`: the session cookie wins; the challenge cookie
    // is dead anyway once its row is gone.
    if (!set.headers["set-cookie"]) setSessionCookie(set, CHALLENGE_COOKIE, "", { secure, maxAge: 0 });
  };

  const signIn = new Elysia({ name: "admin-auth-routes", prefix: "/api/admin" })
    .use(clientIpPlugin(ctx.config))
    .get("/check-first-admin", async () => ({ needsFirstAdmin: await ctx.admins.needsFirstAdmin() }))
    .post(
      "/create-first",
      async ({ body, set, clientIp }) => {
        const admin = await ctx.admins.createFirst(body.username, body.email, body.password);
        ctx.log.info(`first admin '${admin.username}' created`);
        await ctx.audit.record(admin, "team.first-owner", admin.username, null, { role: "owner", email: admin.email }, clientIp);
        set.status = 201;
        return { username: admin.username };
      },
      { body: createFirstAdminBody },
    )
    .post(
      "/login",
      async ({ body, set, clientIp, request }): Promise<LoginAnswer> => {
        const user = body.username.toLowerCase();
        const ipUser = `${clientIp}|${user}`;
        const wait = Math.max(await loginsPerIp.hit(clientIp), await failuresPerIp.retryAfter(clientIp), await failuresPerIpUser.retryAfter(ipUser));
        if (wait > 0) throw tooManyRequests(`Too many login attempts. Try again in ${Math.ceil(wait)} seconds.`, wait);
        const slowdown = Math.min(USERNAME_SLOWDOWN_MAX_MS, (await failuresPerUser.retryAfter(user)) * 1000);
        if (slowdown > 0) await Bun.sleep(slowdown);
        const admin = await ctx.admins.verifyCredentials(body.username, body.password);
        if (!admin) {
          await Promise.all([failuresPerIp.fail(clientIp), failuresPerIpUser.fail(ipUser), failuresPerUser.fail(user)]);
          await ctx.audit.record({ id: null, username: body.username.slice(0, 100) }, "sign-in.failed", null, null, { reason: "wrong password or unknown name" }, clientIp);
          throw unauthorized("Invalid username or password");
        }
        failuresPerIp.succeed(clientIp);
        failuresPerIpUser.succeed(ipUser);
        failuresPerUser.succeed(user);
        const kinds = await twoFactor.kindsOf(admin.id);
        if (kinds.includes("totp") || kinds.includes("webauthn")) {
          // The password alone opens nothing: a short-lived challenge waits for the second factor.
          const challenge = await twoFactor.openChallenge(admin.id);
          setSessionCookie(set, CHALLENGE_COOKIE, challenge.token, { secure, maxAge: CHALLENGE_TTL_MS / 1000 });
          await ctx.audit.record(admin, "sign-in.password", null, null, { secondFactor: kinds }, clientIp);
          return { secondFactor: kinds, challengeExpiresAt: new Date(challenge.expiresAt).toISOString() };
        }
        const mustEnrol = await team.requiresTwoFactor();
        await startSession(set, admin.id, clientIp, request.headers.get("user-agent"));
        await ctx.audit.record(admin, "sign-in", null, null, { factor: "password", mustEnrol }, clientIp);
        return mustEnrol ? { username: admin.username, mustEnrol: true } : { username: admin.username };
      },
      { body: loginBody },
    )
    .post("/login/webauthn-options", async ({ request }) => {
      const token = readCookie(request, CHALLENGE_COOKIE);
      const { adminId } = await twoFactor.challengeAccount(token);
      return twoFactor.authenticationOptions(adminId, (challenge) => twoFactor.keepChallengeOnSignIn(token!, challenge));
    })
    .post(
      "/login/second-factor",
      async ({ body, set, clientIp, request }): Promise<LoginAnswer> => {
        const token = readCookie(request, CHALLENGE_COOKIE);
        const { adminId } = await twoFactor.challengeAccount(token);
        const account = String(adminId);
        const wait = Math.max(await codeFailuresPerAccount.retryAfter(account), await codeFailuresPerIp.retryAfter(clientIp));
        if (wait > 0) throw tooManyRequests(`Too many wrong codes. Try again in ${Math.ceil(wait)} seconds.`, wait);
        let factor: "totp" | "recovery" | "webauthn";
        let check: CodeCheck;
        if ("code" in body) {
          factor = "totp";
          check = await twoFactor.verifyTotp(adminId, body.code);
        } else if ("recoveryCode" in body) {
          factor = "recovery";
          check = await twoFactor.useRecoveryCode(adminId, body.recoveryCode);
        } else {
          factor = "webauthn";
          check = (await twoFactor.verifyAssertion(adminId, body.webauthn as never, await twoFactor.takeSignInChallenge(token!))) ? "ok" : "wrong";
        }
        const admin = await ctx.admins.findById(adminId);
        if (check !== "ok" || !admin) {
          const refused = check === "ok" ? "wrong" : check;
          await Promise.all([codeFailuresPerAccount.fail(account), codeFailuresPerIp.fail(clientIp)]);
          const open = await twoFactor.failChallenge(token!);
          await ctx.audit.record(
            admin ?? { id: adminId, username: `#${adminId}` },
            "sign-in.failed",
            null,
            null,
            { reason: `${refused} ${factor}`, challengeEnded: !open },
            clientIp,
          );
          if (!open) {
            clearChallenge(set);
            throw unauthorized(TOO_MANY_WRONG_CODES);
          }
          throw unauthorized(codeRefusal(refused, factor === "recovery" ? "recovery" : "totp"));
        }
        // Good once: of two requests with the same challenge, only one makes a session.
        if (!(await twoFactor.closeChallenge(token!))) throw unauthorized(CHALLENGE_GONE);
        codeFailuresPerAccount.succeed(account);
        codeFailuresPerIp.succeed(clientIp);
        await startSession(set, admin.id, clientIp, request.headers.get("user-agent"));
        await ctx.audit.record(admin, "sign-in", null, null, { factor }, clientIp);
        return { username: admin.username };
      },
      { body: secondFactorBody },
    )
    .post("/logout", async ({ request, set }) => {
      const token = readCookie(request, ADMIN_COOKIE);
      if (token) await ctx.admins.endSession(sessionIdOf(token));
      setSessionCookie(set, ADMIN_COOKIE, "", { secure, maxAge: 0 });
      return { ok: true };
    });

  const profile = adminRoutes(ctx, "self")
    .get("/profile", async ({ admin, session }): Promise<AdminProfile> => ({
      username: admin.username,
      role: admin.role,
      capabilities: session.enrolOnly ? [] : capabilitiesOf(admin.role),
      twoFactor: await twoFactor.factorsOf(admin.id),
      mustEnrol: session.enrolOnly,
    }))
    // The open panel's Server-Sent Events: `profile` when an owner changed this member's role or sessions.
    .get("/events", ({ admin, request, server }) => {
      // Open for as long as the panel is: not closed as idle between the heartbeats.
      server?.timeout(request, 0);
      return new Response(ctx.adminEvents.stream(admin.id), {
        headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" },
      });
    });

  return new Elysia().use(signIn).use(profile);
}
