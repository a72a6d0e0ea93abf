/**
 * The cluster benchmark: the quiet chat's load (viewers × lines a second) served by two dreadcast instances
 * sharing PostgreSQL and a Redis started for the run, against one instance on the same PostgreSQL (the
 * overhead of the cluster), and against two Socket.IO 4 processes with `@socket.io/redis-adapter` on a
 * Redis of their own (the common way to spread a chat over processes). The viewers' sockets alternate
 * between the instances, so half of every line's deliveries cross Redis.
 *
 * PostgreSQL is the server at DREADCAST_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * with a fresh database per run. CPU is that of every server process together; Redis's own CPU is shown apart and counted in the
 * "with Redis" figures. PostgreSQL's is not counted for either dreadcast run (both write every line once).
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { createTestDatabase as createDatabase, postgresAvailable as postgresAnswers, TEST_POSTGRES_URL } from "../../tests/support/postgres.ts";
import { startTestRedis } from "../../tests/support/redis.ts";
import type { Report } from "./lib/context.ts";
import type { Job } from "./loadgen.ts";
import { startServer, wsUrl, type Server } from "./lib/proc.ts";
import { fmt } from "./lib/stats.ts";
import { createViewers } from "./lib/viewers.ts";

export interface ClusterBenchContext extends Report {
  bin: string;
  work: string;
  viewers: number;
  senders: number;
  /** The busy chat's audience and senders (the crowd benchmark's), run the same way after the quiet one; 0 skips it. */
  busyViewers: number;
  busySenders: number;
  rate: number;
  seconds: number;
  warmup: number;
  loadgen: (job: Job) => Promise<Record<string, any>>;
}

/** PostgreSQL and Redis as the tests get them: the server at DREADCAST_TEST_DATABASE_URL (default the local one), a database per run, a redis-server per run. */
const POSTGRES_URL = TEST_POSTGRES_URL;

export async function clusterBench(c: ClusterBenchContext): Promise<Record<string, unknown> | null> {
  if (!Bun.which("redis-server") || !(await postgresAnswers())) {
    c.line("cluster", `skipped: ${Bun.which("redis-server") ? "" : "no redis-server; "}${(await postgresAnswers()) ? "" : `no PostgreSQL at ${new URL(POSTGRES_URL).host}`}`);
    return null;
  }
  const quiet = await scenario(c, "quiet chat", c.viewers, c.senders, true);
  const busy = c.busyViewers > 0 ? await scenario(c, "busy chat", c.busyViewers, c.busySenders, false) : null;
  return { quiet, busy };
}

/** One load on the three set-ups; with `targets` (the quiet chat) its figures are held to the targets, and Socket.IO echoing and the floor of a cluster run beside them. */
async function scenario(c: ClusterBenchContext, label: string, viewersWanted: number, sendersWanted: number, targets: boolean): Promise<Record<string, unknown>> {
  const viewerCount = viewersWanted;
  const senders = Math.min(sendersWanted, viewerCount);
  const perSec = senders * c.rate;
  const base = { mode: "fanout" as const, sockets: viewerCount, senders, rate: c.rate, seconds: c.seconds, warmup: c.warmup };
  /** The load on several servers: socket i opens to server i % n; the CPU of all of them, and the broker's, is counted. */
  const onServers = (protocol: Job["protocol"], servers: Server[], path: string, brokerPid: number): Job => ({
    ...base,
    protocol,
    url: wsUrl(servers[0]!, path),
    origin: servers[0]!.url,
    serverPid: servers[0]!.pid,
    urls: servers.map((s) => wsUrl(s, path)),
    origins: servers.map((s) => s.url),
    serverPids: servers.map((s) => s.pid),
    brokerPid,
  });
  const show = (name: string, r: Record<string, any>) =>
    c.line(
      "cluster",
      `${name.padEnd(22)} ${fmt(r.deliveriesPerSec, 0)} deliveries/s, p50 ${fmt(r.latencyMs.p50, 1)} ms, p99 ${fmt(r.latencyMs.p99, 1)} ms, ` +
        `servers ${fmt(r.serverCpuPercent, 0)}% of a core${r.brokerCpuPercent ? ` + Redis ${fmt(r.brokerCpuPercent, 0)}%` : ""} → ${fmt(r.cpuSecondsPer100kWithBroker, 3)} s/100k deliveries, ` +
        `${fmt(r.deliveriesPerCpuSecondWithBroker, 0)} deliveries per CPU second${r.countFramesPerViewerPerSec > 0 ? `, ${fmt(r.countFramesPerViewerPerSec, 2)} count frames per viewer per second` : ""}${r.lostPercent > 0 ? `, ${fmt(r.lostPercent, 2)}% lost` : ""}${r.refused > 0 ? `, ${r.refused} refused` : ""}` +
        (r.serversExited > 0 ? `, ${r.serversExited} server process${r.serversExited === 1 ? "" : "es"} DIED during the run` : ""),
    );
  c.line("cluster", `${label}: ${viewerCount} sockets, ${senders} senders × ${c.rate} msg/s = ${perSec} msg/s for ${c.seconds} s, on PostgreSQL at ${new URL(POSTGRES_URL).host}`);

  const startInstance = (name: string, databaseUrl: string, redisUrl?: string) =>
    startServer(
      name,
      [
        c.bin,
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--data-dir",
        mkdtempSync(join(c.work, "data-")),
        "--trust-proxy",
        "127.0.0.1",
        "--database-url",
        databaseUrl,
        "--instance-name",
        name,
        ...(redisUrl ? ["--redis-url", redisUrl, "--secret-key", "5e".repeat(32)] : []),
      ],
      /dreadcast \S+ listening on (http:\/\/\S+)/,
    );

  // One instance on PostgreSQL.
  let single: Record<string, any>;
  {
    const db = await createDatabase("dreadcast_bench");
    const server = await startInstance("single", db.url);
    try {
      const viewers = await createViewers(server.url, viewerCount);
      single = await c.loadgen({ ...base, protocol: "dreadcast", url: wsUrl(server, "/ws"), origin: server.url, serverPid: server.pid, viewers });
      show("one instance", single);
    } finally {
      await server.stop();
      await db.drop();
    }
  }

  // Two instances, one Redis.
  let pair: Record<string, any>;
  {
    const db = await createDatabase("dreadcast_bench");
    const redis = (await startTestRedis())!;
    const servers: Server[] = [];
    try {
      servers.push(await startInstance("one", db.url, redis.url));
      servers.push(await startInstance("two", db.url, redis.url));
      const viewers = await createViewers(servers[0]!.url, viewerCount);
      pair = await c.loadgen({ ...onServers("dreadcast", servers, "/ws", redis.pid), viewers });
      show("two instances + Redis", pair);
    } finally {
      for (const server of servers) await server.stop();
      await redis.stop();
      await db.drop();
    }
  }

  // Socket.IO 4, two processes with the Redis adapter: echoing the sender's `{ text }` (what the chat
  // benchmark's Socket.IO does), and sending a chat app's whole message, as dreadcast does (judged).
  const socketioRun = async (message: "echo" | "full") => {
    const redis = (await startTestRedis())!;
    const servers: Server[] = [];
    try {
      for (const name of ["socketio-1", "socketio-2"]) {
        servers.push(
          await startServer(name, ["node", join(import.meta.dir, "servers/socketio-cluster.mjs")], /socketio listening on (http:\/\/\S+)/, {
            REDIS_URL: redis.url,
            MESSAGE: message,
          }),
        );
      }
      const r = await c.loadgen(onServers("socketio", servers, "/socket.io/", redis.pid));
      show(message === "full" ? "Socket.IO ×2, same msg" : "Socket.IO ×2, echo", r);
      for (const server of servers) {
        const last = server
          .output()
          .trim()
          .split("\n")
          .filter((l) => /error|heap|killed/i.test(l))
          .at(-1);
        if (last) c.line("cluster", `  ${server.name}: ${last.slice(0, 200)}`);
      }
      return r;
    } finally {
      for (const server of servers) await server.stop();
      await redis.stop();
    }
  };
  const echo = targets ? await socketioRun("echo") : null;
  const socketio = await socketioRun("full");

  // The floor of a cluster (servers/floor-cluster.ts: two bare Bun servers relaying the same whole message
  // through Redis): the most deliveries per CPU second any server that sends each message as it comes can reach
  // here, so the ceiling of the ratio to Socket.IO on this load.
  let floor: Record<string, any> | null = null;
  if (targets) {
    const redis = (await startTestRedis())!;
    const servers: Server[] = [];
    try {
      for (const name of ["floor-1", "floor-2"]) {
        servers.push(
          await startServer(name, [process.execPath, join(import.meta.dir, "servers/floor-cluster.ts")], /floor-cluster listening on (http:\/\/\S+)/, { REDIS_URL: redis.url }),
        );
      }
      floor = await c.loadgen(onServers("floor", servers, "/", redis.pid));
      show("floor ×2 + Redis", floor);
    } finally {
      for (const server of servers) await server.stop();
      await redis.stop();
    }
  }

  const overhead = pair.cpuSecondsPer100kWithBroker / single.cpuSecondsPer100k;
  const p99Ok = pair.latencyMs.p99 <= single.latencyMs.p99 + 15;
  const vsSocketIo = pair.deliveriesPerCpuSecondWithBroker / socketio.deliveriesPerCpuSecondWithBroker;
  const vsEcho = echo ? pair.deliveriesPerCpuSecondWithBroker / echo.deliveriesPerCpuSecondWithBroker : null;
  const floorVsSocketIo = floor ? floor.deliveriesPerCpuSecondWithBroker / socketio.deliveriesPerCpuSecondWithBroker : null;
  const vsFloor = floor ? pair.deliveriesPerCpuSecondWithBroker / floor.deliveriesPerCpuSecondWithBroker : null;
  const delivered = pair.lost === 0 && pair.refused === 0;
  if (!targets) {
    c.line(
      "cluster",
      `${label}: deliveries per CPU second ${fmt(vsSocketIo, 2)}× Socket.IO with the Redis adapter; CPU per delivery ${fmt(overhead, 2)}× one instance's; p99 ${fmt(pair.latencyMs.p99, 1)} ms (one instance ${fmt(single.latencyMs.p99, 1)}, Socket.IO ${fmt(socketio.latencyMs.p99, 1)})`,
    );
    c.summary.push({
      benchmark: `Cluster, ${label} (${viewerCount} × ${perSec} msg/s): two instances + Redis`,
      figure:
        `${fmt(pair.deliveriesPerCpuSecondWithBroker, 0)} deliveries per CPU second vs Socket.IO + adapter ${fmt(socketio.deliveriesPerCpuSecondWithBroker, 0)} → ${fmt(vsSocketIo, 2)}×; ${fmt(overhead, 2)}× one instance's CPU per delivery; p99 ${fmt(pair.latencyMs.p99, 1)} ms (one instance ${fmt(single.latencyMs.p99, 1)}, Socket.IO ${fmt(socketio.latencyMs.p99, 1)}); ${fmt(pair.lostPercent, 2)}% lost (Socket.IO ${fmt(socketio.lostPercent, 2)}%)` +
        (socketio.serversExited > 0 ? `; ${socketio.serversExited} Socket.IO process(es) died, their CPU counted until then` : ""),
      target: "—",
      ok: null,
    });
    return { single, pair, socketio, overhead, vsSocketIo };
  }
  c.line(
    "cluster",
    `ratios: CPU per delivery ${fmt(overhead, 2)}× one instance's (≤ 1.3×: ${c.verdict(overhead <= 1.3)}); p99 ${fmt(pair.latencyMs.p99, 1)} ms vs ${fmt(single.latencyMs.p99, 1)} ms ` +
      `(≤ +15 ms: ${c.verdict(p99Ok)}); deliveries per CPU second ${fmt(vsSocketIo, 2)}× Socket.IO with the Redis adapter sending the same message (≥ 2×: ${c.verdict(vsSocketIo >= 2)})` +
      (vsEcho !== null ? `, ${fmt(vsEcho, 2)}× Socket.IO echoing { text }` : "") +
      (floorVsSocketIo !== null && vsFloor !== null
        ? `; the floor of a cluster ${fmt(floorVsSocketIo, 2)}× Socket.IO (dreadcast ${fmt(vsFloor, 2)}× the floor's deliveries per CPU second)`
        : ""),
  );
  c.summary.push(
    {
      benchmark: `Cluster, ${label} (${viewerCount} × ${perSec} msg/s): two instances + Redis, every line delivered`,
      figure: `${fmt(pair.lostPercent, 2)}% lost, ${pair.refused} refused`,
      target: "none lost",
      ok: delivered,
    },
    {
      benchmark: "Cluster: CPU per delivery against one instance",
      figure: `${fmt(pair.cpuSecondsPer100kWithBroker, 3)} s/100k (Redis ${fmt(pair.brokerCpuPercent, 0)}% of a core) vs ${fmt(single.cpuSecondsPer100k, 3)} s → ${fmt(overhead, 2)}×`,
      target: "≤ 1.3×",
      ok: overhead <= 1.3,
    },
    {
      benchmark: "Cluster: latency against one instance",
      figure: `p99 ${fmt(pair.latencyMs.p99, 1)} ms vs ${fmt(single.latencyMs.p99, 1)} ms`,
      target: "≤ one instance + 15 ms",
      ok: p99Ok,
    },
    {
      benchmark: "Cluster: deliveries per CPU second against Socket.IO + Redis adapter sending the same message",
      figure:
        `${fmt(pair.deliveriesPerCpuSecondWithBroker, 0)} vs ${fmt(socketio.deliveriesPerCpuSecondWithBroker, 0)} → ${fmt(vsSocketIo, 2)}×` +
        (echo && vsEcho !== null ? ` (echoing { text }: ${fmt(echo.deliveriesPerCpuSecondWithBroker, 0)} → ${fmt(vsEcho, 2)}×)` : ""),
      target: "≥ 2×",
      ok: vsSocketIo >= 2,
    },
  );
  if (floor && floorVsSocketIo !== null && vsFloor !== null) {
    c.summary.push({
      benchmark: "Cluster: the floor of a cluster (two bare Bun servers relaying through Redis) against Socket.IO + Redis adapter",
      figure: `${fmt(floor.deliveriesPerCpuSecondWithBroker, 0)} vs ${fmt(socketio.deliveriesPerCpuSecondWithBroker, 0)} → ${fmt(floorVsSocketIo, 2)}× (the ceiling of the row above on this machine); dreadcast ${fmt(vsFloor, 2)}× the floor's`,
      target: "—",
      ok: null,
    });
  }
  return { single, pair, socketio, echo, floor, overhead, vsSocketIo, vsEcho, floorVsSocketIo, vsFloor };
}
