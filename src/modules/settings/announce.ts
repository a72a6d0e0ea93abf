import type { AppContext } from "../../context.ts";

/** Tells every open page the saved settings and the night's phase; the embed link only while it is the stream source (others go per viewer). */
export async function announceSettings(ctx: AppContext): Promise<void> {
  const saved = await ctx.settings.get();
  const { phase, ...night } = await ctx.phases.view();
  await ctx.chat.broadcastSettings({
    eventTitle: saved.eventTitle,
    embedUrl: saved.isActive && ctx.stream.provider().kind === "embed" ? saved.embedUrl : "",
    thumbnailUrl: saved.thumbnailUrl,
    donationGoal: saved.donationGoal,
    isActive: saved.isActive,
    startDate: saved.startDate,
    phase,
    night,
  });
}
