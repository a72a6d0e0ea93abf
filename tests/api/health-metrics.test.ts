import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { VERSION } from "../../src/version.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { joinAs } from "../support/viewer.ts";
import { say, WsClient } from "../support/ws.ts";

/** Prometheus' own linter (Debian's `prometheus` package). */
const PROMTOOL = Bun.which("promtool");

/** The endpoints a load balancer and a Prometheus server use. */
const apps: TestApp[] = [];
async function app(overrides: Parameters<typeof startTestApp>[0] = {}) {
  const started = await startTestApp(overrides);
  apps.push(started);
  return started;
}
afterAll(async () => {
  for (const a of apps.splice(0)) await a.close();
});

/** One sample's value from a Prometheus text page, by metric name and (some of) its labels. */
function sample(page: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of page.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("health, readiness and metrics", () => {
  test("/healthz and /readyz answer 200 while the database answers, naming the instance", async () => {
    const a = await app({ instanceName: "solo-1" });
    expect((await a.client().get("/healthz")).body).toEqual({ status: "ok" });
    const ready = await a.client().get("/readyz");
    expect(ready.status).toBe(200);
    const { build, ...rest } = ready.body as { build: string | null };
    expect(rest).toEqual({ status: "ready", instance: "solo-1", version: VERSION, database: "up", redis: "off" });
    // The web build it serves: the one named in the built index.html (null where the web app is not built).
    const index = Bun.file(join(import.meta.dir, "../../dist/web/index.html"));
    const named = (await index.exists()) ? /name="dreadcast-build" content="([0-9a-f]{12})"/.exec(await index.text())?.[1] : null;
    expect(build).toBe(named ?? null);
  });

  test("/metrics is not served unless switched on", async () => {
    const a = await app();
    expect((await a.client().get("/metrics")).status).toBe(404);
  });

  test("with a token, /metrics needs it as a bearer token", async () => {
    const a = await app({ metricsToken: "0123456789abcdef-token" });
    const refused = await a.client().get("/metrics");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("Bearer");
    expect((await a.client().get("/metrics", { authorization: "Bearer wrong-token-0123456789" })).status).toBe(401);
    const page = await a.client().get("/metrics", { authorization: "Bearer 0123456789abcdef-token" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  });

  test("the page counts viewers, sockets, chat lines, hearts, frames, the database, the mail queue and payments", async () => {
    const a = await app({ metrics: true, instanceName: "metrics-test" });
    const viewer = await joinAs(a, "Counted", "SKP");
    const ws = await WsClient.connect(a, viewer);
    await WsClient.connect(a, viewer);
    await say(ws, "for the record");
    ws.send({ type: "send_heart" });
    await ws.next("hearts", (e) => e.count === 1, 3000);
    const page = (await a.client().get("/metrics")).text;
    const labels = { instance: "metrics-test" };
    expect(page).toContain("# TYPE dreadcast_chat_messages_total counter");
    expect(sample(page, "dreadcast_viewers", labels)).toBe(1);
    expect(sample(page, "dreadcast_sockets", labels)).toBe(2);
    expect(sample(page, "dreadcast_cluster_viewers", labels)).toBe(1);
    expect(sample(page, "dreadcast_chat_messages_total", labels)).toBe(1);
    expect(sample(page, "dreadcast_hearts_total", labels)).toBe(1);
    expect(sample(page, "dreadcast_chat_messages_per_second", labels)).toBeGreaterThan(0);
    expect(sample(page, "dreadcast_hearts_per_second", labels)).toBeGreaterThan(0);
    expect(sample(page, "dreadcast_broadcast_frames_total", labels)).toBeGreaterThanOrEqual(2);
    expect(sample(page, "dreadcast_database_up", labels)).toBe(1);
    expect(sample(page, "dreadcast_database_latency_seconds", labels)).toBeGreaterThan(0);
    // The event's figures, reported by the instance running the stats sampler (this one, alone).
    expect(sample(page, "dreadcast_event_payments", { kind: "access" })).toBe(1);
    expect(sample(page, "dreadcast_event_payments", { kind: "donation" })).toBe(0);
    expect(sample(page, "dreadcast_event_payments_minor_units", { kind: "access", currency: "GBP" })).toBe(100);
    expect(sample(page, "dreadcast_event_hearts", labels)).toBe(1);
    expect(sample(page, "dreadcast_event_email_queue_depth", { status: "pending" })).toBeGreaterThanOrEqual(0);
    expect(sample(page, "dreadcast_job_owner", { job: "mail" })).toBe(1);
    expect(sample(page, "dreadcast_job_owner", { job: "stats-sampler" })).toBe(1);
    expect(sample(page, "dreadcast_job_owner", { job: "fake-viewers" })).toBe(1);
    // Nothing of the replay asked for yet: no request either way, nothing kept.
    expect(sample(page, "dreadcast_replay_cache_requests_total", { result: "hit" })).toBe(0);
    expect(sample(page, "dreadcast_replay_cache_requests_total", { result: "miss" })).toBe(0);
    expect(sample(page, "dreadcast_replay_cache_bytes", labels)).toBe(0);
    expect(sample(page, "process_resident_memory_bytes", labels)).toBeGreaterThan(1e6);
    // Every sample line is well-formed: name{labels} value.
    for (const line of page.trim().split("\n")) expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+\{[^}]*\} (-?[0-9.e+-]+|NaN))$/);
  });

  test("/metrics passes promtool's check: counters end in _total, nothing else does, names in base units", async () => {
    if (!PROMTOOL) {
      console.log("SKIPPED: promtool's check of /metrics (no promtool; apt-get install prometheus)");
      return;
    }
    const a = await app({ metrics: true, instanceName: "lint" });
    const ws = await WsClient.connect(a, await joinAs(a, "Linted", "SKP"));
    await say(ws, "checked");
    const page = (await a.client().get("/metrics")).text;
    expect(page).toContain("dreadcast_event_payments{");
    const check = Bun.spawnSync([PROMTOOL, "check", "metrics"], { stdin: new TextEncoder().encode(page), stdout: "pipe", stderr: "pipe" });
    const said = check.stdout.toString() + check.stderr.toString();
    if (said !== "" || check.exitCode !== 0) console.log(`promtool (exit ${check.exitCode}) said:\n${said}\nof this page:\n${page}`);
    expect(said).toBe("");
    expect(check.exitCode).toBe(0);
  });
});
