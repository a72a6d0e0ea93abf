import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ServerEvent } from "../../src/contracts/chat.ts";
import { createApp } from "../../src/app.ts";
import { defaultConfig, type Config } from "../../src/config.ts";
import { createContext, disposeContext, type AppContext } from "../../src/context.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import { TEST_ENGINE, databaseForDataDir } from "../support/postgres.ts";
import { silentLogger, type Logger } from "../../src/lib/logger.ts";
import { VIEWER_COOKIE } from "../../src/modules/access/sessions.ts";
import { ADMIN_COOKIE } from "../../src/modules/admin/auth.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const BUN = process.execPath;

/** Small, fast, seedable PRNG (mulberry32): a failing case is reproduced by its seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

/** The seed of this run: HARDENING_SEED to replay one, else a fixed default so CI is repeatable. */
export function runSeed(fallback: number): number {
  const fromEnv = Number(process.env.HARDENING_SEED);
  return Number.isFinite(fromEnv) && process.env.HARDENING_SEED ? fromEnv : fallback;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `dreadcast-${prefix}-`));
}

/** The real server as a child process (`bun src/main.ts`), as an operator runs it. */
export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  output: () => string;
  /** Resident memory of the server process in KiB (from /proc). */
  rssKiB(): number;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServer(dataDir: string, flags: string[] = [], timeoutMs = 20_000): Promise<ServerProcess> {
  // On the PostgreSQL test run, the data directory's own database (the one its setup wrote to).
  const database = TEST_ENGINE === "postgres" && !flags.includes("--database-url") ? ["--database-url", await databaseForDataDir(dataDir)] : [];
  const child = spawn(BUN, ["src/main.ts", "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, ...database, ...flags], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + timeoutMs;
  let url: string | null = null;
  while (!url) {
    const match = /listening on (http:\/\/[^\s]+)/.exec(out);
    if (match) url = match[1]!;
    else if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early:\n${out}`);
    else if (Date.now() > deadline) throw new Error(`server did not start within ${timeoutMs} ms:\n${out}`);
    else await Bun.sleep(20);
  }
  return {
    url,
    pid: child.pid!,
    child,
    output: () => out,
    rssKiB() {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    },
    async kill(signal = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** A WebSocket to a server's /ws with cookies and an address (X-Forwarded-For, for a --trust-proxy server). */
export class LiveSocket {
  readonly events: ServerEvent[] = [];
  readonly closed: Promise<{ code: number }>;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.addEventListener("message", (e) => {
      try {
        this.events.push(JSON.parse(String(e.data)) as ServerEvent);
      } catch {}
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.addEventListener("close", (e) => {
        for (const wake of this.waiters.splice(0)) wake();
        resolve({ code: e.code });
      }),
    );
  }

  static open(url: string, cookie: string, headers: Record<string, string> = {}, timeoutMs = 5000): Promise<LiveSocket> {
    const socket = new WebSocket(url.replace(/^http/, "ws") + "/ws", { headers: { origin: url, cookie, ...headers } } as unknown as string[]);
    const live = new LiveSocket(socket);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error("WebSocket did not open in time"));
      }, timeoutMs);
      socket.addEventListener("open", () => {
        clearTimeout(timer);
        resolve(live);
      }, { once: true });
      socket.addEventListener("error", () => {
        clearTimeout(timer);
        reject(new Error("WebSocket connection failed"));
      }, { once: true });
    });
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  send(frame: unknown): void {
    if (this.open) this.socket.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** Waits for an event matching `match` (already received or arriving within timeoutMs). */
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

  close(): void {
    this.socket.close();
  }
}

/** `name=value` for a Cookie header. */
export function cookieHeader(name: string, value: string): string {
  return `${name}=${value}`;
}

export async function eventually<T>(check: () => T | null | undefined | false | Promise<T | null | undefined | false>, timeoutMs = 10_000, stepMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await Bun.sleep(stepMs);
  }
}

// ---------------------------------------------------------------------------------------------------
// In-process app that also exposes its route table (for tests that must cover every route).


export interface RoutedApp {
  url: string;
  ctx: AppContext;
  config: Config;
  routes: { method: string; path: string }[];
  /** Errors the server logged (an unhandled error is a bug even when the answer looked fine). */
  loggedErrors: string[];
  close(): Promise<void>;
}

export async function startRoutedApp(overrides: Partial<Config> = {}): Promise<RoutedApp> {
  const dataDir = tempDir("hardening");
  const config: Config = { ...defaultConfig(), host: "127.0.0.1", port: 0, rtmpPort: 0, rtmpsPort: 0, dataDir, trustProxy: ["127.0.0.1"], ...overrides };
  const loggedErrors: string[] = [];
  const log: Logger = { ...silentLogger, error: (message: string, error?: unknown) => loggedErrors.push(`${message}: ${error instanceof Error ? error.stack : String(error ?? "")}`) };
  const databaseUrl = TEST_ENGINE === "postgres" ? await databaseForDataDir(dataDir) : null;
  config.databaseUrl = databaseUrl;
  const store = await openStore({ dataDir, databaseUrl });
  const ctx = await createContext(config, store, log);
  // A stand-in page, so page routes answer as they do with the built web app.
  const page = join(dataDir, "index.html");
  writeFileSync(page, "<!doctype html><title>dreadcast</title>");
  const app = (await createApp(ctx, [{ path: "/index.html", file: page, immutable: false }])).listen({ port: 0, hostname: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${app.server!.port}`,
    ctx,
    config,
    routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
    loggedErrors,
    async close() {
      await app.stop(true);
      await disposeContext(ctx);
      await closeStore(store);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A viewer let in straight through the database: a fresh code of `kind`, a user and a session cookie. */
export async function viewerSession(ctx: AppContext, username: string, kind: "SKP" | "MOD" | "SCP" = "SKP"): Promise<{ cookie: string; code: string; userId: number }> {
  const code = await ctx.access.issueAccessCode(kind);
  const userId = (await ctx.store.get<{ id: number }>("INSERT INTO users (username, access_code_id, created_at) VALUES (?, ?, ?) RETURNING id", username, code.id, Date.now()))!.id;
  await ctx.store.run("UPDATE access_codes SET used = 1 WHERE id = ?", code.id);
  return { cookie: `${VIEWER_COOKIE}=${(await ctx.viewerSessions.open(undefined, userId, code.id))}`, code: code.code, userId };
}

/** A fresh admin session cookie (creating the admin on first use). */
export async function adminSession(ctx: AppContext, username = "warden"): Promise<string> {
  let admin = (await ctx.store.get<{ id: number }>("SELECT id FROM admins WHERE username = ?", username));
  if (!admin) admin = { id: (await ctx.admins.create(username, `${username}@example.com`, "s3cret-pass")).id };
  return `${ADMIN_COOKIE}=${(await ctx.admins.createSession(admin.id))}`;
}
