import { HTTP_IDLE_TIMEOUT_S } from "./http/timeouts.ts";
import { Elysia } from "elysia";
import type { AppContext } from "./context.ts";
import { WS_MAX_FRAME_BYTES } from "./contracts/chat.ts";
import { HttpError, notFound } from "./lib/errors.ts";
import { contentSecurityPolicy } from "./http/csp.ts";
import { errorAnswerer, errorResponse } from "./http/error-answer.ts";
import { apiHeaders, securityPlugin, UPLOAD_BODY_LIMIT } from "./http/security.ts";
import { loadWebAssets, loadWebPreloads, webAppPlugin, type WebAsset } from "./http/web-app.ts";
import { accessRoutes } from "./modules/access/index.ts";
import { adminAuthRoutes } from "./modules/admin/index.ts";
import { securityRoutes } from "./modules/admin/security-routes.ts";
import { recordingAdminRoutes, replayChatRoutes, replayStreamRoute } from "./modules/replay/routes.ts";
import { REPLAY_PREFIX } from "./modules/replay/service.ts";
import { teamRoutes } from "./modules/admin/team-routes.ts";
import { paymentAdminRoutes } from "./modules/payments/admin-routes.ts";
import { settingsAdminRoutes } from "./modules/settings/admin-routes.ts";
import { eventPhaseAdminRoutes } from "./modules/event-phase/routes.ts";
import { adminPanelRoutes } from "./modules/admin-panel/index.ts";
import { uploadRoutes } from "./modules/uploads/index.ts";
import { UploadService } from "./modules/uploads/service.ts";
import { chatSocketRoute } from "./modules/chat/index.ts";
import { eventPageRoutes } from "./modules/event-page/index.ts";
import { reminderRoutes } from "./modules/reminders/index.ts";
import { REMINDER_TICK_MS } from "./modules/reminders/service.ts";
import { intervalJob } from "./cluster/cluster.ts";
import { LastingFailure } from "./lib/lasting-failure.ts";
import { EventPageService } from "./modules/event-page/service.ts";
import { healthRoutes } from "./modules/health/index.ts";
import { moderationRoutes } from "./modules/moderation/index.ts";
import { paymentRoutes } from "./modules/payments/index.ts";
import { publicSettingsRoutes } from "./modules/settings/index.ts";
import { relayRoute, streamAdminRoutes, streamRoutes } from "./modules/stream/index.ts";
import { INGEST_PREFIX, RELAY_PREFIX } from "./modules/stream/providers.ts";
import { ingestAdminRoutes, ingestStreamRoute, internalIngestRoute } from "./modules/ingest/routes.ts";
import { INTERNAL_PREFIX } from "./modules/ingest/mirror.ts";

/** Server-wide WebSocket limits (Elysia ignores per-route ones): small frames, slow clients dropped, dead ones pinged away. */
const WEBSOCKET_SETTINGS = {
  maxPayloadLength: WS_MAX_FRAME_BYTES,
  backpressureLimit: 1024 * 1024,
  closeOnBackpressureLimit: true,
  idleTimeout: 60,
  sendPings: true,
  perMessageDeflate: false,
};

/** Whether a request URL's path, dot segments resolved, is below `prefix`. */
const isBelow = (url: string, prefix: string) => url.startsWith(prefix, url.indexOf("/", url.indexOf("//") + 2));

function firstIssueMessage(error: unknown): string {
  const e = error as { valueError?: { message?: string }; all?: { message?: string }[]; message?: string };
  return e.valueError?.message ?? e.all?.[0]?.message ?? "Invalid request";
}

/** Assembles the whole server from its feature modules. main.ts and the tests both start this. */
export async function createApp(ctx: AppContext, assets?: WebAsset[], preloads?: Record<string, string[]>) {
  const uploads = new UploadService(ctx.store, ctx.config.dataDir);
  const eventPage = new EventPageService(ctx.store, ctx.settings, ctx.site, uploads, () => ctx.phases.view());
  ctx.mail.setCalendar(() => eventPage.calendar());
  // One instance queues the reminders (the queue's keys would keep each single anyway).
  const reminderFailure = new LastingFailure(ctx.log, "reminders not queued", "reminders queued again");
  const queueReminders = () =>
    ctx.reminders.runDue().then(
      () => reminderFailure.succeeded(),
      (error: unknown) => reminderFailure.failed(error),
    );
  ctx.cluster.single(
    "reminders",
    intervalJob(() => void queueReminders(), REMINDER_TICK_MS, { atStart: true }),
  );
  const web = await webAppPlugin(
    assets ?? (await loadWebAssets()),
    async () => {
      const sources = await ctx.stream.provider().csp();
      // The replay plays through MediaSource (blob: media, hls.js's worker) whatever the stream source is now.
      if (!sources.media.includes("blob:") && (await ctx.replay.anyKept())) {
        return { "content-security-policy": contentSecurityPolicy({ ...sources, media: ["'self'", "blob:"], worker: ["'self'", "blob:"] }) };
      }
      return { "content-security-policy": contentSecurityPolicy(sources) };
    },
    (path) => eventPage.pageHead(path),
    // The built app's screens go with the built app; assets given by a caller come with their own, or none.
    preloads ?? (assets ? {} : await loadWebPreloads()),
  );
  // One instance of a cluster sends the mail; alone, this one does, and earlier runs' claims are released at once.
  ctx.cluster.single("mail", { start: () => ctx.mail.start(!ctx.cluster.clustered), stop: () => ctx.mail.pause() });
  ctx.disposers.push(() => ctx.mail.stop());
  // One answerer for the app and the relay, so that a database outage is logged once, not once per path.
  const errorAnswer = errorAnswerer(ctx.store, ctx.log);
  const relay = relayRoute(ctx, errorAnswer);
  const ingest = ingestStreamRoute(ctx, errorAnswer);
  const replay = replayStreamRoute(ctx, errorAnswer);
  // The other instances of a cluster read this one's stream here, with its secret; viewers never can.
  const internal = internalIngestRoute(ctx, errorAnswer);
  // The chat's socket: upgraded by the server itself, each socket carrying only who it is (chat/index.ts).
  const chatSocket = chatSocketRoute(ctx, errorAnswer);
  // The relay's requests (several a second per hundred viewers) are matched by the server itself and
  // answered without the framework's per-request pipeline. The server matches the path as sent: one whose
  // dot segments lead elsewhere goes to the app like any other request.
  const routes = {
    [`${RELAY_PREFIX}*`]: { GET: (request: Request): Response | Promise<Response> => (isBelow(request.url, RELAY_PREFIX) ? relay(request) : app.fetch(request)) },
    [`${INGEST_PREFIX}*`]: { GET: (request: Request): Response | Promise<Response> => (isBelow(request.url, INGEST_PREFIX) ? ingest(request) : app.fetch(request)) },
    [`${REPLAY_PREFIX}*`]: { GET: (request: Request): Response | Promise<Response> => (isBelow(request.url, REPLAY_PREFIX) ? replay(request) : app.fetch(request)) },
    "/ws": { GET: (request: Request, server: Parameters<typeof chatSocket>[1]): Promise<Response | undefined> => chatSocket(request, server) },
    [`${INTERNAL_PREFIX}*`]: { GET: (request: Request): Response | Promise<Response> => (isBelow(request.url, INTERNAL_PREFIX) ? internal(request) : app.fetch(request)) },
  };
  // reusePort off: a second server on the same port must fail to bind, not quietly take half the viewers.
  // What fails once a handler has answered — a file answered by its path (a kept recording's) that is gone
  // when the server opens it to send it — is answered here: a file deleted by hand is a 404, not a 500.
  const streamHeaders = apiHeaders(ctx.config);
  const error = (failure: Error): Response => errorResponse(errorAnswer((failure as { code?: unknown }).code === "ENOENT" ? notFound() : failure), streamHeaders);
  const app = new Elysia({ serve: { maxRequestBodySize: UPLOAD_BODY_LIMIT, idleTimeout: HTTP_IDLE_TIMEOUT_S, reusePort: false, routes, error }, websocket: WEBSOCKET_SETTINGS })
    .onStart(({ server }) => {
      if (server?.port) ctx.site.listening(server.port);
    })
    .onError({ as: "global" }, ({ code, error, set }) => {
      // A body stream cut off at its limit reaches here wrapped in the parser's error.
      const cause = code === "PARSE" ? (error as { cause?: unknown }).cause : undefined;
      const httpError = error instanceof HttpError ? error : cause instanceof HttpError ? cause : null;
      if (!httpError) {
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
        }
      }
      const answer = errorAnswer(httpError ?? error);
      set.status = answer.status;
      Object.assign(set.headers, answer.headers);
      return answer.body;
    })
    .use(securityPlugin(ctx.config))
    .use(healthRoutes(ctx))
    .use(adminAuthRoutes(ctx))
    .use(securityRoutes(ctx))
    .use(teamRoutes(ctx))
    .use(adminPanelRoutes(ctx))
    .use(settingsAdminRoutes(ctx, uploads))
    .use(eventPhaseAdminRoutes(ctx))
    .use(paymentAdminRoutes(ctx))
    .use(moderationRoutes(ctx))
    .use(uploadRoutes(uploads))
    .use(accessRoutes(ctx))
    .use(paymentRoutes(ctx))
    .use(publicSettingsRoutes(ctx))
    .use(streamAdminRoutes(ctx))
    .use(ingestAdminRoutes(ctx))
    .use(recordingAdminRoutes(ctx))
    .use(replayChatRoutes(ctx))
    .use(streamRoutes(ctx, relay, ingest))
    .use(eventPageRoutes(eventPage))
    .use(reminderRoutes(ctx.reminders))
    .use(web);
  return app;
}

export type App = Awaited<ReturnType<typeof createApp>>;
