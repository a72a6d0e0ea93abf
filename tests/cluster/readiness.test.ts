import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startInstance, type InstanceProcess } from "../support/server.ts";
import { eventually } from "../support/eventually.ts";
import { createTestDatabase, postgresAvailable } from "../support/postgres.ts";
import { CADDY, request, ROOT, startCaddy, substitute } from "../support/proxies.ts";
import { startTestRedis, type TestRedis, CLUSTER_SECRET_KEY } from "../support/redis.ts";

/**
 * Readiness as a balancer sees it: three instances behind the shipped Caddyfile (active health checks on
 * /readyz every 5 s), and Redis gone for longer than a check's interval. Redis away pauses only the chat
 * between the instances; the site must go on answering.
 */
const redis: TestRedis | null = await startTestRedis();
const postgres = await postgresAvailable();
const missing = [redis ? "" : "no redis-server", postgres ? "" : "no PostgreSQL server answers", CADDY ? "" : "no caddy (apt-get install caddy)"].filter(Boolean);
if (missing.length) console.log(`SKIPPED: the cluster's readiness behind Caddy (${missing.join("; ")})`);

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});

describe.skipIf(missing.length > 0)("readiness behind the shipped Caddyfile", () => {
  test("Redis gone for 8 s: every instance stays ready and the site answers every request throughout", async () => {
    const db = await createTestDatabase("dreadcast_ready");
    cleanup.push(() => db.drop());
    const flags = ["--database-url", db.url, "--redis-url", redis!.url, "--secret-key", CLUSTER_SECRET_KEY, "--trust-proxy", "127.0.0.1"];
    const instances: InstanceProcess[] = [];
    for (const name of ["one", "two", "three"]) {
      const instance = await startInstance(name, flags);
      cleanup.push(() => instance.kill());
      instances.push(instance);
    }
    const [a, b, c] = instances.map((i) => i.port);
    const caddy = await startCaddy(readFileSync(join(ROOT, "deploy/cluster/Caddyfile"), "utf8"), (text, site) =>
      substitute(text, [
        [/^live\.example\.com \{$/gm, `${site} {`],
        ["127.0.0.1:3001 127.0.0.1:3002 127.0.0.1:3003", `127.0.0.1:${a} 127.0.0.1:${b} 127.0.0.1:${c}`],
      ]),
    );
    cleanup.push(() => caddy.stop());
    const throughCaddy = async () => {
      const started = performance.now();
      const answer = await request(caddy, "127.0.0.1", "GET", "/api/livestream-settings");
      return { status: answer.status, ms: performance.now() - started };
    };
    const readiness = async () =>
      Promise.all(
        instances.map(async (i) => {
          const answer = await fetch(`${i.url}/readyz`);
          return { status: answer.status, redis: ((await answer.json()) as { redis: string }).redis };
        }),
      );
    await eventually(async () => (await throughCaddy()).status === 200, 10_000, "the site answers through Caddy");

    await redis!.kill();
    const gapStarted = performance.now();
    await eventually(async () => (await readiness()).every((r) => r.redis === "down"), 5000, "every instance sees Redis gone");
    // Longer than Caddy's health interval (5 s) and timeout (2 s): its checks have asked every instance.
    const answers: { status: number; ms: number }[] = [];
    while (performance.now() - gapStarted < 8000) {
      answers.push(await throughCaddy());
      await Bun.sleep(200);
    }
    expect(answers.filter((r) => r.status !== 200)).toEqual([]);
    // None waited on Caddy's retry for a healthy instance (lb_try_duration 5s).
    expect(Math.max(...answers.map((r) => r.ms))).toBeLessThan(2000);
    expect(await readiness()).toEqual(instances.map(() => ({ status: 200, redis: "down" })));

    await redis!.start();
    await eventually(async () => (await readiness()).every((r) => r.redis === "up"), 8000, "every instance back on Redis");
    expect((await throughCaddy()).status).toBe(200);
  }, 60_000);
});
