import { Elysia } from "elysia";
import { t } from "elysia";
import { changePasswordBody, passwordAndCodeBody, reauthBody, totpEnableBody, webauthnRegisterBody } from "../../contracts/team.ts";
import type { AppContext } from "../../context.ts";
import { badRequest, conflict, HttpError, notFound, tooManyRequests, unauthorized } from "../../lib/errors.ts";
import { adminRoutes, requireRecentProof, SIGN_IN_TO_ENROL, startAdminSession } from "./auth.ts";
import { securityChangeMail } from "./mails.ts";
import type { Admin, AdminSession } from "./service.ts";
import { AdminSessions } from "./sessions.ts";
import { codeRefusal, type CodeCheck } from "./two-factor.ts";

const WRONG_PASSWORD = "That password is not right";

/**
 * A member's own security: two factors (an authenticator app, passkeys and security keys, recovery codes),
 * the step-up proof that moving money or keys asks for, their sessions, and their password.
 */
export function securityRoutes(ctx: AppContext) {
  const { twoFactor, team } = ctx.adminTeam;
  const sessions = new AdminSessions(ctx.store, ctx.admins);
  // Wrong passwords and codes given while signed in count too (a stolen session must not guess on).
  const proofFailures = ctx.cluster.backoff("admin-proof-failures", 5);

  const tell = (admin: Admin, what: string) =>
    ctx.mail.enqueue({ to: admin.email, ...securityChangeMail(admin.username, what, ctx.site.url()) }).then(
      () => undefined,
      (error: unknown) => ctx.log.error("could not queue a security notice", error),
    );

  /** A member who had to enrol has now: their enrolment-only session gives way to a full one (a new id). */
  const finishEnrolment = async (session: AdminSession, set: { headers: Record<string, unknown> }, clientIp: string, userAgent: string) => {
    if (!session.enrolOnly) return;
    await ctx.admins.endSession(session.id);
    await startAdminSession(ctx, set, session.admin.id, { address: clientIp, userAgent });
  };

  const checkPasswordAndCode = async (admin: Admin, password: string, code: string) => {
    const key = String(admin.id);
    const wait = await proofFailures.retryAfter(key);
    if (wait > 0) throw tooManyRequests(`Too many wrong attempts. Try again in ${Math.ceil(wait)} seconds.`, wait);
    if (!(await ctx.admins.checkPassword(admin.id, password))) {
      await proofFailures.fail(key);
      throw unauthorized(WRONG_PASSWORD);
    }
    const kind = /^[0-9]{6}$/.test(code) ? "totp" : "recovery";
    const check = kind === "totp" ? await twoFactor.verifyTotp(admin.id, code) : await twoFactor.useRecoveryCode(admin.id, code);
    if (check !== "ok") {
      await proofFailures.fail(key);
      throw unauthorized(codeRefusal(check, kind));
    }
    proofFailures.succeed(key);
  };

  const own = adminRoutes(ctx, "self")
    // Step-up: the password (an account without two factors) or a second factor, given again.
    .post(
      "/reauth",
      async ({ body, admin, session, sessionId, clientIp }) => {
        const key = String(admin.id);
        const wait = await proofFailures.retryAfter(key);
        if (wait > 0) throw tooManyRequests(`Too many wrong attempts. Try again in ${Math.ceil(wait)} seconds.`, wait);
        const hasFactor = await twoFactor.hasSecondFactor(admin.id);
        let check: CodeCheck;
        const factor = "password" in body ? "password" : "code" in body ? "totp" : "recoveryCode" in body ? "recovery" : "webauthn";
        if ("password" in body) {
          if (hasFactor) throw badRequest("Enter a code from your authenticator app, a recovery code or use your security key");
          // The team requires two factors: the password alone proves nothing more here than at sign-in.
          if (session.enrolOnly) throw new HttpError(403, SIGN_IN_TO_ENROL, {}, undefined, { enrol: true });
          check = (await ctx.admins.checkPassword(admin.id, body.password)) ? "ok" : "wrong";
        } else if ("code" in body) check = await twoFactor.verifyTotp(admin.id, body.code);
        else if ("recoveryCode" in body) check = await twoFactor.useRecoveryCode(admin.id, body.recoveryCode);
        else check = (await twoFactor.verifyAssertion(admin.id, body.webauthn as never, await twoFactor.takeSessionChallenge(sessionId))) ? "ok" : "wrong";
        if (check !== "ok") {
          await proofFailures.fail(key);
          await ctx.audit.record(admin, "reauth.failed", null, null, { factor }, clientIp);
          throw unauthorized("password" in body ? WRONG_PASSWORD : codeRefusal(check, factor === "recovery" ? "recovery" : "totp"));
        }
        proofFailures.succeed(key);
        await sessions.verified(sessionId);
        await ctx.audit.record(admin, "reauth", null, null, { factor }, clientIp);
        return { ok: true };
      },
      { body: reauthBody },
    )
    .post("/reauth/webauthn-options", ({ admin, sessionId }) => twoFactor.authenticationOptions(admin.id, (challenge) => twoFactor.keepChallengeOnSession(sessionId, challenge)))
    .get("/2fa", async ({ admin }) => ({
      ...(await twoFactor.factorsOf(admin.id)),
      passkeys: await twoFactor.passkeys(admin.id),
      passkeysUnavailable: twoFactor.passkeysUnavailable(),
      teamRequires: await team.requiresTwoFactor(),
    }))
    .post("/2fa/totp/setup", ({ admin, session }) => {
      requireRecentProof(session);
      return twoFactor.setupTotp(admin);
    })
    .post(
      "/2fa/totp/enable",
      async ({ body, admin, session, set, clientIp, userAgent }) => {
        requireRecentProof(session);
        const recoveryCodes = await twoFactor.enableTotp(admin.id, body.code);
        await ctx.audit.record(admin, "2fa.totp-enable", admin.username, { totp: false }, { totp: true }, clientIp);
        await tell(admin, "two-factor sign-in with an authenticator app was turned on.");
        await finishEnrolment(session, set, clientIp, userAgent);
        return { recoveryCodes };
      },
      { body: totpEnableBody },
    )
    .post(
      "/2fa/disable",
      async ({ body, admin, session, clientIp }) => {
        requireRecentProof(session);
        if (await team.requiresTwoFactor()) throw conflict("The team requires two-factor sign-in: it cannot be turned off");
        if (!(await twoFactor.hasSecondFactor(admin.id))) throw conflict("Two-factor sign-in is not on");
        await checkPasswordAndCode(admin, body.password, body.code);
        await twoFactor.disableAll(admin.id);
        await ctx.audit.record(admin, "2fa.disable", admin.username, { twoFactor: true }, { twoFactor: false }, clientIp);
        await tell(admin, "two-factor sign-in was turned off.");
        return { ok: true };
      },
      { body: passwordAndCodeBody },
    )
    .post(
      "/2fa/recovery-codes",
      async ({ body, admin, session, clientIp }) => {
        requireRecentProof(session);
        if (!(await twoFactor.hasSecondFactor(admin.id))) throw conflict("Turn on two-factor sign-in first");
        await checkPasswordAndCode(admin, body.password, body.code);
        const recoveryCodes = await twoFactor.replaceRecoveryCodes(admin.id);
        await ctx.audit.record(admin, "2fa.recovery-codes", admin.username, null, null, clientIp);
        await tell(admin, "a new set of recovery codes was made; the old ones no longer work.");
        return { recoveryCodes };
      },
      { body: passwordAndCodeBody },
    )
    .post("/2fa/webauthn/register-options", ({ admin, session, sessionId }) => {
      requireRecentProof(session);
      return twoFactor.registrationOptions(admin, sessionId);
    })
    .post(
      "/2fa/webauthn/register",
      async ({ body, admin, session, sessionId, set, clientIp, userAgent }) => {
        requireRecentProof(session);
        const hadFactor = await twoFactor.hasSecondFactor(admin.id);
        const key = await twoFactor.register(admin.id, sessionId, body.response as never, body.name);
        // The first factor comes with recovery codes, as with an app.
        const recoveryCodes = hadFactor ? null : await twoFactor.replaceRecoveryCodes(admin.id);
        await ctx.audit.record(admin, "2fa.key-add", key.name, null, { key: key.name }, clientIp);
        await tell(admin, `a security key or passkey ("${key.name}") was added.`);
        await finishEnrolment(session, set, clientIp, userAgent);
        return { key, recoveryCodes };
      },
      { body: webauthnRegisterBody },
    )
    .delete(
      "/2fa/webauthn/:id",
      async ({ params, admin, session, clientIp }) => {
        requireRecentProof(session);
        const keys = await twoFactor.passkeys(admin.id);
        const key = keys.find((k) => k.id === params.id);
        if (!key) throw notFound("No such key");
        const factors = await twoFactor.factorsOf(admin.id);
        if (!factors.totp && factors.webauthn <= 1 && (await team.requiresTwoFactor())) throw conflict("The team requires two-factor sign-in: add another factor first");
        await twoFactor.removePasskey(admin.id, params.id);
        if (!factors.totp && factors.webauthn <= 1) await twoFactor.disableAll(admin.id);
        await ctx.audit.record(admin, "2fa.key-remove", key.name, { key: key.name }, null, clientIp);
        await tell(admin, `the security key or passkey "${key.name}" was removed.`);
        return { ok: true };
      },
      { params: t.Object({ id: t.String({ maxLength: 2048 }) }) },
    );

  // Sessions and the password: open to full sessions only (an enrolling member has one session, this one).
  const account = adminRoutes(ctx, "member")
    .get("/sessions", async ({ admin, sessionId }) => ({ sessions: await sessions.list(admin.id, sessionId) }))
    .delete(
      "/sessions/:id",
      async ({ params, admin, clientIp }) => {
        if (!(await sessions.end(admin.id, params.id))) throw notFound("No such session");
        ctx.adminEvents.changed(admin.id);
        await ctx.audit.record(admin, "session.end", params.id, null, null, clientIp);
        return { ok: true };
      },
      { params: t.Object({ id: t.String({ maxLength: 64 }) }) },
    )
    .post("/sessions/end-others", async ({ admin, sessionId, clientIp }) => {
      const ended = await sessions.endOthers(admin.id, sessionId, "ended-elsewhere");
      ctx.adminEvents.changed(admin.id);
      await ctx.audit.record(admin, "session.end-others", admin.username, null, { ended }, clientIp);
      return { ended };
    })
    .post(
      "/password",
      async ({ body, admin, sessionId, clientIp }) => {
        const key = String(admin.id);
        const wait = await proofFailures.retryAfter(key);
        if (wait > 0) throw tooManyRequests(`Too many wrong attempts. Try again in ${Math.ceil(wait)} seconds.`, wait);
        if (!(await ctx.admins.checkPassword(admin.id, body.current))) {
          await proofFailures.fail(key);
          throw unauthorized(WRONG_PASSWORD);
        }
        proofFailures.succeed(key);
        // A new password ends every other session: whoever knew the old one is out.
        await ctx.admins.resetPassword(admin.username, body.next, sessionId);
        ctx.adminEvents.changed(admin.id);
        await sessions.verified(sessionId);
        await ctx.audit.record(admin, "password.change", admin.username, null, null, clientIp);
        await tell(admin, "your password was changed, and your other sessions were ended.");
        return { ok: true };
      },
      { body: changePasswordBody },
    );

  return new Elysia().use(own).use(account);
}
