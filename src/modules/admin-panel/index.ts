import { Elysia } from "elysia";
import { intervalJob } from "../../cluster/cluster.ts";
import { fakeViewersBody, generateAccessCodeBody, idParam, sendAccessCodeBody, type AdminStats } from "../../contracts/admin-panel.ts";
import { paymentMode } from "../../config.ts";
import type { AppContext } from "../../context.ts";
import { LastingFailure } from "../../lib/lasting-failure.ts";
import { roleCan } from "../../contracts/team.ts";
import { adminRoutes } from "../admin/auth.ts";
import { csvResponse } from "../../http/csv.ts";
import { AdminPanelService } from "./service.ts";
import { backupStatus } from "../../cli/backup-status.ts";
import { SCHEMA_VERSION } from "../../db/migrations.ts";
import { VERSION } from "../../version.ts";
import { readyToSell } from "./ready-to-sell.ts";
import type { ReadyToSell } from "../../contracts/ready-to-sell.ts";

const SAMPLE_EVERY_MS = 60_000;

/** The dashboard (stats, history, fake viewers), access codes and users. */
export function adminPanelRoutes(ctx: AppContext) {
  const { settings, mail, chat: hub } = ctx;
  const panel = new AdminPanelService(ctx.store, ctx.access);
  // Before this server's first scheduled backup, the time since it started counts toward "late".
  const startedAt = Date.now();

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
  ctx.cluster.single(
    "stats-sampler",
    intervalJob(() => void sample(), SAMPLE_EVERY_MS, { atStart: true }),
  );

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
      server: { version: VERSION, schema: SCHEMA_VERSION },
      backups: await backupStatus(ctx.store, ctx.config, startedAt),
    };
  };

  const dashboard = adminRoutes(ctx, "stats")
    .get("/stats", () => stats())
    .get("/ready-to-sell", async (): Promise<ReadyToSell> =>
      readyToSell({
        settings: await settings.get(),
        paymentMode: paymentMode(ctx.config),
        stream: { set: await ctx.stream.isSet(), kind: ctx.stream.kind() },
        passesSold: await ctx.ledger.passesSold(),
      }),
    )
    .get("/stats/history", async () => ({ samples: await panel.history((await settings.get()).currency) }));

  const fakeViewers = adminRoutes(ctx, "fakeViewers").post(
    "/fake-viewers",
    async ({ body, admin, clientIp }) => {
      const current = await settings.get();
      const target = body.targetViewers ?? current.fakeViewersTarget;
      await settings.setFakeViewers(body.enabled, target);
      hub.applyFakeViewerSettings(body.enabled, target);
      await ctx.audit.record(
        admin,
        "fake-viewers.update",
        null,
        { enabled: current.fakeViewersEnabled, target: current.fakeViewersTarget },
        { enabled: body.enabled, target },
        clientIp,
      );
      return stats();
    },
    { body: fakeViewersBody },
  );

  const codes = adminRoutes(ctx, "codes")
    .get("/access-codes", () => panel.listAccessCodes())
    .get("/access-codes.csv", async ({ admin, clientIp }) => {
      const csv = await panel.accessCodesCsv();
      await ctx.audit.record(admin, "export.access-codes", "csv", null, null, clientIp);
      return csvResponse("access-codes", csv);
    })
    .post(
      "/generate-access-code",
      async ({ body, set, admin, clientIp }) => {
        const record = await panel.createAccessCode(body.kind ?? "SKP", body.email);
        if (body.email) await mail.queueAccessCode(record.id, record.code, body.email, ctx.site.url());
        await ctx.audit.record(admin, "access-code.create", codeLabel(record), null, { kind: record.kind, email: body.email ?? null }, clientIp);
        set.status = 201;
        return record;
      },
      { body: generateAccessCodeBody },
    )
    .post(
      "/access-codes/:id/send",
      async ({ params, body, admin, clientIp }) => {
        const { record, to } = await panel.prepareSend(params.id, body.email);
        await mail.queueAccessCode(record.id, record.code, to, ctx.site.url(), `access-code:${record.id}:sent:${Date.now()}`);
        await ctx.audit.record(admin, "access-code.send", codeLabel(record), { email: record.email }, { email: to }, clientIp);
        return { ok: true, email: to };
      },
      { params: idParam, body: sendAccessCodeBody },
    )
    .post(
      "/access-codes/:id/revoke",
      async ({ params, admin, clientIp }) => {
        for (const username of await panel.revoke(params.id)) await hub.kick({ username, userId: null, accessCodeId: params.id });
        const record = await panel.findAccessCode(params.id);
        await ctx.audit.record(admin, "access-code.revoke", codeLabel(record), { revoked: false }, { revoked: true }, clientIp);
        return record;
      },
      { params: idParam },
    )
    .post(
      "/access-codes/:id/restore",
      async ({ params, admin, clientIp }) => {
        const record = await panel.restore(params.id);
        await ctx.audit.record(admin, "access-code.restore", codeLabel(record), { revoked: true }, { revoked: false }, clientIp);
        return record;
      },
      { params: idParam },
    )
    .post(
      "/access-codes/:id/reset-device",
      async ({ params, admin, clientIp }) => {
        const record = await panel.resetDevice(params.id);
        // Its sessions are ended: its sockets close too, on every instance.
        hub.closeResetDevice(params.id);
        await ctx.audit.record(admin, "access-code.reset-device", codeLabel(record), null, null, clientIp);
        return record;
      },
      { params: idParam },
    );

  // Everyone on the team sees who entered; e-mail addresses and codes only those who handle codes.
  const users = adminRoutes(ctx, "users").get("/users", async ({ admin }) => {
    const list = await panel.listUsers();
    return roleCan(admin.role, "userEmails") ? list : list.map((u) => ({ ...u, email: null, accessCode: null }));
  });
  const userExport = adminRoutes(ctx, "userEmails").get("/users.csv", async ({ admin, clientIp }) => {
    const csv = await panel.usersCsv();
    await ctx.audit.record(admin, "export.users", "csv", null, null, clientIp);
    return csvResponse("users", csv);
  });

  return new Elysia().use(dashboard).use(fakeViewers).use(codes).use(users).use(userExport);
}

/** A code in the audit log: its id and last four characters, never the whole code. */
function codeLabel(record: { id: number; code: string }): string {
  return `#${record.id} …${record.code.slice(-4)}`;
}
