import { createApp } from "./app.ts";
import { backupCommand, restoreCommand } from "./cli/backup.ts";
import { BackupSchedule } from "./cli/backup-schedule.ts";
import { adminCommand, CommandError } from "./cli/commands.ts";
import { migrateDataCommand } from "./cli/migrate-data.ts";
import { ConfigError, paymentMode, parseServeArgs, serveHelp, type Config } from "./config.ts";
import { createContext, disposeContext } from "./context.ts";
import { DataDirHeldError, DataDirUnwritableError, holdDataDir } from "./db/data-dir-hold.ts";
import { closeStore, DatabaseUnavailableError, describePostgres, describeSchema, openStore } from "./db/database.ts";
import { SchemaTooNewError } from "./db/migrate.ts";
import { VERSION } from "./version.ts";
import { intervalJob } from "./cluster/cluster.ts";
import { RedisUnavailableError } from "./cluster/redis-cluster.ts";
import { consoleLogger } from "./lib/logger.ts";
import { listenUrl } from "./http/site-address.ts";
import { missingSealingKey } from "./sealing-key-check.ts";
import { reconcileAfterRestore } from "./modules/payments/reconcile.ts";

const EVERY_ADDRESS = ["0.0.0.0", "::", ""];

async function serve(config: Config): Promise<void> {
  // One process per SQLite file; on PostgreSQL several instances share the database.
  const hold = config.databaseUrl ? null : holdDataDir(config.dataDir);
  let schema = "";
  const store = await openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    databaseTimeoutMs: config.databaseTimeoutMs,
    applicationName: `dreadcast ${config.instanceName}`,
    onSchema: (from, to) => (schema = describeSchema(from, to)),
  });
  let ctx;
  try {
    ctx = await createContext(config, store, consoleLogger);
  } catch (error) {
    await closeStore(store);
    hold?.release();
    throw error;
  }
  const keyWarning = await missingSealingKey(config, store);
  if (keyWarning) console.error(keyWarning);
  const app = (await createApp(ctx)).listen({ port: config.port, hostname: config.host });
  const port = app.server!.port ?? config.port;
  const bound = listenUrl(config.host, port);
  const url = config.publicUrl ?? bound;
  // Before the first line is printed: whoever waits for it may signal at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    await app.stop(true);
    await disposeContext(ctx);
    await closeStore(store);
    hold?.release();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // The bound address first, even behind a balancer: it is what the balancer must reach.
  const notes = [EVERY_ADDRESS.includes(config.host) ? `every address of this machine` : "", config.publicUrl ? `public URL ${config.publicUrl}` : ""].filter(Boolean);
  console.log(`dreadcast ${VERSION} listening on ${bound}${notes.length ? ` (${notes.join(", ")})` : ""}`);
  console.log(paymentMode(config) === "demo" ? "payments: demo mode — no real money, test card 4242 4242 4242 4242" : "payments: live Stripe payments");
  console.log(config.smtpUrl ? `e-mail: SMTP via ${new URL(config.smtpUrl).host}` : `e-mail: outbox folder ${config.dataDir}/outbox (no SMTP set)`);
  console.log(config.databaseUrl ? `data: PostgreSQL at ${describePostgres(config.databaseUrl)}, ${schema}` : `data: ${config.dataDir}, ${schema}`);
  if (config.backupEveryMs) {
    // One instance of a cluster takes them; alone, this one.
    const schedule = new BackupSchedule(config, consoleLogger, store);
    ctx.cluster.single(
      "backups",
      intervalJob(() => void schedule.tick(), config.backupEveryMs),
    );
    console.log(
      `backups: every ${config.backupEveryMs / 1000} s into ${config.backupTo}, the newest ${config.backupKeep} kept and the last of each of ${config.backupDays} day(s)`,
    );
  }
  // Restored from a backup: what was paid, refunded or disputed since is read back from the provider.
  void reconcileAfterRestore({ dataDir: config.dataDir, store, payments: ctx.payments, log: consoleLogger, siteUrl: () => ctx.site.url() });
  if (config.redisUrl) console.log(`cluster: instance ${config.instanceName}, sharing the live event through Redis at ${new URL(config.redisUrl).host}`);
  if (await ctx.admins.needsFirstAdmin()) console.log(`no admin yet: create the first one at ${url}/admin/create-first-admin`);
}

async function main(argv: string[]): Promise<number> {
  const env = process.env;
  // The database, the key, the backups and the recordings are the operator's alone, whatever the umask.
  process.umask(0o077);
  try {
    if (argv[0] === "admin") {
      console.log(await adminCommand(argv.slice(1), env));
      return 0;
    }
    if (argv[0] === "backup") {
      console.log(await backupCommand(argv.slice(1), env));
      return 0;
    }
    if (argv[0] === "restore") {
      console.log(await restoreCommand(argv.slice(1), env));
      return 0;
    }
    if (argv[0] === "migrate-data") {
      console.log(await migrateDataCommand(argv.slice(1), env));
      return 0;
    }
    if (argv.includes("--help") || argv.includes("-h")) {
      process.stdout.write(serveHelp());
      return 0;
    }
    if (argv.includes("--version")) {
      console.log(`dreadcast ${VERSION}`);
      return 0;
    }
    await serve(parseServeArgs(argv, env));
    return -1;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SchemaTooNewError) {
      console.error(`dreadcast: ${error.message}`);
      return 2;
    }
    if (
      error instanceof CommandError ||
      error instanceof DataDirHeldError ||
      error instanceof DataDirUnwritableError ||
      error instanceof DatabaseUnavailableError ||
      error instanceof RedisUnavailableError
    ) {
      console.error(`dreadcast: ${error.message}`);
      return 1;
    }
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") {
      console.error(`dreadcast: the port is already in use; pick another with --port`);
      return 1;
    }
    if (code === "EACCES" || code === "EROFS") {
      console.error(`dreadcast: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
}

const exitCode = await main(process.argv.slice(2));
if (exitCode >= 0) process.exit(exitCode);
