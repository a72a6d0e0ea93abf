import type { ClientFrame, ServerEvent, ServerEventType } from "@contracts/chat";
import { readServerFrame } from "@contracts/chat-batch";
import { WS_CLOSE_BANNED, WS_CLOSE_KICKED, WS_CLOSE_SESSION_ENDED } from "@contracts/chat-limits";
import { isAdminPath } from "@/config/paths";

/** Reconnect backoff: 1 s, growing 1.5× per failed attempt, capped at 30 s. */
export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_FACTOR = 1.5;
export const RECONNECT_MAX_MS = 30_000;
/** Consecutive attempts that never opened before the chat says it cannot connect. */
export const FAILED_ATTEMPTS_BEFORE_ERROR = 5;

export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_BASE_MS * RECONNECT_FACTOR ** attempt, RECONNECT_MAX_MS);
}

/** `/ws` on the page's own host, over wss when the page is https. */
export function chatSocketUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

export type ConnectionState = "idle" | "connecting" | "open" | "closed";

export interface ConnectionStatus {
  state: ConnectionState;
  /** Attempts since the socket was last open; reset when one opens. */
  attempt: number;
  /** The close code that removed this viewer (kicked, banned, or the session ended by a device reset), which stops automatic reconnects. */
  removedWith: number | null;
  /** The server's reason for that close ("Banned", "Revoked", "Kicked"): a revoked pass closes as a kick does. Only while removed. */
  removedBecause?: string;
}

/** What the connection needs from the browser; tests pass fakes. */
export interface ChatSocketEnvironment {
  WebSocket: { new (url: string): WebSocket };
  document: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener">;
  location: Pick<Location, "protocol" | "host" | "pathname">;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface ChatSocketOptions {
  onEvent: (event: ServerEvent) => void;
  onStatus?: (status: ConnectionStatus) => void;
  /** The frame sent as soon as a socket opens (the page starts the connection only once access is verified). */
  authenticate: () => ClientFrame;
  environment?: ChatSocketEnvironment;
}

function browserEnvironment(): ChatSocketEnvironment {
  return {
    WebSocket: window.WebSocket,
    document: window.document,
    location: window.location,
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
  };
}

/**
 * The live chat connection: one socket to `/ws`, reconnecting with a capped backoff while the page is
 * visible, again as soon as the page becomes visible, and on demand. Never opened on admin routes.
 */
export class ChatSocket {
  private socket: WebSocket | null = null;
  private timer: unknown = null;
  private running = false;
  private status: ConnectionStatus = { state: "idle", attempt: 0, removedWith: null };
  private readonly env: ChatSocketEnvironment;

  constructor(private readonly options: ChatSocketOptions) {
    this.env = options.environment ?? browserEnvironment();
  }

  get state(): ConnectionState {
    return this.status.state;
  }

  start(): void {
    if (this.running || isAdminPath(this.env.location.pathname)) return;
    this.running = true;
    this.env.document.addEventListener("visibilitychange", this.onVisibilityChange);
    this.open();
  }

  stop(): void {
    this.running = false;
    this.env.document.removeEventListener("visibilitychange", this.onVisibilityChange);
    this.clearTimer();
    this.dropSocket();
    this.setStatus({ state: "idle", attempt: 0, removedWith: null });
  }

  /** The RECONNECT button: a fresh attempt now, whatever happened before. */
  reconnect(): void {
    if (!this.running) return this.start();
    this.clearTimer();
    this.dropSocket();
    this.setStatus({ ...this.status, attempt: 0, removedWith: null });
    this.open();
  }

  /** Sends a frame; false when the socket is not open. */
  send(frame: ClientFrame): boolean {
    if (!this.socket || this.socket.readyState !== 1) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  private open(): void {
    this.clearTimer();
    const socket = new this.env.WebSocket(chatSocketUrl(this.env.location));
    this.socket = socket;
    this.setStatus({ ...this.status, state: "connecting" });
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.setStatus({ state: "open", attempt: 0, removedWith: null });
      socket.send(JSON.stringify(this.options.authenticate()));
    };
    socket.onmessage = (message) => {
      if (socket !== this.socket || typeof message.data !== "string") return;
      const event = parseEvent(message.data);
      if (event) this.options.onEvent(event);
    };
    socket.onclose = (close) => {
      if (socket !== this.socket) return;
      this.socket = null;
      const removed = close.code === WS_CLOSE_KICKED || close.code === WS_CLOSE_BANNED || close.code === WS_CLOSE_SESSION_ENDED ? close.code : null;
      const attempt = this.status.attempt;
      if (removed === null && this.scheduleReconnect(attempt)) this.setStatus({ state: "closed", attempt: attempt + 1, removedWith: null });
      else if (removed === null) this.setStatus({ state: "closed", attempt, removedWith: null });
      else this.setStatus({ state: "closed", attempt, removedWith: removed, removedBecause: close.reason ?? "" });
    };
  }

  /** Plans the next attempt if the page is visible; true when one is planned. */
  private scheduleReconnect(attempt: number): boolean {
    if (!this.running || this.env.document.visibilityState !== "visible") return false;
    this.timer = this.env.setTimeout(() => {
      this.timer = null;
      if (this.running && !this.socket) this.open();
    }, reconnectDelay(attempt));
    return true;
  }

  private readonly onVisibilityChange = () => {
    if (this.env.document.visibilityState !== "visible" || this.socket || this.status.removedWith !== null) return;
    this.clearTimer();
    this.open();
  };

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState < 2) socket.close(1000, "Leaving");
  }

  private clearTimer(): void {
    if (this.timer !== null) this.env.clearTimeout(this.timer);
    this.timer = null;
  }

  private setStatus(status: ConnectionStatus): void {
    this.status = status;
    this.options.onStatus?.(status);
  }
}

// The server is ours and speaks the contract; the page only skips what it does not know. (No zod here:
// the schema library would be most of the stream page's weight.)
const EVENT_TYPES: Record<ServerEventType, true> = {
  chatHistory: true,
  chat: true,
  chat_batch: true,
  message_updated: true,
  message_deleted: true,
  user_kicked: true,
  user_banned: true,
  system_message: true,
  hearts: true,
  viewer_count: true,
  stats: true,
  donation_update: true,
  settings_update: true,
  auth_ok: true,
  error: true,
  slow_mode: true,
  chat_cooldown: true,
};

/** A server frame, or null when it is not JSON or not an event type we know. */
export function parseEvent(data: string): ServerEvent | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== "object" || parsed === null || !Object.hasOwn(EVENT_TYPES, (parsed as { type?: unknown }).type as string)) return null;
    // A busy chat's batch comes with its lines packed; the page gets them as messages.
    return readServerFrame(parsed as ServerEvent);
  } catch {
    return null;
  }
}
