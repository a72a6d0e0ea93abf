import type { ServerWebSocket } from "bun";
import type { Config } from "../../config.ts";
import type { AppContext } from "../../context.ts";
import { clientAddress } from "../../http/client-ip.ts";
import { errorResponse, type ErrorAnswerer } from "../../http/error-answer.ts";
import { apiHeaders, isCrossSite } from "../../http/security.ts";
import { badRequest, forbidden, tooManyRequests, unauthorized } from "../../lib/errors.ts";
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

/** What Bun's server is asked for here: the socket's upgrade and the client's address. */
interface UpgradingServer extends TopicPublisher {
  upgrade(request: Request, options: { data: ChatSocketData }): boolean;
  requestIP(request: Request): { address: string } | null;
}

/**
 * What each open socket carries (Bun's `ws.data`): who it is, from where, and the three handlers the
 * server's WebSocket dispatcher calls (`ws.data.open/message/close`, the one dispatcher of the app's
 * server). The handlers are the route's own, shared by every socket: an idle socket holds these few fields.
 */
interface ChatSocketData {
  id: string;
  identity: ChatIdentity;
  ip: string;
  open(ws: ServerWebSocket<ChatSocketData>): void;
  message(ws: ServerWebSocket<ChatSocketData>, message: string | Buffer): void;
  close(ws: ServerWebSocket<ChatSocketData>): void;
}

/**
 * A frame as the router reads it: a text frame that looks like JSON (an object or an array) parsed, any
 * other text as it came, a binary frame as its bytes (refused by the router as not a JSON object).
 */
function readFrame(message: string | Buffer): unknown {
  if (typeof message !== "string") return new Uint8Array(message);
  const first = message.charCodeAt(0);
  if (first === 123 || first === 91) {
    try {
      return JSON.parse(message) as unknown;
    } catch {
      return message;
    }
  }
  return message;
}

/**
 * `/ws`: the live chat, hearts, counts and moderation, served from the server's own route table (app.ts)
 * rather than through the framework, which would keep every request's whole context on each socket and
 * wrap every frame in an object of its own. The upgrade is refused (429 too many attempts, 403 cross-site
 * or banned, 401 without a session) before any socket exists, answered as the app answers errors; after
 * that every frame goes through the router.
 */
export function chatSocketRoute(ctx: AppContext, errorAnswer: ErrorAnswerer): (request: Request, server: UpgradingServer) => Promise<Response | undefined> {
  const hub = ctx.chat;
  const router = new ChatFrameRouter(hub, ctx.log, new PaymentDonationReporter(ctx.payments, () => ctx.site.url()), ctx.store, ctx.cluster);
  const headers = apiHeaders(ctx.config);
  // Reconnecting after a drop is normal; a stream of upgrades from one address is not.
  const upgradesPerIp = ctx.cluster.limiter("ws-upgrades", UPGRADES_PER_IP_PER_MINUTE, 60_000);
  let publisher: TopicPublisher | null = null;
  let sockets = 0;

  const open = (ws: ServerWebSocket<ChatSocketData>) => hub.open(ws.data.id, ws, ws.data.identity, publisher, ws.data.ip);
  const message = (ws: ServerWebSocket<ChatSocketData>, raw: string | Buffer) => {
    void router.receive(ws.data.id, readFrame(raw));
  };
  const close = (ws: ServerWebSocket<ChatSocketData>) => hub.closed(ws.data.id);

  return async (request, server) => {
    try {
      publisher ??= server;
      const ip = clientAddress(server.requestIP(request)?.address, request.headers.get("x-forwarded-for"), ctx.config.trustProxy);
      const wait = await upgradesPerIp.hit(ip);
      if (wait > 0) throw tooManyRequests("Too many connection attempts. Please wait a moment and try again.", wait);
      if (!isSameOriginUpgrade(request, ctx.config)) throw forbidden("Cross-site WebSocket connection refused");
      const identity = await identify(ctx, request);
      if (!identity) throw unauthorized("Please enter your access code to continue.");
      await hub.admit(identity, ip);
      if (server.upgrade(request, { data: { id: String(++sockets), identity, ip, open, message, close } })) return undefined;
      throw badRequest("Expected a websocket connection");
    } catch (error) {
      return errorResponse(errorAnswer(error), headers);
    }
  };
}
