/**
 * The RTMP(S) listener: accepts TCP (or TLS) connections within bounds — at most `maxConnections` in all
 * and `maxPendingConnections` not yet publishing, so a flood of junk connections holds little memory and
 * cannot lock a real publisher out for longer than the setup timeouts — and runs one RtmpConnection per
 * socket. One publisher per app/key at a time. The stream key is never logged.
 */

import net from "node:net";
import tls from "node:tls";
import type { Logger } from "../../../lib/logger.ts";
import type { MediaSink } from "../media.ts";
import { type AuthorizeResult, type PublishSession, RtmpConnection } from "./connection.ts";
import { DEFAULT_RTMP_LIMITS, type RtmpLimits } from "./limits.ts";

export type { AuthorizeResult, PublishSession } from "./connection.ts";
export type { RtmpLimits } from "./limits.ts";
export { DEFAULT_RTMP_LIMITS } from "./limits.ts";
export type { PublishStats } from "./stats.ts";

export class RtmpPortInUseError extends Error {
  override name = "RtmpPortInUseError";
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`the RTMP port ${port} on ${host} is already in use`);
  }
}

export interface RtmpServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 0.0.0.0. */
  host?: string;
  /** RTMPS: PEM certificate chain and key. */
  tls?: { cert: string | Uint8Array; key: string | Uint8Array };
  logger: Logger;
  /** Checks a publish's app and stream key; "busy" when the application already has a publisher. */
  authorize(app: string, key: string): AuthorizeResult | Promise<AuthorizeResult>;
  /** Called once per accepted publish; returns where its media goes. A throw refuses the publish. */
  onPublish(session: PublishSession): MediaSink;
  limits?: Partial<RtmpLimits>;
}

export interface RtmpServer {
  /** The port listened on (the one picked when 0 was asked for). */
  readonly port: number;
  /** The publishes in progress. */
  publishers(): PublishSession[];
  /** Connections open now, and how many of them are not publishing. */
  connections(): { total: number; pending: number };
  /** RTMPS: the certificate and key for connections from now on; throws when TLS does not accept the pair. */
  setCertificate(pair: { cert: string | Uint8Array; key: string | Uint8Array }): void;
  /** Stops listening and ends every connection (each sink gets `end("server closing")`). */
  close(): Promise<void>;
}

const REFUSAL_LOG_INTERVAL_MS = 10_000;
/** Replies a peer has not read: past this it is asking without reading (a publisher reads all it gets). */
const MAX_UNSENT_BYTES = 1024 * 1024;

export async function startRtmpServer(options: RtmpServerOptions): Promise<RtmpServer> {
  const limits: RtmpLimits = { ...DEFAULT_RTMP_LIMITS, ...options.limits };
  const host = options.host ?? "0.0.0.0";
  const { logger } = options;
  const connections = new Set<RtmpConnection>();
  const live = new Set<string>();
  let nextId = 1;
  let refused = 0;
  let lastRefusalLog = 0;

  const pendingCount = (): number => {
    let pending = 0;
    for (const connection of connections) if (connection.phase !== "publishing") pending++;
    return pending;
  };

  const accept = (socket: net.Socket): void => {
    socket.on("error", () => {}); // a reset peer: 'close' follows and ends the connection
    if (connections.size >= limits.maxConnections || pendingCount() >= limits.maxPendingConnections) {
      refused++;
      const now = Date.now();
      if (now - lastRefusalLog > REFUSAL_LOG_INTERVAL_MS) {
        logger.warn(`rtmp: refused ${refused} connection(s): ${connections.size} open, limits ${limits.maxConnections} in all and ${limits.maxPendingConnections} not publishing`);
        lastRefusalLog = now;
        refused = 0;
      }
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    const id = nextId++;
    const connection = new RtmpConnection(
      id,
      {
        remoteAddress: socket.remoteAddress ?? "unknown",
        write: (data) => {
          if (socket.destroyed) return;
          socket.write(data);
          if (socket.writableLength > MAX_UNSENT_BYTES) {
            logger.warn(`rtmp #${id} ${socket.remoteAddress ?? "unknown"}: closed: does not read what it is sent`);
            connection.close("peer not reading");
            socket.destroy();
          }
        },
        end: () => {
          socket.end();
          setTimeout(() => socket.destroy(), 1000).unref();
        },
      },
      limits,
      {
        authorize: options.authorize,
        onPublish: options.onPublish,
        claim: (name) => {
          if (live.has(name)) return false;
          live.add(name);
          return true;
        },
        release: (name) => live.delete(name),
        onClosed: () => connections.delete(connection),
      },
      logger,
    );
    connections.add(connection);
    socket.on("data", (data: Buffer) => connection.receive(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
    socket.on("close", () => connection.closed());
  };

  const server = options.tls
    ? tls.createServer({ cert: toPem(options.tls.cert), key: toPem(options.tls.key), handshakeTimeout: limits.setupIdleTimeoutMs }, accept)
    : net.createServer(accept);
  // A backstop below our own bookkeeping (TLS connections still in their handshake count here only).
  server.maxConnections = limits.maxConnections + limits.maxPendingConnections;

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === "EADDRINUSE" ? new RtmpPortInUseError(host, options.port) : error);
    };
    server.once("error", onError);
    server.listen({ port: options.port, host, exclusive: true }, () => {
      server.off("error", onError);
      resolve();
    });
  });
  server.on("error", (error) => logger.error("rtmp: listener error", error));

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const connection of [...connections]) connection.checkTimeouts(now);
    },
    Math.min(1000, Math.max(50, Math.floor(limits.setupIdleTimeoutMs / 4))),
  );
  sweep.unref();

  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  logger.info(`rtmp: listening on ${options.tls ? "rtmps" : "rtmp"}://${host}:${port}`);

  return {
    port,
    publishers: () => [...connections].flatMap((connection) => (connection.publishSession && connection.phase === "publishing" ? [connection.publishSession] : [])),
    connections: () => ({ total: connections.size, pending: pendingCount() }),
    setCertificate: (pair) => {
      if (!(server instanceof tls.Server)) throw new Error("not an RTMPS listener");
      // Checked first: a pair that does not go together throws here, and the one in use stays.
      tls.createSecureContext({ cert: toPem(pair.cert), key: toPem(pair.key) });
      server.setSecureContext({ cert: toPem(pair.cert), key: toPem(pair.key) });
    },
    close: async () => {
      clearInterval(sweep);
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of [...connections]) connection.close("server closing");
      await closing;
    },
  };
}

function toPem(value: string | Uint8Array): string | Buffer {
  return typeof value === "string" ? value : Buffer.from(value);
}
