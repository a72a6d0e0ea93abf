import type { AppContext } from "../../context.ts";
import { adminRoutes } from "../admin/auth.ts";
import { announceSettings } from "../settings/announce.ts";

/**
 * POST /api/admin/event/open (the doors open: live to pass holders, before the start if the owner chooses)
 * and POST /api/admin/event/end (the night is over): each audited with the phase before and after, and told
 * to every open page. Both answer the phase as GET /api/livestream-settings has it.
 */
export function eventPhaseAdminRoutes(ctx: AppContext) {
  return adminRoutes(ctx, "settings")
    .post("/event/open", async ({ admin, clientIp }) => {
      const before = await ctx.phases.view();
      await ctx.phases.open();
      const after = await ctx.phases.view();
      await announceSettings(ctx);
      await ctx.audit.record(admin, "event.open", null, { phase: before.phase }, { phase: after.phase }, clientIp);
      return after;
    })
    .post("/event/end", async ({ admin, clientIp }) => {
      const before = await ctx.phases.view();
      await ctx.phases.end();
      const after = await ctx.phases.view();
      await announceSettings(ctx);
      await ctx.audit.record(admin, "event.end", null, { phase: before.phase }, { phase: after.phase }, clientIp);
      return after;
    });
}
