/**
 * The RTMP(S) listener: accepts TCP connections within bounds — at most `maxConnections` in all, and those
 * not yet publishing kept within what the door (door.ts) allows each address, so a flood of junk
 * connections holds little memory and CPU and never locks a real publisher out: a newcomer is always let
 * in, an older pending connection dropped for it — and runs one RtmpConnection per socket. RTMPS is TLS
 * over the same accepted socket, so a connection counts (and times out) from its first byte of TCP, not
 * from the end of a TLS handshake it may never start. One publisher per app/key at a time. The stream key
 * is never logged.
 */

import net from "node:net";
import { Duplex } from "node:stream";
import tls from "node:tls";
import type { Logger } from "../../../lib/logger.ts";
import type { MediaSink } from "../../../media/stream.ts";
import { type AuthorizeResult, type PublishSession, RtmpConnection } from "./connection.ts";
import { RtmpDoor, type WrongKeyReport } from "./door.ts";
import { DEFAULT_RTMP_LIMITS, type RtmpLimits } from "./limits.ts";
import { ProxyHeaderReader } from "./proxy-header.ts";

export type { AuthorizeResult, PublishSession } from "./connection.ts";
export type { WrongKeyReport } from "./door.ts";
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
  authorize(app: string, key: string, address: string): AuthorizeResult | Promise<AuthorizeResult>;
  /** Called once per accepted publish; returns where its media goes. A throw refuses the publish. */
  onPublish(session: PublishSession): MediaSink;
  limits?: Partial<RtmpLimits>;
  /** Proxies (--trust-proxy) whose PROXY protocol header names the client: the door counts the client, not the proxy. */
  trustProxy?: string[];
}

export interface RtmpServer {
  /** The port listened on (the one picked when 0 was asked for). */
  readonly port: number;
  /** The publishes in progress. */
  publishers(): PublishSession[];
  /** Connections open now, and how many of them are not publishing. */
  connections(): { total: number; pending: number };
  /** Addresses refused for wrong stream keys lately, and how long each waits now. */
  wrongKeys(): WrongKeyReport[];
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
  const door = new RtmpDoor(limits, logger);
  let secureContext = options.tls ? tls.createSecureContext({ cert: toPem(options.tls.cert), key: toPem(options.tls.key) }) : null;
  let nextId = 1;
  let refused = 0;
  let lastRefusalLog = 0;

  const trusted = new Set((options.trustProxy ?? []).map(plainAddress));
  const accept = (raw: net.Socket): void => {
    raw.on("error", () => {}); // a reset peer: 'close' follows and ends the connection
    if (!trusted.has(plainAddress(raw.remoteAddress ?? ""))) return admit(raw, raw.remoteAddress ?? "unknown", null);
    // A proxy the operator trusts: the client's address comes first, in a PROXY header (if it sends one).
    const reader = new ProxyHeaderReader();
    const timer = setTimeout(() => raw.destroy(), limits.setupIdleTimeoutMs);
    const read = (data: Buffer) => {
      let step;
      try {
        step = reader.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      } catch (error) {
        logger.warn(`rtmp ${raw.remoteAddress ?? "unknown"}: closed: ${(error as Error).message}`);
        clearTimeout(timer);
        raw.destroy();
        return;
      }
      if (!step.done) return;
      clearTimeout(timer);
      raw.off("data", read);
      raw.pause();
      admit(raw, step.address ?? raw.remoteAddress ?? "unknown", step.rest);
    };
    raw.on("data", read);
    raw.once("close", () => clearTimeout(timer));
  };

  /** A connection from `address` (the peer's, or the one its proxy named); `first`: bytes already read from it. */
  const admit = (raw: net.Socket, address: string, first: Uint8Array | null): void => {
    const now = Date.now();
    const key = connections.size >= limits.maxConnections ? null : door.arrive(address, now);
    if (key === null) {
      if (connections.size >= limits.maxConnections) {
        refused++;
        if (now - lastRefusalLog > REFUSAL_LOG_INTERVAL_MS) {
          logger.warn(`rtmp: refused ${refused} connection(s): ${connections.size} open, the limit is ${limits.maxConnections}`);
          lastRefusalLog = now;
          refused = 0;
        }
      }
      raw.destroy();
      return;
    }
    raw.setNoDelay(true);
    // TLS over the socket itself, or over what is left of it once a PROXY header was read off it.
    const socket: net.Socket = secureContext ? new tls.TLSSocket(first ? (remainderOf(raw, first) as net.Socket) : raw, { isServer: true, secureContext }) : raw;
    if (socket !== raw) socket.on("error", () => {}); // a failed handshake: the raw socket's 'close' ends it
    const id = nextId++;
    let resumeTimer: ReturnType<typeof setTimeout> | null = null;
    const connection: RtmpConnection = new RtmpConnection(
      id,
      {
        remoteAddress: address,
        write: (data) => {
          if (socket.destroyed) return;
          socket.write(data);
          if (socket.writableLength > MAX_UNSENT_BYTES) {
            logger.warn(`rtmp #${id} ${address}: closed: does not read what it is sent`);
            connection.close("peer not reading");
            socket.destroy();
          }
        },
        pause: (ms, resumed) => {
          if (socket.destroyed) return;
          if (resumeTimer) clearTimeout(resumeTimer);
          socket.pause();
          resumeTimer = setTimeout(() => {
            resumeTimer = null;
            resumed();
            if (!socket.destroyed && !resumeTimer) socket.resume();
          }, ms);
        },
        end: () => {
          if (resumeTimer) clearTimeout(resumeTimer);
          socket.end();
          setTimeout(() => {
            socket.destroy();
            raw.destroy();
          }, 1000).unref();
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
        spend: (bytes, messages, at) => allowance.spend(bytes, messages, at),
        waitMs: (at) => door.waitMs(key, at),
        onWrongKey: (at) => door.wrongKey(key, at),
        onPublishing: (publishing) => {
          if (publishing) door.leave(key, doorHandle);
          else allowance = door.pend(key, doorHandle, Date.now());
        },
        log: (level, line) => door.log(key, level, line, Date.now()),
        onClosed: () => {
          connections.delete(connection);
          door.leave(key, doorHandle);
        },
      },
      logger,
    );
    const doorHandle = { close: (reason: string) => connection.close(reason) };
    let allowance = door.pend(key, doorHandle, now);
    connections.add(connection);
    socket.on("data", (data: Buffer) => connection.receive(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
    if (first && socket === raw) {
      if (first.length) connection.receive(first);
      raw.resume();
    }
    raw.on("close", () => connection.closed());
    if (socket !== raw) socket.on("close", () => connection.closed());
  };

  // TLS is layered on the accepted socket (see above), so the listener is plain TCP either way.
  const server = net.createServer(accept);
  // A backstop below our own bookkeeping.
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
      door.sweep(now);
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
    connections: () => ({ total: connections.size, pending: [...connections].filter((connection) => connection.phase !== "publishing").length }),
    wrongKeys: () => door.wrongKeyReport(Date.now()),
    setCertificate: (pair) => {
      if (!secureContext) throw new Error("not an RTMPS listener");
      // A pair that does not go together throws here, and the one in use stays.
      secureContext = tls.createSecureContext({ cert: toPem(pair.cert), key: toPem(pair.key) });
    },
    close: async () => {
      clearInterval(sweep);
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of [...connections]) connection.close("server closing");
      await closing;
    },
  };
}

/** An address as written in --trust-proxy: IPv4-mapped IPv6 as plain IPv4. */
function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

/** The rest of a socket's stream after `first` (already read off it), as a stream TLS can run over. */
function remainderOf(raw: net.Socket, first: Uint8Array): Duplex {
  const rest = new Duplex({
    read: () => void raw.resume(),
    write: (chunk: Buffer, _encoding, done) => void raw.write(chunk, done),
    final: (done) => {
      raw.end();
      done();
    },
    destroy: (error, done) => {
      raw.destroy();
      done(error);
    },
  });
  raw.on("data", (data: Buffer) => {
    if (!rest.push(data)) raw.pause();
  });
  raw.on("end", () => rest.push(null));
  raw.on("close", () => rest.destroy());
  if (first.length) rest.push(first);
  raw.resume();
  return rest;
}

function toPem(value: string | Uint8Array): string | Buffer {
  return typeof value === "string" ? value : Buffer.from(value);
}
