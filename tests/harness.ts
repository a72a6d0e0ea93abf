import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { defaultConfig, type Config } from "../src/config.ts";
import { createContext, disposeContext, type AppContext } from "../src/context.ts";
import { closeStore, openStore } from "../src/db/database.ts";
import { silentLogger, type Logger } from "../src/lib/logger.ts";
import { TEST_ENGINE, databaseForDataDir, dropTestDatabase } from "./support/postgres.ts";
import type { WebAsset } from "../src/http/web-app.ts";

export interface TestApp {
  url: string;
  origin: string;
  ctx: AppContext;
  config: Config;
  /** A fresh cookie-keeping HTTP client (one browser, in effect). */
  client(): TestClient;
  close(): Promise<void>;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** fetch with a cookie jar and JSON helpers; sends a same-origin Origin like a browser would. */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    const init: RequestInit & { headers: Record<string, string> } = { method, headers: { origin: this.baseUrl, ...headers } };
    if (body !== undefined) {
      if (typeof body === "string" || body instanceof FormData || body instanceof Uint8Array) init.body = body as BodyInit;
      else {
        init.body = JSON.stringify(body);
        init.headers["content-type"] ??= "application/json";
      }
    }
    if (this.cookies.size) init.headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(this.baseUrl + path, init);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === "" || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("GET", path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("POST", path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("PUT", path, body, headers);
  }
}

/**
 * The real app on port 0 with a fresh migrated database in a temp dir — or, given `overrides.dataDir`,
 * on that dir, which the caller owns and which is kept on close (to restart on the same database).
 * `options.log` hears what the app logs (nothing is logged by default).
 */
export async function startTestApp(overrides: Partial<Config> = {}, assets: WebAsset[] = [], options: { log?: Logger } = {}): Promise<TestApp> {
  const ownsDataDir = overrides.dataDir === undefined;
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), "dreadcast-test-"));
  // The RTMP ports too: tests run side by side, and 1935 may be taken.
  const config: Config = { ...defaultConfig(), host: "127.0.0.1", port: 0, rtmpPort: 0, rtmpsPort: 0, ...overrides, dataDir };
  // An explicit `databaseUrl: null` keeps the app on SQLite whatever engine the suite runs on.
  const databaseUrl = overrides.databaseUrl !== undefined ? overrides.databaseUrl : TEST_ENGINE === "postgres" ? await databaseForDataDir(dataDir) : null;
  config.databaseUrl = databaseUrl;
  const store = await openStore({ dataDir, databaseUrl, databaseTimeoutMs: config.databaseTimeoutMs });
  const ctx = await createContext(config, store, options.log ?? silentLogger);
  const app = (await createApp(ctx, assets)).listen({ port: 0, hostname: "127.0.0.1" });
  const url = `http://127.0.0.1:${app.server!.port}`;
  return {
    url,
    origin: url,
    ctx,
    config,
    client: () => new TestClient(url),
    async close() {
      await app.stop(true);
      await disposeContext(ctx);
      await closeStore(store);
      if (ownsDataDir && databaseUrl && !overrides.databaseUrl) await dropTestDatabase(databaseUrl);
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates an admin and returns a client logged in as them. */
export async function loginAsAdmin(app: TestApp, username = "warden", password = "s3cret-pass"): Promise<TestClient> {
  if ((await app.ctx.admins.needsFirstAdmin())) await app.ctx.admins.create(username, `${username}@example.com`, password);
  const client = app.client();
  const res = await client.post("/api/admin/login", { username, password });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`);
  return client;
}
