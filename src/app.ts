import { Elysia } from "elysia";
import type { AppContext } from "./context.ts";
import { WS_MAX_FRAME_BYTES } from "./contracts/chat.ts";
import { HttpError } from "./lib/errors.ts";
import { contentSecurityPolicy } from "./http/csp.ts";
import { securityPlugin, UPLOAD_BODY_LIMIT } from "./http/security.ts";
import { loadWebAssets, webAppPlugin, type WebAsset } from "./http/web-app.ts";
import { accessRoutes } from "./modules/access/index.ts";
import { adminAuthRoutes } from "./modules/admin/index.ts";
import { adminPanelRoutes } from "./modules/admin-panel/index.ts";
import { uploadRoutes } from "./modules/uploads/index.ts";
import { UploadService } from "./modules/uploads/service.ts";
import { chatRoutes } from "./modules/chat/index.ts";
import { healthRoutes } from "./modules/health/index.ts";
import { moderationRoutes } from "./modules/moderation/index.ts";
import { paymentRoutes } from "./modules/payments/index.ts";
import { publicSettingsRoutes } from "./modules/settings/index.ts";
import { streamAdminRoutes, streamRoutes } from "./modules/stream/index.ts";

/** Server-wide WebSocket limits (Elysia ignores per-route ones): small frames, slow clients dropped, dead ones pinged away. */
const WEBSOCKET_SETTINGS = {
  maxPayloadLength: WS_MAX_FRAME_BYTES,
  backpressureLimit: 1024 * 1024,
  closeOnBackpressureLimit: true,
  idleTimeout: 60,
  sendPings: true,
  perMessageDeflate: false,
};

function firstIssueMessage(error: unknown): string {
  const e = error as { valueError?: { message?: string }; all?: { message?: string }[]; message?: string };
  return e.valueError?.message ?? e.all?.[0]?.message ?? "Invalid request";
}

/** Assembles the whole server from its feature modules. main.ts and the tests both start this. */
export async function createApp(ctx: AppContext, assets?: WebAsset[]) {
  const uploads = new UploadService(ctx.config.dataDir);
  const web = await webAppPlugin(assets ?? (await loadWebAssets()), async () => ({
    "content-security-policy": contentSecurityPolicy(await ctx.stream.provider().csp()),
  }));
  ctx.mail.start();
  ctx.disposers.push(() => ctx.mail.stop());
  // reusePort off: a second server on the same port must fail to bind, not quietly take half the viewers.
  return new Elysia({ serve: { maxRequestBodySize: UPLOAD_BODY_LIMIT, reusePort: false }, websocket: WEBSOCKET_SETTINGS })
    .onError({ as: "global" }, ({ code, error, set }) => {
      // A body stream cut off at its limit reaches here wrapped in the parser's error.
      const cause = code === "PARSE" ? (error as { cause?: unknown }).cause : undefined;
      const httpError = error instanceof HttpError ? error : cause instanceof HttpError ? cause : null;
      if (httpError) {
        set.status = httpError.status;
        Object.assign(set.headers, httpError.headers);
        return httpError.field ? { error: httpError.message, field: httpError.field } : { error: httpError.message };
      }
      switch (code) {
        case "VALIDATION":
          set.status = 400;
          return { error: firstIssueMessage(error) };
        case "PARSE":
          set.status = 400;
          return { error: "Request body is not valid JSON" };
        case "NOT_FOUND":
          set.status = 404;
          return { error: "Not found" };
        case "INVALID_COOKIE_SIGNATURE":
        case "INVALID_FILE_TYPE":
          set.status = 400;
          return { error: "Invalid request" };
        default:
          // Another writer held the database past busy_timeout (5 s): say so instead of failing blindly.
          if ((error as { code?: unknown }).code === "SQLITE_BUSY") {
            ctx.log.warn(`database busy: ${(error as Error).message}`);
            set.status = 503;
            set.headers["retry-after"] = "2";
            return { error: "The server is busy. Please try again in a moment." };
          }
          ctx.log.error("unhandled error", error);
          set.status = 500;
          return { error: "Internal server error" };
      }
    })
    .use(securityPlugin(ctx.config))
    .use(healthRoutes(ctx))
    .use(adminAuthRoutes(ctx))
    .use(adminPanelRoutes(ctx, uploads))
    .use(moderationRoutes(ctx))
    .use(uploadRoutes(uploads))
    .use(accessRoutes(ctx))
    .use(paymentRoutes(ctx))
    .use(publicSettingsRoutes(ctx))
    .use(streamAdminRoutes(ctx))
    .use(streamRoutes(ctx))
    .use(chatRoutes(ctx))
    .use(web);
}

export type App = Awaited<ReturnType<typeof createApp>>;
