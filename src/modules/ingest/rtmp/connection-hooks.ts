/** What an RTMP connection is given: a transport to write, pause and close, and the server's hooks. */
import type { MediaSink } from "../../../media/stream.ts";
import type { PublishStats } from "./stats.ts";

export type AuthorizeResult = "ok" | "bad key" | "busy";

export interface RtmpTransport {
  readonly remoteAddress: string;
  write(data: Uint8Array): void;
  /** Stops reading for `ms` (the peer is held back by TCP's own flow control), then calls `resumed`. */
  pause(ms: number, resumed: () => void): void;
  /** Closes after what was written is sent. */
  end(): void;
}

/** A publish in progress, as the application sees it. */
export interface PublishSession {
  readonly id: number;
  /** The RTMP application name (the path before the stream key, e.g. "live"). */
  readonly app: string;
  readonly remoteAddress: string;
  readonly startedAt: Date;
  stats(): PublishStats;
  /** Drops the publisher (the sink gets `end(reason)`). */
  close(reason?: string): void;
}

export interface ConnectionHooks {
  /** `address`: the publisher's (from a PROXY header when the proxy is trusted). */
  authorize(app: string, key: string, address: string): AuthorizeResult | Promise<AuthorizeResult>;
  onPublish(session: PublishSession): MediaSink;
  /** Marks app/key live for this connection; false when another connection holds it. */
  claim(name: string): boolean;
  release(name: string): void;
  /** Spends from the allowance of a connection not publishing (its own and its address's); false when it is used up. */
  spend(bytes: number, messages: number, now: number): boolean;
  /** Ms the connection's address must still wait before a publish is looked at (after wrong keys); 0 when none. */
  waitMs(now: number): number;
  /** A publish with a wrong key (the server counts, backs off and logs it per address). */
  onWrongKey(now: number): void;
  /** The connection starts publishing (true) or is back to not publishing (false). */
  onPublishing(publishing: boolean): void;
  /** A line about a connection not publishing: the server keeps such lines few per address. */
  log(level: "info" | "warn", message: string): void;
  /** Called once, when the connection is over. */
  onClosed(): void;
}
