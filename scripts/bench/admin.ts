/**
 * The admin team's cost, in process and without the network (app.handle on the real app over a temp
 * SQLite file), so the figures are the server's own time:
 * - the role check: the same admin request through `adminRoutes` (session, role, address) and through the
 *   session-only check the panel had before roles, interleaved in rounds; the ratio of medians;
 * - sign-in with TOTP: the second-factor request (challenge, code, its time step taken, a new session) on
 *   accounts that each sign in once, beside the password request every sign-in makes anyway.
 */
import { Elysia } from "elysia";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { defaultConfig, type Config } from "../../src/config.ts";
import { createContext, disposeContext } from "../../src/context.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import { readCookie } from "../../src/http/cookies.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { ADMIN_COOKIE, adminRoutes } from "../../src/modules/admin/auth.ts";
import type { Report } from "./lib/context.ts";
import { fmt } from "./lib/stats.ts";
import { totp } from "../../tests/support/totp.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

export interface AdminBenchOptions extends Report {
  work: string;
  /** Requests per round and rounds, for the role check. */
  requests: number;
  rounds: number;
  /** Accounts signing in with TOTP (each once: a code's time step is good once). */
  signIns: number;
}

export async function adminBench(o: AdminBenchOptions) {
  const dataDir = mkdtempSync(join(o.work, "admin-"));
  const config: Config = { ...defaultConfig(), host: "127.0.0.1", port: 0, dataDir, publicUrl: "http://localhost:3000" };
  const store = await openStore({ dataDir, databaseUrl: null, databaseTimeoutMs: config.databaseTimeoutMs });
  const ctx = await createContext(config, store, silentLogger);
  const app = await createApp(ctx, []);
  try {
    const base = "http://localhost:3000";
    const call = async (method: string, path: string, body: unknown, cookie: string) => {
      const started = performance.now();
      const res = await app.handle(
        new Request(base + path, {
          method,
          headers: { origin: base, cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      const ms = performance.now() - started;
      const setCookie = res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0]!)
        .join("; ");
      return { res, ms, setCookie, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
    };

    // --- the role check ---
    const owner = await ctx.admins.create("owner", "owner@example.com", "owner-pass");
    const cookie = `${ADMIN_COOKIE}=${await ctx.admins.createSession(owner.id)}`;
    const withRoles = adminRoutes(ctx, "stats").get("/probe", ({ admin }) => admin.username);
    const sessionOnly = new Elysia({ prefix: "/api/admin" })
      .derive(async ({ request }) => ({ admin: (await ctx.admins.requireSession(readCookie(request, ADMIN_COOKIE))).admin }))
      .get("/probe", ({ admin }) => admin.username);
    const time = async (target: { handle: (r: Request) => Promise<Response> }) => {
      const samples: number[] = [];
      for (let i = 0; i < o.requests; i++) {
        const started = performance.now();
        const res = await target.handle(new Request(`${base}/api/admin/probe`, { headers: { cookie } }));
        await res.text();
        samples.push(performance.now() - started);
      }
      return median(samples);
    };
    await time(withRoles);
    await time(sessionOnly);
    const roleRounds: number[] = [];
    const plainRounds: number[] = [];
    for (let r = 0; r < o.rounds; r++) {
      plainRounds.push(await time(sessionOnly));
      roleRounds.push(await time(withRoles));
    }
    const roleMs = median(roleRounds);
    const plainMs = median(plainRounds);
    const ratio = roleMs / plainMs;
    o.line(
      "role check",
      `admin request ${fmt(roleMs * 1000, 0)} µs with the role check, ${fmt(plainMs * 1000, 0)} µs with the session alone (median of ${o.rounds} rounds of ${o.requests}): ${fmt(ratio, 2)}×`,
    );
    o.summary.push({ benchmark: "admin", figure: `role check ${fmt(ratio, 2)}× a session-only admin request`, target: "≤ 1.10× (nothing measurable)", ok: ratio <= 1.1 });

    // --- sign-in with TOTP ---
    const accounts: { username: string; secret: string }[] = [];
    for (let i = 0; i < o.signIns; i++) {
      const member = await ctx.admins.create(`member${i}`, `member${i}@example.com`, "member-pass", "support");
      const { secret } = await ctx.adminTeam.twoFactor.setupTotp(member);
      await ctx.adminTeam.twoFactor.enableTotp(member.id, totp(secret));
      accounts.push({ username: member.username, secret });
    }
    // Their enabling codes used this step: sign in in the next.
    await Bun.sleep(30_000 - (Date.now() % 30_000) + 50);
    const passwordMs: number[] = [];
    const codeMs: number[] = [];
    for (const a of accounts) {
      const login = await call("POST", "/api/admin/login", { username: a.username, password: "member-pass" }, "");
      if (!login.json?.secondFactor) throw new Error(`no second factor asked of ${a.username}: ${JSON.stringify(login.json)}`);
      passwordMs.push(login.ms);
      const second = await call("POST", "/api/admin/login/second-factor", { code: totp(a.secret) }, login.setCookie);
      if (second.res.status !== 200) throw new Error(`sign-in of ${a.username} refused: ${JSON.stringify(second.json)}`);
      codeMs.push(second.ms);
    }
    const added = median(codeMs);
    o.line(
      "totp sign-in",
      `second factor ${fmt(added, 2)} ms median, ${fmt(p95(codeMs), 2)} ms p95 (${accounts.length} sign-ins); the password step ${fmt(median(passwordMs), 1)} ms`,
    );
    o.summary.push({ benchmark: "admin", figure: `TOTP adds ${fmt(added, 2)} ms (p95 ${fmt(p95(codeMs), 2)}) to a sign-in`, target: "≤ 5 ms", ok: added <= 5 });
    return { roleMs, plainMs, ratio, totpMedianMs: added, totpP95Ms: p95(codeMs), passwordMedianMs: median(passwordMs) };
  } finally {
    await disposeContext(ctx);
    await closeStore(store);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const work = mkdtempSync(join("/tmp", "dreadcast-admin-bench-"));
  const line = (label: string, text: string) => console.log(`${label.padEnd(14)} ${text}`);
  const summary: Report["summary"] = [];
  await adminBench({ line, verdict: (ok) => (ok ? "PASS" : "MISS"), summary, work, requests: 2000, rounds: 5, signIns: 30 });
  for (const row of summary) console.log(`| ${row.benchmark} | ${row.figure} | ${row.target} | ${row.ok ? "PASS" : "MISS"} |`);
  rmSync(work, { recursive: true, force: true });
}
