import { intervalJob } from "../../cluster/cluster.ts";
import {
  fakeViewersBody,
  generateAccessCodeBody,
  idParam,
  sendAccessCodeBody,
  type AdminStats,
} from "../../contracts/admin-panel.ts";
import { paymentMode } from "../../config.ts";
import type { AppContext } from "../../context.ts";
import { LastingFailure } from "../../lib/lasting-failure.ts";
import { adminRoutes } from "../admin/auth.ts";
import { csvResponse } from "../../http/csv.ts";
import { AdminPanelService } from "./service.ts";

const SAMPLE_EVERY_MS = 60_000;

/** The dashboard (stats, history, fake viewers), access codes and users. */
export function adminPanelRoutes(ctx: AppContext) {
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

  return adminRoutes(ctx)
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
    .get("/access-codes.csv", async () => csvResponse("access-codes", await panel.accessCodesCsv()))
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
        const { record, to } = await panel.prepareSend(params.id, body.email);
        await mail.queueAccessCode(record.id, record.code, to, ctx.site.url(), `access-code:${record.id}:sent:${Date.now()}`);
        return { ok: true, email: to };
      },
      { params: idParam, body: sendAccessCodeBody },
    )
    .post(
      "/access-codes/:id/revoke",
      async ({ params }) => {
        for (const username of await panel.revoke(params.id)) await hub.kick({ username, userId: null, accessCodeId: params.id });
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
    .get("/users.csv", async () => csvResponse("users", await panel.usersCsv()));
}
