import { Elysia } from "elysia";
import { intervalJob } from "../../cluster/cluster.ts";
import {
  fakeViewersBody,
  generateAccessCodeBody,
  idParam,
  refundPaymentBody,
  sendAccessCodeBody,
  unbanUserBody,
  type AdminStats,
} from "../../contracts/admin-panel.ts";
import { livestreamSettingsBody } from "../../contracts/settings.ts";
import { paymentMode } from "../../config.ts";
import type { AppContext } from "../../context.ts";
import { readCookie } from "../../http/cookies.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import { LastingFailure } from "../../lib/lasting-failure.ts";
import { ADMIN_COOKIE, adminAuth } from "../admin/auth.ts";
import type { UploadService } from "../uploads/service.ts";
import { csvResponse } from "./csv.ts";
import { AdminPanelService } from "./service.ts";

const SAMPLE_EVERY_MS = 60_000;

/** Tells every open page the saved settings; the embed link only while it is the stream source (others go per viewer). */
export async function announceSettings(ctx: AppContext): Promise<void> {
  const saved = await ctx.settings.get();
  await ctx.chat.broadcastSettings({
    eventTitle: saved.eventTitle,
    embedUrl: saved.isActive && (await ctx.stream.provider()).kind === "embed" ? saved.embedUrl : "",
    thumbnailUrl: saved.thumbnailUrl,
    donationGoal: saved.donationGoal,
    isActive: saved.isActive,
    startDate: saved.startDate,
  });
}

/** Every /api/admin/* call behind the login: stats, codes, users, payments, bans, settings, thumbnail, fake viewers. */
export function adminPanelRoutes(ctx: AppContext, uploads: UploadService) {
  const { settings, mail, chat: hub } = ctx;
  const panel = new AdminPanelService(ctx.store, ctx.access);

  // A sample missed while the database is away is said once, not every minute.
  const sampling = new LastingFailure(ctx.log, "stats samples not taken", "stats samples taken again");
  const sample = async () => {
    try {
      await panel.recordSample(hub.viewerCount(), await settings.donationTotal(), (await settings.get()).currency);
      sampling.succeeded();
    } catch (error) {
      sampling.failed(error);
    }
  };
  // One instance of a cluster takes the samples (of the cluster's counts).
  ctx.cluster.single("stats-sampler", intervalJob(() => void sample(), SAMPLE_EVERY_MS, { atStart: true }));

  const stats = async (): Promise<AdminStats> => {
    const s = await settings.get();
    const total = await settings.donationTotal();
    const others = (await ctx.ledger.donationTotals()).filter((t) => t.currency !== s.currency && t.amount !== 0);
    return {
      ...(await panel.counts()),
      donationTotal: total,
      donationTotals: [{ currency: s.currency, amount: total }, ...others],
      viewerCount: hub.viewerCount(),
      currentDonation: total,
      donationGoal: s.donationGoal,
      currency: s.currency,
      fakeViewerMode: s.fakeViewersEnabled,
      fakeViewersTarget: s.fakeViewersTarget,
      currentFakeViewers: hub.currentFakeViewers(),
      paymentMode: paymentMode(ctx.config),
      mailMode: ctx.config.smtpUrl ? "smtp" : "outbox",
    };
  };

  return new Elysia({ name: "admin-panel", prefix: "/api/admin" })
    .use(adminAuth(ctx))
    // Without a session the answer is 401 before the input is even looked at (validation runs before `isAdmin`).
    .onTransform(async ({ request }) => {
      await ctx.admins.requireSession(readCookie(request, ADMIN_COOKIE));
    })
    .guard({ isAdmin: true }, (app) =>
      app
        .get("/stats", () => stats())
        .get("/stats/history", async () => ({ samples: await panel.history((await settings.get()).currency) }))
        .post(
          "/fake-viewers",
          async ({ body }) => {
            const current = await settings.get();
            const target = body.targetViewers ?? current.fakeViewersTarget;
            await settings.setFakeViewers(body.enabled, target);
            hub.applyFakeViewerSettings(body.enabled, target);
            return stats();
          },
          { body: fakeViewersBody },
        )
        .get("/access-codes", () => panel.listAccessCodes())
        .get("/access-codes.csv", async () => csvResponse("access-codes", (await panel.accessCodesCsv())))
        .post(
          "/generate-access-code",
          async ({ body, set }) => {
            const record = await panel.createAccessCode(body.kind ?? "SKP", body.email);
            if (body.email) await mail.queueAccessCode(record.id, record.code, body.email, ctx.site.url());
            set.status = 201;
            return record;
          },
          { body: generateAccessCodeBody },
        )
        .post(
          "/access-codes/:id/send",
          async ({ params, body }) => {
            const record = await panel.findAccessCode(params.id);
            const to = body.email ?? record.email;
            if (!to) throw badRequest("Enter an e-mail address to send this code to");
            if (record.revoked) throw badRequest("This access code has been revoked");
            if (body.email) await panel.setEmail(record.id, body.email);
            await mail.queueAccessCode(record.id, record.code, to, ctx.site.url(), `access-code:${record.id}:sent:${Date.now()}`);
            return { ok: true, email: to };
          },
          { params: idParam, body: sendAccessCodeBody },
        )
        .post(
          "/access-codes/:id/revoke",
          async ({ params }) => {
            for (const username of (await panel.revoke(params.id))) await hub.kick({ username, userId: null, accessCodeId: params.id });
            return panel.findAccessCode(params.id);
          },
          { params: idParam },
        )
        .post("/access-codes/:id/restore", ({ params }) => panel.restore(params.id), { params: idParam })
        .post(
          "/access-codes/:id/reset-device",
          async ({ params }) => {
            const record = await panel.resetDevice(params.id);
            // Its sessions are ended: its sockets close too, on every instance.
            hub.closeResetDevice(params.id);
            return record;
          },
          { params: idParam },
        )
        .get("/users", () => panel.listUsers())
        .get("/users.csv", async () => csvResponse("users", (await panel.usersCsv())))
        .get("/payments", () => ctx.ledger.list())
        .get("/payments.csv", async () => csvResponse("payments", (await ctx.ledger.csv())))
        .post("/payments/refund", ({ body }) => ctx.refunds.refund(body.paymentIntentId, body.amount, ctx.site.url(), body.expectedRefunded, body.reason), {
          body: refundPaymentBody,
        })
        .get("/banned-users", async () => ({ bannedUsers: await hub.listBans() }))
        .post(
          "/unban-user",
          async ({ body, admin }) => {
            if (!(await hub.unban(body.username, admin.username))) throw notFound(`'${body.username}' is not banned`);
            return { ok: true, username: body.username };
          },
          { body: unbanUserBody },
        )
        .get("/livestream-settings", () => settings.get())
        .put(
          "/livestream-settings",
          async ({ body }) => {
            const saved = await settings.update(body);
            await announceSettings(ctx);
            return saved;
          },
          { body: livestreamSettingsBody },
        )
        .post(
          "/upload-thumbnail",
          async ({ request }) => {
            let form: FormData;
            try {
              form = await request.formData();
            } catch {
              throw badRequest("Send the image as multipart form data in a 'thumbnail' field");
            }
            const file = form.get("thumbnail");
            if (!(file instanceof Blob)) throw badRequest("Send the image as multipart form data in a 'thumbnail' field");
            return { thumbnailUrl: await uploads.storeImage(file) };
          },
          { parse: "none" },
        ),
    );
}
