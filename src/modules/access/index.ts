import { Elysia } from "elysia";
import type { z } from "zod";
import {
  ACCESS_MESSAGES,
  LOST_CODE_MESSAGE,
  generateAccessCodeBody,
  lostCodeBody,
  validateAccessBody,
  verifyAccessBody,
  verifyExistingAccessBody,
  verifySpecialAccessBody,
  verifyStreamAccessBody,
} from "../../contracts/access.ts";
import type { AppContext } from "../../context.ts";
import { readCookie, setSessionCookie } from "../../http/cookies.ts";
import { clientIpPlugin, cookieIsSecure } from "../../http/security.ts";
import { badRequest, tooManyRequests, unauthorized } from "../../lib/errors.ts";
import { findPerson, streamIdentityOf } from "./person.ts";
import type { AdmitRequest } from "./service.ts";
import { VIEWER_COOKIE, VIEWER_SESSION_TTL_MS } from "./sessions.ts";
import { roleCan } from "../../contracts/team.ts";

type Set = { status?: number | string; headers: Record<string, string | number> };

/** A refusal in the shape the access pages read: `valid` and `message` (and `error`, like every other failure). */
function refusal(set: Set, status: number, message: string, retryAfterSeconds?: number) {
  set.status = status;
  if (retryAfterSeconds) set.headers["retry-after"] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return { valid: false as const, message, error: message };
}

/** Buying-to-watching: codes from payments, letting viewers in, who they are, and the lost-code e-mail. */
export function accessRoutes(ctx: AppContext) {
  const checksPerIp = ctx.cluster.limiter("access-checks", 60, 60_000);
  const failuresPerIp = ctx.cluster.backoff("access-failures", 20, 15 * 60_000, 60 * 60_000);
  const lostCodePerIp = ctx.cluster.limiter("lost-code-ip", 10, 60 * 60_000);
  const lostCodePerEmail = ctx.cluster.limiter("lost-code-email", 3, 60 * 60_000);
  const secure = cookieIsSecure(ctx.config);

  /** Counts a code check; the seconds to wait when the address has checked too often or failed too much. */
  const throttle = async (ip: string): Promise<number> => Math.max(await checksPerIp.hit(ip), await failuresPerIp.retryAfter(ip));

  const setViewerCookie = (set: Set, sessionId: string) => setSessionCookie(set, VIEWER_COOKIE, sessionId, { secure, maxAge: VIEWER_SESSION_TTL_MS / 1000 });

  /** The shared path of validate-access, verify-existing-access, verify-stream-access and verify-special-access. */
  const admitRoute =
    <S extends z.ZodType<Omit<AdmitRequest, "siteUrl" | "currentSessionId" | "onlyKinds">>>(schema: S, onlyKinds?: AdmitRequest["onlyKinds"]) =>
    async ({ body, set, clientIp, request }: { body: unknown; set: Set; clientIp: string; request: Request }) => {
      const wait = await throttle(clientIp);
      if (wait > 0) return refusal(set, 429, ACCESS_MESSAGES.tooManyAttempts, wait);
      const parsed = schema.safeParse(body);
      if (!parsed.success) return refusal(set, 400, parsed.error.issues[0]?.message ?? "Invalid request");
      const outcome = await ctx.access.admit({
        ...parsed.data,
        onlyKinds,
        currentSessionId: readCookie(request, VIEWER_COOKIE),
        siteUrl: ctx.site.url(),
      });
      if (!outcome.valid) {
        if (outcome.reason === "invalid-code") await failuresPerIp.fail(clientIp);
        // verify-special-access is read for its status only.
        if (onlyKinds) return refusal(set, 403, outcome.message);
        return { valid: false, message: outcome.message };
      }
      failuresPerIp.succeed(clientIp);
      setViewerCookie(set, outcome.sessionId);
      return { valid: true, message: outcome.message };
    };

  return (
    new Elysia({ name: "access-routes", prefix: "/api" })
      .use(clientIpPlugin(ctx.config))
      .post("/validate-access", admitRoute(validateAccessBody))
      .post("/verify-existing-access", admitRoute(verifyExistingAccessBody))
      // The body is named in the handler's own parameters: the framework parses a body only for a handler it
      // sees reading one, and a context handed on whole does not show it (the minified build then gave none).
      .post("/verify-stream-access", async ({ body, set, clientIp, request }) => {
        // A signed-in admin watches without a code, under their own name: no code is looked at or bound.
        const person = await findPerson(ctx, request);
        if (person?.role === "admin") return { valid: true, message: ACCESS_MESSAGES.granted, role: "admin" as const, username: person.admin.username };
        return admitRoute(verifyStreamAccessBody)({ body, set, clientIp, request });
      })
      .post("/verify-special-access", admitRoute(verifySpecialAccessBody, ["SCP", "MOD"]))
      .post("/verify-access", async ({ body, set, clientIp }) => {
        const wait = await throttle(clientIp);
        if (wait > 0) return refusal(set, 429, ACCESS_MESSAGES.tooManyAttempts, wait);
        const parsed = verifyAccessBody.safeParse(body);
        if (!parsed.success) return refusal(set, 400, parsed.error.issues[0]?.message ?? "Invalid request");
        const result = await ctx.access.check(parsed.data.accessCode, parsed.data.username);
        if (!result.valid) {
          if (result.reason === "invalid-code") await failuresPerIp.fail(clientIp);
          return refusal(set, 403, result.message);
        }
        return { valid: true, message: ACCESS_MESSAGES.granted };
      })
      .post(
        "/generate-access-code",
        async ({ body, clientIp }) => {
          const wait = await throttle(clientIp);
          if (wait > 0) throw tooManyRequests(ACCESS_MESSAGES.tooManyAttempts, wait);
          const code = await ctx.payments.fulfilAccessPurchase(body.paymentIntentId, ctx.site.url());
          return { accessCode: code.code };
        },
        { body: generateAccessCodeBody },
      )
      .get("/test/generate-access-code", async ({ clientIp }) => {
        const wait = await checksPerIp.hit(clientIp);
        if (wait > 0) throw tooManyRequests(ACCESS_MESSAGES.tooManyAttempts, wait);
        return { accessCode: (await ctx.access.issueTestCode()).code };
      })
      .get("/me", async ({ request, set }) => {
        set.headers["cache-control"] = "private, no-store";
        return streamIdentityOf(await findPerson(ctx, request));
      })
      .get("/user-data", async ({ request }) => {
        const person = await findPerson(ctx, request);
        if (!person) throw unauthorized(ACCESS_MESSAGES.notLoggedIn);
        return { username: person.role === "admin" ? person.admin.username : person.viewer.username };
      })
      .get("/check-moderator-status", async ({ request }) => {
        const person = await findPerson(ctx, request);
        // A team member moderates the chat when their role may (the chat socket applies the same rule).
        if (person?.role === "admin") return { isModerator: roleCan(person.admin.role, "moderation") };
        const viewer = person?.viewer;
        return { isModerator: !!viewer?.isModerator && !(await ctx.viewerSessions.isBanned(viewer.username, viewer.accessCodeId)) };
      })
      .post("/lost-code", async ({ body, clientIp }) => {
        const parsed = lostCodeBody.safeParse(body);
        if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? "Invalid request");
        const wait = await lostCodePerIp.hit(clientIp);
        if (wait > 0) throw tooManyRequests("Too many requests. Please try again later.", wait);
        // Over the per-address limit the answer is the same; only the e-mail is skipped.
        if ((await lostCodePerEmail.hit(parsed.data.email.toLowerCase())) === 0) await ctx.access.sendLostCodes(parsed.data.email, ctx.site.url());
        return { ok: true, message: LOST_CODE_MESSAGE };
      })
  );
}
