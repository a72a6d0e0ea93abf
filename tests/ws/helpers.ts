import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VIEWER_COOKIE } from "../../src/modules/access/sessions.ts";
import type { ChatMessage, ServerEvent } from "../../src/contracts/chat.ts";
import { readServerFrame } from "../../src/contracts/chat-batch.ts";
import { loginAsAdmin, startTestApp, TestClient, type TestApp } from "../harness.ts";
import { buyDemoCode, enter, makeFingerprint } from "../support/viewer.ts";

type EventOf<T extends ServerEvent["type"]> = Extract<ServerEvent, { type: T }>;

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
    this.closed = new Promise((resolve) => socket.addEventListener("close", (e) => {
      for (const wake of this.waiters.splice(0)) wake();
      resolve({ code: e.code, reason: e.reason });
    }));
  }

  /** Opens a socket with the client's cookies and a same-origin Origin (override either with headers). */
  static async connect(app: TestApp, client: TestClient | null, headers: Record<string, string> = {}): Promise<WsClient> {
    const all: Record<string, string> = { origin: app.origin, ...headers };
    if (client?.cookies.size) all.cookie = cookieOf(client);
    const socket = new WebSocket(app.url.replace(/^http/, "ws") + "/ws", { headers: all } as unknown as string[]);
    const ws = new WsClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error("WebSocket connection failed")), { once: true });
    });
    await ws.next("chatHistory");
    return ws;
  }

  /** Every chat line received, whether it came alone (`chat`) or in a `chat_batch`, in arrival order. */
  lines(): ChatMessage[] {
    return this.events.flatMap((e) => (e.type === "chat" ? [e.message] : e.type === "chat_batch" ? e.messages : []));
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === "string" || frame instanceof Uint8Array ? frame : JSON.stringify(frame));
  }

  of<T extends ServerEvent["type"]>(type: T): EventOf<T>[] {
    return this.events.filter((e): e is EventOf<T> => e.type === type);
  }

  /** The first recorded event of `type` matching `match`, waiting up to `timeoutMs` for it. */
  async next<T extends ServerEvent["type"]>(type: T, match: (e: EventOf<T>) => boolean = () => true, timeoutMs = 3000): Promise<EventOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.of(type).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0 || this.socket.readyState === WebSocket.CLOSED) {
        throw new Error(`no '${type}' event within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.type))}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
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

/** Sends a raw upgrade request; resolves with the HTTP status the server answers (101 when it upgrades). */
export async function upgradeStatus(app: TestApp, headers: Record<string, string>): Promise<number> {
  const { status, socket } = await rawUpgrade(app, headers);
  socket.destroy();
  return status;
}

/** A raw TCP upgrade, left open: a client that can be made to stop reading. */
export async function rawUpgrade(app: TestApp, headers: Record<string, string>): Promise<{ status: number; socket: Socket }> {
  const { port, hostname } = new URL(app.url);
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

export type Viewer = TestClient & { accessCode: string; username: string; fingerprint: ReturnType<typeof makeFingerprint> };

/**
 * A browser let in through the real API with a fresh code of `kind` (SCP test code, MOD made by the admin,
 * SKP bought). `headers` go with its own calls, e.g. an X-Forwarded-For for an app that trusts the proxy.
 */
export async function joinAs(app: TestApp, username: string, kind: "SKP" | "MOD" | "SCP" = "SCP", headers?: Record<string, string>): Promise<Viewer> {
  const client = app.client();
  let accessCode: string;
  if (kind === "SCP") accessCode = (await client.get("/api/test/generate-access-code", headers)).body.accessCode;
  else if (kind === "MOD") accessCode = (await (await adminOf(app)).post("/api/admin/generate-access-code", { kind: "MOD" })).body.code;
  else accessCode = (await buyDemoCode(client)).accessCode;
  const fingerprint = makeFingerprint();
  const res = await enter(client, accessCode, username, fingerprint, undefined, headers);
  if (res.body?.valid !== true) throw new Error(`could not enter as ${username}: ${res.status} ${res.text}`);
  return Object.assign(client, { accessCode, username, fingerprint });
}

const admins = new WeakMap<TestApp, Promise<TestClient>>();
/** One logged-in admin browser per app. */
export async function adminOf(app: TestApp): Promise<TestClient> {
  let admin = admins.get(app);
  if (!admin) admins.set(app, (admin = loginAsAdmin(app)));
  return admin;
}

/**
 * A second user on an existing code, made straight in the database: the API would refuse it, so this
 * stands for a session that was opened before the code was banned.
 */
export async function sessionOnCode(app: TestApp, username: string, accessCode: string): Promise<TestClient> {
  const store = app.ctx.store;
  const codeId = (await store.get<{ id: number }>("SELECT id FROM access_codes WHERE code = ?", accessCode))!.id;
  const userId = (await store.get<{ id: number }>("INSERT INTO users (username, access_code_id, created_at) VALUES (?, ?, ?) RETURNING id", username, codeId, Date.now()))!.id;
  const client = app.client();
  client.cookies.set(VIEWER_COOKIE, (await app.ctx.viewerSessions.open(undefined, userId, codeId)));
  return client;
}

/** Sends a chat line and waits until the sender sees it broadcast. */
export async function say(ws: WsClient, text: string) {
  ws.send({ type: "chat_message", text });
  return (await ws.next("chat", (e) => e.message.text === text)).message;
}

/**
 * Runs `before` on an app, stops it, then runs `after` on a new app on the same data directory: what a
 * restart keeps. The directory is removed afterwards.
 */
export async function acrossRestart<T>(before: (app: TestApp) => Promise<T>, after: (app: TestApp, carried: T) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "dreadcast-restart-"));
  try {
    const first = await startTestApp({ dataDir });
    let carried: T;
    try {
      carried = await before(first);
    } finally {
      await first.close();
    }
    const second = await startTestApp({ dataDir });
    try {
      await after(second, carried);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
