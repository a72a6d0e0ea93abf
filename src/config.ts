import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { createSecureContext } from "node:tls";
import { resolve } from "node:path";
import { DEFAULT_STATEMENT_TIMEOUT_MS } from "./db/postgres-store.ts";
import { FLAGS, type FlagSpec } from "./config-flags.ts";
import type { Config } from "./config-shape.ts";

export type { Config } from "./config-shape.ts";

export { FLAGS };

export class ConfigError extends Error {}

/** The 32 bytes of a --secret-key given as 64 hex digits or as base64, or null when it is neither. */
export function secretKeyBytes(raw: string): Buffer | null {
  const text = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text, "base64");
    if (bytes.length === 32) return bytes;
  }
  return null;
}

/** A statement given longer than this is a stuck server, not a slow one. */
const MAX_DATABASE_TIMEOUT_S = 600;

/** A line held longer than this would read as lag, not as a busy chat. */
const MAX_CHAT_BATCH_MS = 1000;
const MIB = 1024 * 1024;
const MAX_CACHE_MIB = 65536;

export function defaultConfig(): Config {
  return {
    port: 3000,
    host: "0.0.0.0",
    dataDir: resolve("data"),
    databaseUrl: null,
    databaseTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS,
    publicUrl: null,
    stripeSecretKey: null,
    stripePublishableKey: null,
    stripeWebhookSecret: null,
    stripeApiUrl: null,
    smtpUrl: null,
    mailFrom: "dreadcast@localhost",
    enableTestCodes: false,
    trustProxy: [],
    allowPrivateOrigins: false,
    chatBatchMs: 100,
    replayCacheBytes: 128 * MIB,
    redisUrl: null,
    instanceName: `${hostname()}-${process.pid}`,
    internalUrl: null,
    metrics: false,
    metricsToken: null,
    rtmpPort: 1935,
    rtmpsPort: 1936,
    tlsCert: null,
    tlsKey: null,
    secretKey: null,
    rtmpPublicUrl: null,
    rtmpsPublicUrl: null,
    recordingsUrl: null,
    s3Endpoint: null,
    s3Region: null,
    s3AccessKeyId: null,
    s3SecretAccessKey: null,
    backupEveryMs: null,
    backupTo: null,
    backupKeep: 24,
    backupDays: 7,
    backupPassphraseFile: null,
    backupPassphrase: null,
  };
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function parseValue(name: string, spec: FlagSpec, raw: string): Config[keyof Config] {
  switch (spec.kind) {
    case "port": {
      if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(`--${name} must be a whole number from 0 to 65535, got '${raw}'`);
      return Number(raw);
    }
    case "url": {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ConfigError(`--${name} must be a URL, got '${raw}'`);
      }
      const schemes = name === "smtp-url" ? ["smtp:", "smtps:"] : name === "rtmp-public-url" ? ["rtmp:"] : name === "rtmps-public-url" ? ["rtmps:"] : ["http:", "https:"];
      if (!schemes.includes(url.protocol)) {
        throw new ConfigError(`--${name} has an unsupported scheme '${url.protocol}'`);
      }
      return name === "smtp-url" ? raw : raw.replace(/\/+$/, "");
    }
    case "boolean": {
      if (["1", "true", "yes", "on", ""].includes(raw.toLowerCase())) return true;
      if (["0", "false", "no", "off"].includes(raw.toLowerCase())) return false;
      throw new ConfigError(`--${name} must be true or false, got '${raw}'`);
    }
    case "batch-ms": {
      if (!/^\d+$/.test(raw) || Number(raw) > MAX_CHAT_BATCH_MS)
        throw new ConfigError(`--${name} must be a whole number of milliseconds from 0 to ${MAX_CHAT_BATCH_MS}, got '${raw}'`);
      return Number(raw);
    }
    case "mebibytes": {
      if (!/^\d{1,6}$/.test(raw) || Number(raw) > MAX_CACHE_MIB)
        throw new ConfigError(`--${name} must be a whole number of MiB from 0 to ${MAX_CACHE_MIB}, got '${raw.slice(0, 40)}'`);
      return Number(raw) * MIB;
    }
    case "timeout-seconds": {
      if (!/^\d+$/.test(raw) || Number(raw) > MAX_DATABASE_TIMEOUT_S)
        throw new ConfigError(`--${name} must be a whole number of seconds from 0 to ${MAX_DATABASE_TIMEOUT_S}, got '${raw.slice(0, 40)}'`);
      return Number(raw) * 1000;
    }
    case "database-url": {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ConfigError(`--${name} must be a postgres:// URL, got '${redactPassword(raw)}'`);
      }
      if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
        const hint = name === "database-url" ? " (without it the database is SQLite in --data-dir)" : "";
        throw new ConfigError(`--${name} must be a postgres:// URL${hint}, got '${url.protocol}'`);
      }
      if (!url.hostname && !url.searchParams.get("host")) throw new ConfigError(`--${name} names no host`);
      return raw;
    }
    case "redis-url": {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ConfigError(`--${name} must be a redis:// URL, got '${redactPassword(raw)}'`);
      }
      if (!["redis:", "rediss:", "valkey:", "valkeys:"].includes(url.protocol)) throw new ConfigError(`--${name} must be a redis:// or rediss:// URL, got '${url.protocol}'`);
      if (!url.hostname) throw new ConfigError(`--${name} names no host`);
      return raw;
    }
    case "name": {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(raw)) throw new ConfigError(`--${name} must be 1–63 letters, digits, dots, dashes or underscores, got '${raw.slice(0, 80)}'`);
      return raw;
    }
    case "s3-url": {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ConfigError(`--${name} must be an s3://bucket/prefix URL, got '${raw.slice(0, 80)}'`);
      }
      if (url.protocol !== "s3:" || !url.hostname) throw new ConfigError(`--${name} must be an s3://bucket/prefix URL, got '${raw.slice(0, 80)}'`);
      return raw;
    }
    case "duration": {
      const match = /^(\d{1,6})(s|m|h|d)$/.exec(raw.trim());
      const ms = match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : 0;
      if (!match || ms < 1000 || ms > 366 * DURATION_UNITS.d!) throw new ConfigError(`--${name} must be a time such as 30m, 1h or 1d (from 1s to 366d), got '${raw.slice(0, 80)}'`);
      return ms;
    }
    case "count": {
      if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1) throw new ConfigError(`--${name} must be a whole number from 1 to 99999, got '${raw.slice(0, 80)}'`);
      return Number(raw);
    }
    case "key32": {
      // An example's placeholder is named as such once every value is read.
      if (examplePlaceholder(raw)) return raw;
      if (secretKeyBytes(raw) === null) throw new ConfigError(`--${name} must be 32 bytes written as 64 hex digits or as base64 (e.g. the output of 'openssl rand -hex 32')`);
      return raw.trim();
    }
    case "token": {
      if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError(`--${name} must be at least 16 characters with no spaces`);
      return raw;
    }
    case "file": {
      if (raw.trim() === "") throw new ConfigError(`--${name} must not be empty`);
      const path = resolve(raw);
      try {
        readFileSync(path);
      } catch (error) {
        throw new ConfigError(`--${name} cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
      return path;
    }
    case "list":
      return raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    case "string": {
      if (raw.trim() === "") throw new ConfigError(`--${name} must not be empty`);
      return name === "data-dir" ? resolve(raw) : raw;
    }
  }
}

/** A `postgres://` URL given to `--name` (a subcommand's flag, say), checked as `--database-url` is. */
export function parseDatabaseUrl(name: string, raw: string): string {
  return parseValue(name, FLAGS["database-url"]!, raw) as string;
}

/** A URL as it may be shown: its password replaced. */
export function redactPassword(raw: string): string {
  return raw.replace(/(\/\/[^:/@]*:)[^@/]*@/, "$1***@");
}

/**
 * The placeholder of the shipped examples (deploy/cluster/systemd/cluster.env.example) that `raw` still holds:
 * a `CHANGE_ME` (`sk_live_CHANGE_ME`, a URL's password), or a host of the reserved example domains
 * (live.example.com, mail.example.com, tickets@example.com). Null for a real value.
 */
export function examplePlaceholder(raw: string): string | null {
  const changeMe = /[\w.-]*CHANGE_ME[\w.-]*/i.exec(raw);
  if (changeMe) return changeMe[0];
  let host = /@([^\s@<>]+)>?\s*$/.exec(raw)?.[1] ?? "";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    try {
      host = new URL(raw).hostname;
    } catch {
      return null;
    }
  }
  return /(^|\.)example(\.(com|net|org))?\.?$/i.test(host) ? host : null;
}

function envName(flag: string): string {
  return `DREADCAST_${flag.toUpperCase().replace(/-/g, "_")}`;
}

/** flag > DREADCAST_* env var > default. Throws ConfigError with a one-line message on bad input. */
export function parseServeArgs(argv: string[], env: Record<string, string | undefined>): Config {
  const config = defaultConfig() as unknown as Record<string, unknown>;
  /** Where each value in effect came from (`DREADCAST_X` or `--x`), and the value as given. */
  const given = new Map<string, { from: string; raw: string }>();
  for (const [name, spec] of Object.entries(FLAGS)) {
    const raw = env[envName(name)];
    if (raw === undefined) continue;
    config[spec.key] = parseValue(name, spec, raw);
    given.set(name, { from: envName(name), raw });
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new ConfigError(`unexpected argument '${arg}' (see --help)`);
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = FLAGS[name];
    if (!spec) throw new ConfigError(`unknown flag '--${name}' (see --help)`);
    let raw: string;
    if (eq !== -1) raw = arg.slice(eq + 1);
    else if (spec.kind === "boolean") raw = "true";
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) throw new ConfigError(`--${name} needs a value`);
      raw = next;
      i++;
    }
    config[spec.key] = parseValue(name, spec, raw);
    given.set(name, { from: `--${name}`, raw });
  }
  for (const { from, raw } of given.values()) {
    const placeholder = examplePlaceholder(raw);
    if (placeholder) throw new ConfigError(`${from} is still the example's placeholder '${placeholder}': put in the real value`);
  }
  const result = config as unknown as Config;
  if (result.stripeSecretKey && !result.stripePublishableKey) {
    throw new ConfigError("--stripe-secret-key needs --stripe-publishable-key too");
  }
  if (result.stripePublishableKey && !result.stripeSecretKey) {
    throw new ConfigError("--stripe-publishable-key needs --stripe-secret-key too");
  }
  if (result.stripeSecretKey && !result.publicUrl) {
    // Buyers' e-mails link to the site, and a link never comes from a request's Host header.
    throw new ConfigError("live payments (--stripe-secret-key) need --public-url, the site's address that buyers' e-mails link to");
  }
  if (result.redisUrl && !result.databaseUrl) {
    throw new ConfigError("--redis-url needs --database-url: the instances of a cluster share the event's PostgreSQL database");
  }
  if (result.redisUrl && !result.secretKey) {
    throw new ConfigError(
      "--redis-url needs --secret-key: every instance must open the secrets the others sealed (two-factor secrets, the stream key); make one with 'openssl rand -hex 32' and give all instances the same",
    );
  }
  checkRtmp(result);
  checkBackups(result, env);
  return result;
}

/** Scheduled backups need somewhere to go and a passphrase, read here once. */
function checkBackups(config: Config, env: Record<string, string | undefined>): void {
  if (config.backupEveryMs === null) {
    if (config.backupTo) throw new ConfigError("--backup-to needs --backup-every, how often to take a backup");
    return;
  }
  if (!config.backupTo) throw new ConfigError("--backup-every needs --backup-to, a folder or s3://bucket/prefix to keep the backups in");
  if (config.backupTo.startsWith("s3:")) parseValue("backup-to", { key: "backupTo", kind: "s3-url", help: "" }, config.backupTo);
  else config.backupTo = resolve(config.backupTo);
  const passphrase = config.backupPassphraseFile ? readFileSync(config.backupPassphraseFile, "utf8").split(/\r?\n/)[0] : env.DREADCAST_BACKUP_PASSPHRASE;
  if (!passphrase) {
    throw new ConfigError(
      "--backup-every needs a passphrase to encrypt the backups (they hold the key that opens the two factors and the stream key): --backup-passphrase-file FILE or DREADCAST_BACKUP_PASSPHRASE",
    );
  }
  config.backupPassphrase = passphrase;
}

/** RTMPS needs both PEM files, and they must make a certificate TLS accepts; the ports must not collide. */
function checkRtmp(config: Config): void {
  if (Boolean(config.tlsCert) !== Boolean(config.tlsKey)) throw new ConfigError(config.tlsCert ? "--tls-cert needs --tls-key too" : "--tls-key needs --tls-cert too");
  if (config.tlsCert && config.tlsKey) {
    try {
      createSecureContext({ cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey) });
    } catch (error) {
      throw new ConfigError(`--tls-cert and --tls-key do not make a usable certificate: ${(error as Error).message.split("\n")[0]}`);
    }
    if (config.rtmpsPort !== 0 && config.rtmpsPort === config.rtmpPort)
      throw new ConfigError(`--rtmps-port and --rtmp-port are both ${config.rtmpPort}: give them different ports`);
  }
  if (config.rtmpPort !== 0 && config.rtmpPort === config.port) throw new ConfigError(`--rtmp-port and --port are both ${config.port}: give them different ports`);
  if (config.tlsCert && config.rtmpsPort !== 0 && config.rtmpsPort === config.port)
    throw new ConfigError(`--rtmps-port and --port are both ${config.port}: give them different ports`);
}

export function paymentMode(config: Config): "demo" | "stripe" {
  return config.stripeSecretKey ? "stripe" : "demo";
}

/** SCP- test codes exist only in demo mode or when explicitly enabled. */
export function testCodesEnabled(config: Config): boolean {
  return config.enableTestCodes || paymentMode(config) === "demo";
}

export function serveHelp(): string {
  const lines = Object.entries(FLAGS).map(([name, spec]) => {
    const left = `  --${name}${spec.value ? ` ${spec.value}` : ""}`;
    return `${left.padEnd(34)}${spec.help}\n${" ".repeat(34)}[env ${envName(name)}]`;
  });
  return [
    "dreadcast — a paid, horror-themed live event in one executable",
    "",
    "Usage:",
    "  dreadcast [flags]                                   serve the site",
    "  dreadcast admin create --username U --email E --password P [--role R]",
    "                                                      R: owner (default), operator, support or moderator",
    "  dreadcast admin reset-password --username U --password P",
    "  dreadcast admin disable-2fa --username U             turn off a member's two factors (a lost phone)",
    "  dreadcast backup FILE [--data-dir DIR] [--passphrase-file P] [--without-key] [--recordings-url s3://…]",
    "                                                      one encrypted archive of the event: the database (a",
    "                                                      consistent snapshot; on PostgreSQL, pg_dump's part), the key,",
    "                                                      uploads and recordings [passphrase: env DREADCAST_BACKUP_PASSPHRASE]",
    "  dreadcast restore ARCHIVE --data-dir DIR [--passphrase-file P]",
    "                                                      check a backup whole and put it in place of DIR's",
    "  dreadcast migrate-data --to postgres://… [--data-dir DIR]",
    "                                                      copy the SQLite event into an empty PostgreSQL database",
    "",
    "Flags:",
    ...lines,
    "  --help                            show this help",
    "  --version                         print the version",
    "",
  ].join("\n");
}
