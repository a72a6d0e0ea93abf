import type { FrameBudget } from "./socket-limits.ts";

/** Who a socket belongs to, fixed when it upgrades (from the session cookie, never from a frame). */
export interface ChatIdentity {
  /** One per person: `viewer:<userId>` or `admin:<adminId>`; viewers are counted by it. */
  key: string;
  userId: number | null;
  username: string;
  accessCodeId: number | null;
  viewerSessionId: string | null;
  isModerator: boolean;
  isAdmin: boolean;
}

/** Anything that can fan a frame out to a topic's subscribers (Bun's server). */
export interface TopicPublisher {
  publish(topic: string, data: string, compress?: boolean): number;
}

/** The parts of Bun's ServerWebSocket the hub uses. */
export interface ChatSocket {
  send(data: string): number;
  close(code?: number, reason?: string): void;
  subscribe(topic: string): void;
  cork<T>(callback: () => T): T;
}

/** An open chat socket as the hub holds it. */
export interface Connection extends FrameBudget {
  socket: ChatSocket;
  identity: ChatIdentity;
  /** The client address it connected from (counted against the sockets one address may hold). */
  ip: string;
  /** Kicked or banned: its last frames are ignored until the close completes. */
  closing: boolean;
  /** The last frame being handled: the next one waits for it (never rejects). */
  frames: Promise<void>;
}

/** Where a socket's chain of frames starts: one settled promise for all (an idle socket holds none of its own). */
const SETTLED: Promise<void> = Promise.resolve();

/** A socket just opened: a fresh frame budget, nothing handled yet. */
export function newConnection(socket: ChatSocket, identity: ChatIdentity, ip: string): Connection {
  const connection: Connection = { socket, identity, ip, framesInWindow: 0, windowStartedAt: Date.now(), closing: false, frames: SETTLED };
  return connection;
}
