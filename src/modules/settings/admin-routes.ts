import { livestreamSettingsBody } from "../../contracts/settings.ts";
import type { AppContext } from "../../context.ts";
import { roleCan } from "../../contracts/team.ts";
import { badRequest, forbidden } from "../../lib/errors.ts";
import { adminRoutes, requireRecentProof, ROLE_REFUSED } from "../admin/auth.ts";
import type { UploadService } from "../uploads/service.ts";
import { announceSettings } from "./announce.ts";

const THUMBNAIL_FIELD = "Send the image as multipart form data in a 'thumbnail' field";

/** GET/PUT /api/admin/livestream-settings and POST /api/admin/upload-thumbnail. */
export function settingsAdminRoutes(ctx: AppContext, uploads: UploadService) {
  return adminRoutes(ctx, "settings")
    .get("/livestream-settings", () => ctx.settings.get())
    .put(
      "/livestream-settings",
      async ({ body, admin, session, clientIp }) => {
        const before = await ctx.settings.get();
        // The price and currency are what buyers pay: only an owner changes them, with a fresh proof.
        const pricing = (body.accessPrice !== undefined && body.accessPrice !== before.accessPrice) || (body.currency !== undefined && body.currency !== before.currency);
        if (pricing) {
          if (!roleCan(admin.role, "pricing")) throw forbidden("Only an owner can change the price or currency");
          requireRecentProof(session);
        }
        // The embed address is where every viewer's player points: a change is a change of the stream
        // source, asked for and logged as the Stream source card's save is.
        const embedUrl = body.embedUrl === undefined ? before.embedUrl : ctx.settings.embedLink(body.embedUrl);
        const moved = embedUrl !== before.embedUrl;
        if (moved) {
          if (!roleCan(admin.role, "stream")) throw forbidden(ROLE_REFUSED);
          requireRecentProof(session);
        }
        const saved = await ctx.settings.update(body);
        await announceSettings(ctx);
        const [from, to] = [changedFrom(before, saved), changedFrom(saved, before)];
        delete from.embedUrl;
        delete to.embedUrl;
        if (Object.keys(from).length > 0 || !moved) await ctx.audit.record(admin, "settings.update", null, from, to, clientIp);
        if (moved) await ctx.audit.record(admin, "stream-source.update", "embed", { embedUrl: before.embedUrl }, { embedUrl: saved.embedUrl }, clientIp);
        return saved;
      },
      { body: livestreamSettingsBody },
    )
    .post(
      "/upload-thumbnail",
      async ({ request, admin, clientIp }) => {
        const form = await request.formData().catch(() => {
          throw badRequest(THUMBNAIL_FIELD);
        });
        const file = form.get("thumbnail");
        if (!(file instanceof Blob)) throw badRequest(THUMBNAIL_FIELD);
        const thumbnailUrl = await uploads.storeImage(file);
        await ctx.audit.record(admin, "thumbnail.upload", null, null, { thumbnailUrl }, clientIp);
        return { thumbnailUrl };
      },
      { parse: "none" },
    );
}

/** The fields of `a` whose values differ in `b` (the before or after of a settings change). */
function changedFrom<T extends object>(a: T, b: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(a) as (keyof T)[]) if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) out[key] = a[key];
  return out;
}
