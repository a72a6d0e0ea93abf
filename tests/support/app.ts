import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { defaultConfig, type Config } from "../../src/config.ts";
import { createContext, disposeContext, type AppContext } from "../../src/context.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import type { WebAsset } from "../../src/http/web-app.ts";
import { silentLogger, type Logger } from "../../src/lib/logger.ts";
import type { Role } from "../../src/contracts/team.ts";
import { ADMIN_COOKIE } from "../../src/modules/admin/auth.ts";
import { CLUSTER_SECRET_KEY } from "./redis.ts";
import { TEST_ENGINE, databaseForDataDir, dropTestDatabase } from "./postgres.ts";

export interface TestApp {
  url: string;
  origin: string;
  ctx: AppContext;
  config: Config;
  /** Every route the app serves, as its router lists them (`/api/admin/access-codes/:id/revoke`). */
  routes: { method: string; path: string }[];
  /** Errors the app logged, with their stacks (an unhandled error is a bug even when the answer looked fine). */
  loggedErrors: string[];
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
      if (typeof body === "string" || body instanceof FormData || body instanceof Uint8Array) init.body = body as Bun.BodyInit;
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

/** A page the web app's index.html can stand in for, so page routes answer as they do with the built web app. */
export const STAND_IN_PAGE = "<!doctype html><title>dreadcast</title>";

export interface TestAppOptions {
  /** Hears what the app logs (nothing is logged by default). */
  log?: Logger;
  /** The web app's index.html: this text, served as the built page would be. */
  page?: string;
  /** More files of the web app beside the page: URL path → text. */
  files?: Record<string, string>;
  /** The files each page path's screen loads at once, as the build names them (scripts/build-web.ts). */
  preloads?: Record<string, string[]>;
  /**
   * With Stripe keys, passes sell only once the organiser's privacy policy and terms are linked: the app
   * starts with them set (LEGAL_LINKS) unless this is false (a test of the closed sale).
   */
  legalLinks?: boolean;
}

/** The organiser's legal pages a Stripe-mode test app starts with, so that its passes are on sale. */
export const LEGAL_LINKS = { privacyUrl: "https://organiser.example/privacy", termsUrl: "https://organiser.example/terms" };

/**
 * The real app on port 0 with a fresh migrated database in a temp dir — or, given `overrides.dataDir`,
 * on that dir, which the caller owns and which is kept on close (to restart on the same database).
 */
export async function startTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const ownsDataDir = overrides.dataDir === undefined;
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), "dreadcast-test-"));
  // The RTMP ports too: tests run side by side, and 1935 may be taken.
  // A cluster's instances share one --secret-key, as the command line requires of them.
  const secretKey = overrides.redisUrl && !overrides.secretKey ? CLUSTER_SECRET_KEY : (overrides.secretKey ?? null);
  const config: Config = { ...defaultConfig(), host: "127.0.0.1", port: 0, rtmpPort: 0, rtmpsPort: 0, ...overrides, secretKey, dataDir };
  // An explicit `databaseUrl: null` keeps the app on SQLite whatever engine the suite runs on.
  const databaseUrl = overrides.databaseUrl !== undefined ? overrides.databaseUrl : TEST_ENGINE === "postgres" ? await databaseForDataDir(dataDir) : null;
  config.databaseUrl = databaseUrl;
  const loggedErrors: string[] = [];
  const log = options.log ?? silentLogger;
  const logger: Logger = {
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message, error) => {
      loggedErrors.push(`${message}: ${error instanceof Error ? error.stack : String(error ?? "")}`);
      log.error(message, error);
    },
  };
  const pageDir = options.page === undefined ? null : mkdtempSync(join(tmpdir(), "dreadcast-page-"));
  const assets: WebAsset[] = [];
  if (pageDir) {
    writeFileSync(join(pageDir, "index.html"), options.page!);
    assets.push({ path: "/index.html", file: join(pageDir, "index.html"), immutable: false });
    for (const [path, text] of Object.entries(options.files ?? {})) {
      const file = join(pageDir, path.replace(/[^\w.-]/g, "_"));
      writeFileSync(file, text);
      assets.push({ path, file, immutable: true });
    }
  }
  const store = await openStore({ dataDir, databaseUrl, databaseTimeoutMs: config.databaseTimeoutMs });
  const ctx = await createContext(config, store, logger);
  if (config.stripeSecretKey && options.legalLinks !== false) {
    const { privacyUrl, termsUrl } = await ctx.settings.get();
    if (!privacyUrl && !termsUrl) await ctx.settings.update(LEGAL_LINKS);
  }
  const app = (await createApp(ctx, assets, options.preloads)).listen({ port: 0, hostname: "127.0.0.1" });
  const url = `http://127.0.0.1:${app.server!.port}`;
  return {
    url,
    origin: url,
    ctx,
    config,
    routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
    loggedErrors,
    client: () => new TestClient(url),
    async close() {
      await app.stop(true);
      await disposeContext(ctx);
      await closeStore(store);
      if (ownsDataDir && databaseUrl && !overrides.databaseUrl) await dropTestDatabase(databaseUrl);
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
      if (pageDir) rmSync(pageDir, { recursive: true, force: true });
    },
  };
}

// Open without a session: first-admin setup, sign-in (the second factor and its key options need the
// sign-in's own challenge instead), sign-out, and an invite link (its token is the proof).
const OPEN_ADMIN_ROUTES = new Set([
  "GET /api/admin/check-first-admin",
  "POST /api/admin/create-first",
  "POST /api/admin/login",
  "POST /api/admin/login/webauthn-options",
  "POST /api/admin/login/second-factor",
  "POST /api/admin/logout",
  "GET /api/admin/invites/:token",
  "POST /api/admin/invites/:token/accept",
]);

/** Every /api/admin/* route the app serves that needs an admin session, from its own route table. */
export function sessionAdminRoutes(app: TestApp): { method: string; path: string }[] {
  return app.routes.filter((r) => r.path.startsWith("/api/admin/") && !OPEN_ADMIN_ROUTES.has(`${r.method} ${r.path}`));
}

/** Creates an admin and returns a client logged in as them. */
export async function loginAsAdmin(app: TestApp, username = "warden", password = "s3cret-pass"): Promise<TestClient> {
  if (await app.ctx.admins.needsFirstAdmin()) await app.ctx.admins.create(username, `${username}@example.com`, password);
  const client = app.client();
  const res = await client.post("/api/admin/login", { username, password });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`);
  return client;
}

let signIns = 0;
/** A sign-in's own address, for an app that trusts the local proxy: the admin suites sign in more often than one address may. */
export function ownAddress(): Record<string, string> {
  signIns++;
  return { "x-forwarded-for": `10.9.${Math.floor(signIns / 250) % 250}.${signIns % 250}` };
}

/** A client signed in as `username` (a member without two factors), from an address of its own. */
export async function signedIn(app: TestApp, username: string, password: string): Promise<TestClient> {
  const client = app.client();
  const res = await client.post("/api/admin/login", { username, password }, ownAddress());
  if (res.status !== 200) throw new Error(`admin login of ${username}: ${res.status} ${res.text}`);
  return client;
}

/** A member of the team with `role` (made on first use, password "member-pass"), signed in. */
export async function memberOf(app: TestApp, username: string, role: Role): Promise<TestClient> {
  if (!(await app.ctx.admins.findByUsername(username))) await app.ctx.admins.create(username, `${username}@example.com`, "member-pass", role);
  return signedIn(app, username, "member-pass");
}

/** The built-in ingest as the panel shows it, with the stream key revealed as the panel does (the session's proof must be fresh). */
export async function ingestWithKey(client: TestClient): Promise<{ rtmpUrl: string; rtmpsUrl: string | null; streamKey: string; [k: string]: any }> {
  const view = await client.get("/api/admin/ingest");
  if (view.status !== 200) throw new Error(`GET /api/admin/ingest: ${view.status} ${view.text}`);
  const key = await client.post("/api/admin/ingest/reveal-key");
  if (key.status !== 200) throw new Error(`POST /api/admin/ingest/reveal-key: ${key.status} ${key.text}`);
  return { ...view.body, streamKey: key.body.streamKey };
}

const admins = new WeakMap<TestApp, Promise<TestClient>>();
/** One logged-in admin browser per app. */
export async function adminOf(app: TestApp): Promise<TestClient> {
  let admin = admins.get(app);
  if (!admin) admins.set(app, (admin = loginAsAdmin(app)));
  return admin;
}

/** A fresh admin session cookie made straight in the database (creating the admin on first use). */
export async function adminSession(ctx: AppContext, username = "warden"): Promise<string> {
  let admin = await ctx.store.get<{ id: number }>("SELECT id FROM admins WHERE username = ?", username);
  if (!admin) admin = { id: (await ctx.admins.create(username, `${username}@example.com`, "s3cret-pass")).id };
  return `${ADMIN_COOKIE}=${await ctx.admins.createSession(admin.id)}`;
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
