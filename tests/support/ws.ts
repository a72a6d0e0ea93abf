import { connect, type Socket } from "node:net";
import type { ChatMessage, ServerEvent } from "../../src/contracts/chat.ts";
import { readServerFrame } from "../../src/contracts/chat-batch.ts";

type EventOf<T extends ServerEvent["type"]> = Extract<ServerEvent, { type: T }>;

/** A server to open a socket to: its address and the Origin its pages have. */
export interface Served {
  url: string;
  origin?: string;
}

/** The client's cookies as a Cookie header. */
export const cookieOf = (client: { cookies: Map<string, string> }) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

/** A real WebSocket to /ws that records every event, with helpers to wait for one. */
export class WsClient {
  readonly events: ServerEvent[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.addEventListener("message", (e) => {
      this.events.push(readServerFrame(JSON.parse(String(e.data)) as ServerEvent));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.addEventListener("close", (e) => {
        for (const wake of this.waiters.splice(0)) wake();
        resolve({ code: e.code, reason: e.reason });
      }),
    );
  }

  /**
   * Opens a socket to the server's /ws with these headers (a same-origin Origin unless they name one) and
   * waits until it is open, at most `timeoutMs`.
   */
  static open(served: Served, headers: Record<string, string> = {}, timeoutMs = 5000): Promise<WsClient> {
    const socket = new WebSocket(served.url.replace(/^http/, "ws") + "/ws", { headers: { origin: served.origin ?? served.url, ...headers } } as unknown as string[]);
    const ws = new WsClient(socket);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error("WebSocket did not open in time"));
      }, timeoutMs);
      socket.addEventListener(
        "open",
        () => {
          clearTimeout(timer);
          resolve(ws);
        },
        { once: true },
      );
      socket.addEventListener(
        "error",
        () => {
          clearTimeout(timer);
          reject(new Error("WebSocket connection failed"));
        },
        { once: true },
      );
    });
  }

  /** Opens a socket with the client's cookies (override them, or the Origin, with headers) and waits for the chat history. */
  static async connect(served: Served, client: { cookies: Map<string, string> } | null, headers: Record<string, string> = {}): Promise<WsClient> {
    const ws = await WsClient.open(served, { ...(client?.cookies.size ? { cookie: cookieOf(client) } : {}), ...headers });
    await ws.next("chatHistory");
    return ws;
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Every chat line received, whether it came alone (`chat`) or in a `chat_batch`, in arrival order. */
  lines(): ChatMessage[] {
    return this.events.flatMap((e) => (e.type === "chat" ? [e.message] : e.type === "chat_batch" ? e.messages : []));
  }

  /** Sends a frame (as JSON unless it is text or bytes already); nothing once the socket is no longer open. */
  send(frame: unknown): void {
    if (this.open) this.socket.send(typeof frame === "string" || frame instanceof Uint8Array ? frame : JSON.stringify(frame));
  }

  of<T extends ServerEvent["type"]>(type: T): EventOf<T>[] {
    return this.events.filter((e): e is EventOf<T> => e.type === type);
  }

  /** The first recorded event matching `match`, waiting up to `timeoutMs` for it; null when none came (or the socket closed). */
  async waitFor(match: (e: ServerEvent) => boolean, timeoutMs = 5000): Promise<ServerEvent | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0 || this.socket.readyState === WebSocket.CLOSED) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The first recorded event of `type` matching `match`, waiting up to `timeoutMs` for it; throws when none came. */
  async next<T extends ServerEvent["type"]>(type: T, match: (e: EventOf<T>) => boolean = () => true, timeoutMs = 3000): Promise<EventOf<T>> {
    const found = await this.waitFor((e) => e.type === type && match(e as EventOf<T>), timeoutMs);
    if (!found) throw new Error(`no '${type}' event within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.type))}`);
    return found as EventOf<T>;
  }

  /** Sends a frame and waits for the `error` event it causes. */
  async expectError(frame: unknown): Promise<string> {
    const before = this.of("error").length;
    this.send(frame);
    const e = await this.next("error", () => this.of("error").length > before);
    return this.of("error")[before]!.message ?? e.message;
  }

  close(): void {
    this.socket.close();
  }
}

/** Sends a chat line and waits until the sender sees it broadcast. */
export async function say(ws: WsClient, text: string) {
  ws.send({ type: "chat_message", text });
  return (await ws.next("chat", (e) => e.message.text === text)).message;
}

/** Sends a raw upgrade request; resolves with the HTTP status the server answers (101 when it upgrades). */
export async function upgradeStatus(served: Served, headers: Record<string, string>): Promise<number> {
  const { status, socket } = await rawUpgrade(served, headers);
  socket.destroy();
  return status;
}

/** A raw TCP upgrade, left open: a client that can be made to stop reading. */
export async function rawUpgrade(served: Served, headers: Record<string, string>): Promise<{ status: number; socket: Socket }> {
  const { port, hostname } = new URL(served.url);
  const lines = [
    "GET /ws HTTP/1.1",
    `Host: ${hostname}:${port}`,
    "Connection: Upgrade",
    "Upgrade: websocket",
    "Sec-WebSocket-Version: 13",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  const socket = connect(Number(port), hostname);
  socket.write(lines.join("\r\n") + "\r\n\r\n");
  const head = await new Promise<string>((resolve, reject) => {
    socket.once("data", (chunk) => resolve(chunk.toString()));
    socket.once("error", reject);
  });
  return { status: Number(head.split(" ")[1]), socket };
}
