import { Elysia } from "elysia";
import { unbanUserBody } from "../../contracts/admin-panel.ts";
import { banUserBody, chatRulesBody, liftTimeoutBody, moderationLogQuery, moderatorBody, userIdParam } from "../../contracts/moderation.ts";
import type { AppContext } from "../../context.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { adminRoutes } from "../admin/auth.ts";
import { csvResponse, downloadResponse } from "../../http/csv.ts";
import { ModeratorActions } from "../chat/moderator-actions.ts";
import { findTarget, FrameRefused } from "../chat/targets.ts";
import { ModerationAdminService } from "./service.ts";

/** /api/admin moderation calls: chat rules, the moderation log, timeouts, moderators, bans and the chat export. */
export function moderationRoutes(ctx: AppContext) {
  const hub = ctx.chat;
  const actions = new ModeratorActions(hub);
  const service = new ModerationAdminService(ctx.store, hub.moderation.log);

  const rules = adminRoutes(ctx, "chatRules")
    .get("/chat-rules", () => hub.moderation.getRules())
    .put(
      "/chat-rules",
      async ({ body, admin, clientIp }) => {
        const before = hub.moderation.getRules();
        const saved = await actions.saveRules(body, admin.username);
        await ctx.audit.record(admin, "chat-rules.update", null, before, saved, clientIp);
        return saved;
      },
      { body: chatRulesBody },
    );

  const moderators = adminRoutes(ctx, "moderators").post(
    "/users/:id/moderator",
    async ({ params, body, admin, clientIp }) => {
      const { username } = await service.setModerator(params.id, body.isModerator, admin.username);
      actions.moderatorChanged(params.id, body.isModerator);
      await ctx.audit.record(admin, body.isModerator ? "moderator.add" : "moderator.remove", username, null, null, clientIp);
      return { id: params.id, username, isModerator: body.isModerator };
    },
    { params: userIdParam, body: moderatorBody },
  );

  const chat = adminRoutes(ctx, "moderation")
    .get("/moderation-log", async ({ query }) => ({ entries: await hub.moderation.log.list(query) }), { query: moderationLogQuery })
    .get("/moderation-log.csv", async ({ query }) => csvResponse("moderation-log", service.logCsv(await hub.moderation.log.list({ ...query, limit: query.limit ?? 100_000 }))), {
      query: moderationLogQuery,
    })
    .get("/timeouts", async () => ({ timeouts: await hub.moderation.timeouts.list() }))
    .post(
      "/lift-timeout",
      async ({ body, admin, clientIp }) => {
        let target;
        try {
          target = await findTarget(hub, { targetUsername: body.username });
        } catch (error) {
          if (error instanceof FrameRefused) throw notFound(error.message);
          throw error;
        }
        if (!(await actions.liftTimeout(target, admin.username))) throw notFound(`'${target.username}' is not timed out`);
        await ctx.audit.record(admin, "timeout.lift", target.username, null, null, clientIp);
        return { ok: true, username: target.username };
      },
      { body: liftTimeoutBody },
    )
    // A ban from the Users screen, for anyone who entered, whether or not they have chatted: as a
    // moderator's in the chat, by name and by code, their sessions ended and the stream refused to them.
    .post(
      "/users/:id/ban",
      async ({ params, body, admin, clientIp }) => {
        const user = await service.findUser(params.id);
        if (await hub.isBanned(user.username, user.accessCodeId)) throw conflict(`'${user.username}' is already banned`);
        const reason = body.reason ?? null;
        await hub.ban(user.username, user.accessCodeId, admin.username, reason);
        await hub.moderation.log.record({ action: "ban", moderator: admin.username, target: user.username, detail: reason });
        await ctx.audit.record(admin, "user.ban", user.username, null, { reason }, clientIp);
        return { ok: true, id: params.id, username: user.username };
      },
      { params: userIdParam, body: banUserBody },
    )
    .get("/chat-export.json", async ({ admin, clientIp }) => {
      const messages = await service.chatExport();
      await ctx.audit.record(admin, "export.chat", "json", null, { messages: messages.length }, clientIp);
      return downloadResponse("chat", "json", JSON.stringify({ exportedAt: new Date().toISOString(), messages }, null, 2));
    })
    .get("/chat-export.csv", async ({ admin, clientIp }) => {
      const messages = await service.chatExport();
      await ctx.audit.record(admin, "export.chat", "csv", null, { messages: messages.length }, clientIp);
      return csvResponse("chat", service.chatExportCsv(messages));
    })
    .get("/banned-users", async () => ({ bannedUsers: await hub.listBans() }))
    .post(
      "/unban-user",
      async ({ body, admin, clientIp }) => {
        if (!(await hub.unban(body.username, admin.username))) throw notFound(`'${body.username}' is not banned`);
        await ctx.audit.record(admin, "user.unban", body.username, null, null, clientIp);
        return { ok: true, username: body.username };
      },
      { body: unbanUserBody },
    );

  return new Elysia().use(rules).use(moderators).use(chat);
}
