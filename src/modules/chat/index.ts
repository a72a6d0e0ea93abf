import { Elysia } from "elysia";
import type { Config } from "../../config.ts";
import type { AppContext } from "../../context.ts";
import { clientIpPlugin, isCrossSite } from "../../http/security.ts";
import { forbidden, tooManyRequests, unauthorized } from "../../lib/errors.ts";
import { roleCan } from "../../contracts/team.ts";
import { findPerson } from "../access/person.ts";
import { PaymentDonationReporter } from "./donations.ts";
import { ChatFrameRouter } from "./frames.ts";
import type { ChatIdentity, TopicPublisher } from "./connection.ts";

/** WebSocket upgrades one address may attempt per minute. */
export const UPGRADES_PER_IP_PER_MINUTE = 120;

/** A WebSocket upgrade must come from our own pages: a browser always sends Origin on one. */
function isSameOriginUpgrade(request: Request, config: Config): boolean {
  return request.headers.get("origin") !== null && !isCrossSite(request, config);
}

/** The team member (a moderator under their own name when their role may moderate) or the viewer behind the session cookies (findPerson's rule), or null. */
async function identify(ctx: AppContext, request: Request): Promise<ChatIdentity | null> {
  const person = await findPerson(ctx, request);
  if (!person) return null;
  if (person.role === "admin") {
    const { admin } = person;
    return {
      key: `admin:${admin.id}`,
      userId: null,
      username: admin.username,
      accessCodeId: null,
      viewerSessionId: null,
      // A team member speaks as staff; only a role that may moderate gets the chat's moderation powers.
      isModerator: roleCan(admin.role, "moderation"),
      isAdmin: true,
    };
  }
  const { viewer } = person;
  return {
    key: `viewer:${viewer.userId}`,
    userId: viewer.userId,
    username: viewer.username,
    accessCodeId: viewer.accessCodeId,
    viewerSessionId: viewer.sessionId,
    isModerator: viewer.isModerator,
    isAdmin: false,
  };
}

/**
 * `/ws`: the live chat, hearts, counts and moderation. The upgrade is refused (403 cross-site or banned,
 * 401 without a session) before any socket exists; after that every frame goes through the router.
 */
export function chatRoutes(ctx: AppContext) {
  const hub = ctx.chat;
  const router = new ChatFrameRouter(hub, ctx.log, new PaymentDonationReporter(ctx.payments, () => ctx.site.url()), ctx.store, ctx.cluster);

  // Reconnecting after a drop is normal; a stream of upgrades from one address is not.
  const upgradesPerIp = ctx.cluster.limiter("ws-upgrades", UPGRADES_PER_IP_PER_MINUTE, 60_000);

  // The broadcasts go through the server's pub/sub; taken when it starts (asking for `server` in a route's
  // context would put a getter into the context of every route of the app).
  let publisher: TopicPublisher | null = null;

  return new Elysia({ name: "chat" })
    .onStart((app) => {
      publisher = app.server;
    })
    .use(clientIpPlugin(ctx.config))
    .derive(async ({ request, clientIp }) => {
      const wait = await upgradesPerIp.hit(clientIp);
      if (wait > 0) throw tooManyRequests("Too many connection attempts. Please wait a moment and try again.", wait);
      if (!isSameOriginUpgrade(request, ctx.config)) throw forbidden("Cross-site WebSocket connection refused");
      const identity = await identify(ctx, request);
      if (!identity) throw unauthorized("Please enter your access code to continue.");
      await hub.admit(identity, clientIp);
      return { chatIdentity: identity, chatIp: clientIp };
    })
    .ws("/ws", {
      open(ws) {
        hub.open(ws.id, ws.raw, ws.data.chatIdentity, publisher, ws.data.chatIp);
      },
      message(ws, message) {
        return router.receive(ws.id, message);
      },
      close(ws) {
        hub.closed(ws.id);
      },
    });
}
