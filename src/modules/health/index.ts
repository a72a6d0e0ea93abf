import { Elysia } from "elysia";
import { VERSION } from "../../version.ts";
import type { AppContext } from "../../context.ts";
import { PostgresStore } from "../../db/postgres-store.ts";
import { loadWebBuild } from "../../http/web-app.ts";
import { unauthorized } from "../../lib/errors.ts";
import { CachedRecordingFiles } from "../replay/file-cache.ts";
import { backupStatus } from "../../cli/backup-status.ts";

/** The single-owner job whose instance reports the event-wide figures (dreadcast_event_*). */
const EVENT_REPORTER = "stats-sampler";

/** When this process started: before the first scheduled backup, the time since counts toward "late". */
const startedAt = Date.now();

/** How long the database may take to answer a health check before it counts as away. */
const CHECK_TIMEOUT_MS = 2000;

async function databaseLatency(ctx: AppContext): Promise<number | null> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      ctx.store.get("SELECT 1 AS one"),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), CHECK_TIMEOUT_MS);
      }),
    ]);
    return (performance.now() - started) / 1000;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Prometheus text exposition: `# HELP`, `# TYPE`, then the samples, each labelled with the instance. */
class Exposition {
  private readonly lines: string[] = [];

  constructor(private readonly instance: string) {}

  add(name: string, type: "gauge" | "counter", help: string, samples: [Record<string, string>, number][] | number): void {
    this.lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    const list = typeof samples === "number" ? [[{}, samples] as [Record<string, string>, number]] : samples;
    for (const [labels, value] of list) {
      const all = { instance: this.instance, ...labels };
      const text = Object.entries(all)
        .map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`)
        .join(",");
      this.lines.push(`${name}{${text}} ${Number.isFinite(value) ? value : "NaN"}`);
    }
  }

  toString(): string {
    return this.lines.join("\n") + "\n";
  }
}

const EVENT_WIDE = "(event-wide: only the instance running the stats sampler reports it)";

/** The event's figures, `dreadcast_event_*`: what it has, not what this instance did. */
async function eventFigures(ctx: AppContext, out: Exposition, databaseUp: boolean): Promise<void> {
  out.add("dreadcast_event_hearts", "gauge", `The event's heart total ${EVENT_WIDE}.`, ctx.chat.heartCount());
  out.add("dreadcast_event_fake_viewers", "gauge", `Fake viewers added to the count everyone sees ${EVENT_WIDE}.`, ctx.chat.currentFakeViewers());
  if (!databaseUp) return;
  try {
    const queue = await ctx.store.all<{ status: string; n: number }>("SELECT status, COUNT(*) AS n FROM email_queue WHERE status != 'sent' GROUP BY status");
    const payments = await ctx.store.all<{ kind: string; currency: string; n: number; amount: number }>(
      "SELECT kind, currency, COUNT(*) AS n, COALESCE(SUM(amount), 0) AS amount FROM payments WHERE fulfilled = 1 GROUP BY kind, currency",
    );
    out.add(
      "dreadcast_event_email_queue_depth",
      "gauge",
      `E-mails waiting to be sent (pending) or given up on (failed) ${EVENT_WIDE}.`,
      ["pending", "failed"].map((status) => [{ status }, Number(queue.find((q) => q.status === status)?.n ?? 0)]),
    );
    const count = (kind: string) => payments.filter((p) => p.kind === kind).reduce((n, p) => n + Number(p.n), 0);
    out.add(
      "dreadcast_event_payments",
      "gauge",
      `Payments that succeeded, refunded ones included, by kind ${EVENT_WIDE}.`,
      ["access", "donation"].map((kind) => [{ kind }, count(kind)]),
    );
    out.add(
      "dreadcast_event_payments_minor_units",
      "gauge",
      `What they came to before refunds, in minor units (pence, cents), by kind and currency ${EVENT_WIDE}.`,
      payments.map((p) => [{ kind: p.kind, currency: p.currency.toUpperCase() }, Number(p.amount)]),
    );
    const backups = await backupStatus(ctx.store, ctx.config, startedAt);
    if (backups) {
      if (backups.lastGoodAt !== null) {
        out.add(
          "dreadcast_event_backup_age_seconds",
          "gauge",
          `Time since the last good scheduled backup ${EVENT_WIDE}.`,
          Math.round((Date.now() - Date.parse(backups.lastGoodAt)) / 1000),
        );
      }
      out.add("dreadcast_event_backup_failing", "gauge", `1 when the last scheduled backup failed ${EVENT_WIDE}.`, backups.failing ? 1 : 0);
    }
  } catch {
    // The database went away between the queries: the next scrape has them.
  }
}

async function metrics(ctx: AppContext): Promise<string> {
  const out = new Exposition(ctx.cluster.name);
  const cluster = ctx.cluster.status();
  const sockets = ctx.chat.socketStats();
  const live = ctx.chat.liveStats();
  const build = (await loadWebBuild()) ?? "none";
  out.add("dreadcast_info", "gauge", "Always 1; the version, the web build it serves and whether the instance is part of a cluster.", [
    [{ version: VERSION, web_build: build, clustered: String(cluster.clustered) }, 1],
  ]);
  out.add("dreadcast_viewers", "gauge", "Distinct people with a chat socket open on this instance.", sockets.people);
  out.add("dreadcast_sockets", "gauge", "Chat sockets open on this instance.", sockets.sockets);
  out.add("dreadcast_cluster_viewers", "gauge", "Distinct people connected to the whole cluster, as this instance counts them (without fake viewers).", ctx.chat.realViewerCount());
  out.add("dreadcast_chat_messages_total", "counter", "Chat lines accepted on this instance.", live.lines);
  out.add("dreadcast_hearts_total", "counter", "Hearts counted on this instance.", live.hearts);
  out.add(
    "dreadcast_chat_messages_per_second",
    "gauge",
    "Chat lines accepted on this instance per second, over the last ten seconds.",
    Math.round(live.linesPerSecond * 100) / 100,
  );
  out.add("dreadcast_hearts_per_second", "gauge", "Hearts counted on this instance per second, over the last ten seconds.", Math.round(live.heartsPerSecond * 100) / 100);
  out.add("dreadcast_broadcast_frames_total", "counter", "Frames fanned out to this instance's sockets (one per event or chat batch).", live.frames);
  const latency = await databaseLatency(ctx);
  out.add("dreadcast_database_up", "gauge", "1 when the database answered the scrape's query.", latency === null ? 0 : 1);
  if (latency !== null) out.add("dreadcast_database_latency_seconds", "gauge", "Round trip of a trivial query to the database.", latency);
  if (ctx.store instanceof PostgresStore) {
    out.add(
      "dreadcast_database_pool_renewals_total",
      "counter",
      "Times PostgreSQL gave no answer within the deadline and the pool's connections were dropped and opened anew.",
      ctx.store.poolRenewals,
    );
  }
  out.add("dreadcast_redis_up", "gauge", "1 while the connection to Redis is up (absent alone).", cluster.clustered ? (cluster.redis === "up" ? 1 : 0) : NaN);
  if (cluster.roundTripMs !== null) out.add("dreadcast_redis_round_trip_seconds", "gauge", "Round trip of the last health ping to Redis.", cluster.roundTripMs / 1000);
  out.add("dreadcast_cluster_messages_published_total", "counter", "Messages this instance published to the others.", cluster.published);
  out.add("dreadcast_cluster_messages_received_total", "counter", "Messages this instance received from the others.", cluster.received);
  out.add("dreadcast_cluster_messages_dropped_total", "counter", "Messages not published because Redis was away.", cluster.dropped);
  out.add("dreadcast_cluster_peers", "gauge", "Other instances heard from in the last seconds.", ctx.chat.peerStats().length);
  out.add(
    "dreadcast_job_owner",
    "gauge",
    "1 for each periodic job this instance runs (one instance of a cluster runs each).",
    ["mail", "stats-sampler", "fake-viewers"].map((job) => [{ job }, cluster.owns.includes(job) ? 1 : 0]),
  );
  // The event's own figures are the same whichever instance reads them: one instance reports them, so that
  // a sum over the instances counts each once.
  if (cluster.owns.includes(EVENT_REPORTER)) await eventFigures(ctx, out, latency !== null);
  const { files } = ctx.recordings;
  if (files instanceof CachedRecordingFiles) {
    const cache = files.figures();
    out.add("dreadcast_replay_cache_requests_total", "counter", "Requests for the replay's files, answered from this instance's memory (hit) or from the disk or bucket (miss).", [
      [{ result: "hit" }, cache.hits],
      [{ result: "miss" }, cache.misses],
    ]);
    out.add("dreadcast_replay_cache_bytes", "gauge", "Bytes of the replay's files kept in this instance's memory (at most --replay-cache-mb).", cache.bytes);
  }
  const usage = process.cpuUsage();
  out.add("process_cpu_seconds_total", "counter", "CPU time this process used.", (usage.user + usage.system) / 1e6);
  out.add("process_resident_memory_bytes", "gauge", "Resident memory of this process.", process.memoryUsage.rss());
  return out.toString();
}

/**
 * `/healthz`: alive and the database answers (200, or 503). `/readyz`: this instance can take viewers —
 * its database answers; Redis is reported, not required — for a load balancer's health checks; it also
 * names the version and web build, so a rolling upgrade can be watched instance by instance.
 * `/metrics`: Prometheus text, when switched on (`--metrics`, or `--metrics-token` and that bearer token).
 */
export function healthRoutes(ctx: AppContext) {
  const { metrics: open, metricsToken } = ctx.config;
  return new Elysia({ name: "health" })
    .get("/healthz", async ({ set }) => {
      if ((await databaseLatency(ctx)) !== null) return { status: "ok" };
      set.status = 503;
      return { status: "unavailable", error: "Database unreachable" };
    })
    .get("/readyz", async ({ set }) => {
      const database = (await databaseLatency(ctx)) !== null;
      const cluster = ctx.cluster.status();
      // Redis away pauses only the chat between instances, for all of them at once: each still serves its
      // viewers, so a balancer should keep sending them (an instance without its database cannot).
      const body = {
        status: database ? "ready" : "unavailable",
        instance: cluster.name,
        version: VERSION,
        build: await loadWebBuild(),
        database: database ? "up" : "down",
        redis: cluster.redis,
      };
      if (body.status !== "ready") set.status = 503;
      return body;
    })
    .get("/metrics", async ({ request, set }) => {
      if (!open && !metricsToken) {
        set.status = 404;
        return { error: "Not found" };
      }
      if (!open && request.headers.get("authorization") !== `Bearer ${metricsToken}`) {
        set.headers["www-authenticate"] = 'Bearer realm="metrics"';
        throw unauthorized("This endpoint needs the metrics token");
      }
      return new Response(await metrics(ctx), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" } });
    });
}
