import { livestreamSettingsBody } from "../../contracts/settings.ts";
import type { AppContext } from "../../context.ts";
import { badRequest } from "../../lib/errors.ts";
import { adminRoutes } from "../admin/auth.ts";
import type { UploadService } from "../uploads/service.ts";
import { announceSettings } from "./announce.ts";

const THUMBNAIL_FIELD = "Send the image as multipart form data in a 'thumbnail' field";

/** GET/PUT /api/admin/livestream-settings and POST /api/admin/upload-thumbnail. */
export function settingsAdminRoutes(ctx: AppContext, uploads: UploadService) {
  return adminRoutes(ctx)
    .get("/livestream-settings", () => ctx.settings.get())
    .put(
      "/livestream-settings",
      async ({ body }) => {
        const saved = await ctx.settings.update(body);
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
          throw badRequest(THUMBNAIL_FIELD);
        }
        const file = form.get("thumbnail");
        if (!(file instanceof Blob)) throw badRequest(THUMBNAIL_FIELD);
        return { thumbnailUrl: await uploads.storeImage(file) };
      },
      { parse: "none" },
    );
}
