import { Elysia } from "elysia";
import { ACCESS_MESSAGES } from "../../contracts/access.ts";
import { createDonationIntentBody, createPaymentIntentBody, demoConfirmPaymentBody } from "../../contracts/payments.ts";
import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";
import { clientIpPlugin } from "../../http/security.ts";
import { badRequest, conflict, tooManyRequests, unauthorized } from "../../lib/errors.ts";
import { CANCELLED_NOT_ON_SALE, NOT_ON_SALE, REPLAY_NOT_READY } from "../../contracts/event-phase.ts";
import type { Limiter } from "../../cluster/cluster.ts";
import { VIEWER_COOKIE } from "../access/sessions.ts";

/** Payment setup for the dialog, the demo card form and the Stripe webhook. */
export function paymentRoutes(ctx: AppContext) {
  const intentsPerIp = ctx.cluster.limiter("payment-intents", 30, 10 * 60_000);
  const demoConfirmsPerIp = ctx.cluster.limiter("demo-confirms", 30, 10 * 60_000);

  const limit = async (limiter: Limiter, ip: string) => {
    const wait = await limiter.hit(ip);
    if (wait > 0) throw tooManyRequests("Too many payment attempts. Please try again later.", wait);
  };

  return new Elysia({ name: "payment-routes", prefix: "/api" })
    .use(clientIpPlugin(ctx.config))
    .get("/payment-config", () => ctx.payments.paymentConfig())
    .post(
      "/create-payment-intent",
      async ({ body, clientIp }) => {
        await limit(intentsPerIp, clientIp);
        const night = await ctx.phases.view();
        if (!night.onSale) {
          if (night.cancelledAt !== null) throw conflict(CANCELLED_NOT_ON_SALE);
          throw conflict(night.phase === "ended" && (await ctx.settings.get()).replayEnabled ? REPLAY_NOT_READY : NOT_ON_SALE);
        }
        return ctx.payments.createAccessIntent(body.email, ctx.site.url());
      },
      { body: createPaymentIntentBody },
    )
    .post(
      "/create-donation-intent",
      async ({ body, clientIp, request }) => {
        const viewer = await ctx.viewerSessions.findSession(readCookie(request, VIEWER_COOKIE));
        if (!viewer) throw unauthorized(ACCESS_MESSAGES.notLoggedIn);
        await limit(intentsPerIp, clientIp);
        return ctx.payments.createDonationIntent(body.amount, viewer, ctx.site.url());
      },
      { body: createDonationIntentBody },
    )
    .post(
      "/demo/confirm-payment",
      async ({ body, clientIp }) => {
        await limit(demoConfirmsPerIp, clientIp);
        return { ok: true, paymentIntent: await ctx.payments.confirmDemoPayment(body.clientSecret, body.cardNumber, ctx.site.url(), body.email) };
      },
      { body: demoConfirmPaymentBody },
    )
    .get("/demo/payment-intent", ({ query }) => {
      const clientSecret = typeof query.clientSecret === "string" ? query.clientSecret : "";
      if (!clientSecret) throw badRequest("clientSecret is required");
      return ctx.payments.demoIntentState(clientSecret);
    })
    .post("/stripe/webhook", async ({ request }) => ctx.payments.handleWebhook(await request.text(), request.headers.get("stripe-signature"), ctx.site.url()), { parse: "none" });
}
