import { Elysia } from "elysia";
import type { UploadService } from "./service.ts";

/** Serves uploaded images; their names are content hashes, so they are cached for a year. */
export function uploadRoutes(uploads: UploadService) {
  return new Elysia({ name: "uploads" }).get("/uploads/:name", async ({ params, set }) => {
    const found = await uploads.find(params.name);
    if (!found) {
      set.status = 404;
      return { error: "Not found" };
    }
    return new Response(found.bytes ? (found.bytes as Uint8Array<ArrayBuffer>) : Bun.file(found.path), {
      headers: { "content-type": found.type, "cache-control": "public, max-age=31536000, immutable" },
    });
  });
}
