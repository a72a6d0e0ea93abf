import type { AppContext } from "../../context.ts";
import { adminRoutes } from "../admin/auth.ts";
import { cancelEventBody } from "../../contracts/settings.ts";
import { oneLine } from "../../lib/one-line.ts";
import { announceSettings } from "../settings/announce.ts";

/**
 * POST /api/admin/event/open (the doors open: live to pass holders, before the start if the owner chooses)
 * POST /api/admin/event/end (the night is over) and POST /api/admin/event/cancel (called off before it went
 * live; the buyers are written to): each audited with the phase before and after, and told to every open
 * page. Each answers the phase as GET /api/livestream-settings has it.
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
    })
    .post(
      "/event/cancel",
      async ({ admin, body, clientIp }) => {
        const before = await ctx.phases.view();
        await ctx.phases.cancel(body.note);
        const after = await ctx.phases.view();
        await announceSettings(ctx);
        await ctx.audit.record(admin, "event.cancel", null, { phase: before.phase }, { phase: after.phase, note: oneLine(body.note) }, clientIp);
        await ctx.cancellations.tellBuyers();
        return after;
      },
      { body: cancelEventBody },
    );
}
