import { existsSync, statSync } from "node:fs";
import { z } from "zod";
import { createFirstAdminBody } from "../contracts/admin.ts";
import { ConfigError, parseDatabaseUrl, parseServeArgs } from "../config.ts";
import { closeStore, DATABASE_FILE, databasePath, describePostgres, openStore } from "../db/database.ts";
import { HttpError } from "../lib/errors.ts";
import { roleSchema } from "../contracts/team.ts";
import type { Store } from "../db/store.ts";
import { silentLogger } from "../lib/logger.ts";
import { AuditLog } from "../modules/admin/audit.ts";
import { AdminService } from "../modules/admin/service.ts";
import { TwoFactorService } from "../modules/admin/two-factor.ts";
import { SecretBox } from "../lib/secret-box.ts";

/** A failure the operator caused; printed as one line, exit code 1. */
export class CommandError extends Error {}

/** Parses `--name value` pairs, allowing only `allowed` (plus --data-dir, which every command takes). */
export function parseCommandFlags(argv: string[], allowed: string[]): { flags: Record<string, string>; rest: string[] } {
  const flags: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) {
      rest.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (![...allowed, "data-dir"].includes(name)) throw new ConfigError(`unknown flag '--${name}' (see --help)`);
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new ConfigError(`--${name} needs a value`);
    flags[name] = value;
  }
  return { flags, rest };
}

export function dataDirOf(flags: Record<string, string>, env: Record<string, string | undefined>): string {
  const fromFlags = flags["data-dir"] !== undefined ? ["--data-dir", flags["data-dir"]] : [];
  return parseServeArgs(fromFlags, { DREADCAST_DATA_DIR: env.DREADCAST_DATA_DIR }).dataDir;
}

export function requireFlags(flags: Record<string, string>, names: string[], usage: string): void {
  const missing = names.filter((n) => flags[n] === undefined);
  if (missing.length) throw new ConfigError(`missing --${missing.join(", --")}; usage: ${usage}`);
}

function validate<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ConfigError(parsed.error.issues[0]?.message ?? "invalid value");
  return parsed.data;
}

/** The two-factor records of the event's database (no relying party: the command line verifies nothing). */
function twoFactorOf(store: Store, flags: Record<string, string>, env: Record<string, string | undefined>): TwoFactorService {
  return new TwoFactorService(store, new SecretBox(dataDirOf(flags, env)), () => {
    throw new Error("no WebAuthn on the command line");
  });
}

/** Who the audit log names for what is done on the server's command line. */
const COMMAND_LINE = { id: null, username: "(command line)" } as const;

/** The admins of the event's database: PostgreSQL given --database-url (or DREADCAST_DATABASE_URL), else the SQLite file. */
async function withAdmins<T>(flags: Record<string, string>, env: Record<string, string | undefined>, fn: (admins: AdminService, store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: dataDirOf(flags, env), databaseUrl: databaseUrlOf(flags, env) });
  try {
    return await fn(new AdminService(store), store);
  } catch (error) {
    if (error instanceof HttpError) throw new CommandError(error.message);
    throw error;
  } finally {
    await closeStore(store);
  }
}

export async function adminCommand(argv: string[], env: Record<string, string | undefined>): Promise<string> {
  const [action, ...args] = argv;
  if (action === "create") {
    const usage = "dreadcast admin create --username U --email E --password P [--role owner|operator|support|moderator]";
    const { flags, rest } = parseCommandFlags(args, ["username", "email", "password", "role", "database-url"]);
    if (rest.length) throw new ConfigError(`unexpected argument '${rest[0]}'; usage: ${usage}`);
    requireFlags(flags, ["username", "email", "password"], usage);
    const body = validate(createFirstAdminBody, { username: flags.username, email: flags.email, password: flags.password });
    const role = validate(roleSchema, flags.role ?? "owner");
    const admin = await withAdmins(flags, env, async (admins, store) => {
      const made = await admins.create(body.username, body.email, body.password, role);
      await new AuditLog(store, silentLogger).record(COMMAND_LINE, "team.create", made.username, null, { role, email: made.email }, null);
      return made;
    });
    return `admin '${admin.username}' created (${role})`;
  }
  if (action === "disable-2fa") {
    const usage = "dreadcast admin disable-2fa --username U";
    const { flags, rest } = parseCommandFlags(args, ["username", "database-url"]);
    if (rest.length) throw new ConfigError(`unexpected argument '${rest[0]}'; usage: ${usage}`);
    requireFlags(flags, ["username"], usage);
    const admin = await withAdmins(flags, env, async (admins, store) => {
      const found = await admins.findByUsername(flags.username!);
      if (!found) return null;
      // For a lost phone: every second factor goes (app, keys, recovery codes); the password stays.
      await twoFactorOf(store, flags, env).disableAll(found.id);
      await new AuditLog(store, silentLogger).record(COMMAND_LINE, "2fa.disable", found.username, { twoFactor: true }, { twoFactor: false }, null);
      return found;
    });
    if (!admin) throw new CommandError(`no admin named '${flags.username}'`);
    return `two-factor sign-in of admin '${admin.username}' turned off; they sign in with their password and can set it up again`;
  }
  if (action === "reset-password") {
    const usage = "dreadcast admin reset-password --username U --password P";
    const { flags, rest } = parseCommandFlags(args, ["username", "password", "database-url"]);
    if (rest.length) throw new ConfigError(`unexpected argument '${rest[0]}'; usage: ${usage}`);
    requireFlags(flags, ["username", "password"], usage);
    const password = validate(createFirstAdminBody.shape.password, flags.password);
    const admin = await withAdmins(flags, env, (admins) => admins.resetPassword(flags.username!, password));
    if (!admin) throw new CommandError(`no admin named '${flags.username}'`);
    return `password of admin '${admin.username}' reset; their sessions were ended`;
  }
  throw new ConfigError(`unknown admin action '${action ?? ""}'; use 'admin create', 'admin reset-password' or 'admin disable-2fa'`);
}

/**
 * A command that reads the event refuses a data directory without its database rather than make an empty
 * one (a typo in --data-dir, or cron started elsewhere, must not pass for a backup).
 */
export function requireEventDatabase(dataDir: string): void {
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) throw new CommandError(`no data directory at ${dataDir}; point --data-dir at the event's`);
  if (!existsSync(databasePath(dataDir))) throw new CommandError(`no event database in ${dataDir} (${DATABASE_FILE} is missing); point --data-dir at the event's data directory`);
}

/** A size for people: 1.2 MiB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** --database-url, else DREADCAST_DATABASE_URL, checked as the server checks it; null for SQLite. */
export function databaseUrlOf(flags: Record<string, string>, env: Record<string, string | undefined>): string | null {
  if (flags["database-url"] !== undefined) return parseDatabaseUrl("database-url", flags["database-url"]);
  if (env.DREADCAST_DATABASE_URL !== undefined) return parseDatabaseUrl("database-url", env.DREADCAST_DATABASE_URL);
  return null;
}

/** `backup` copies the SQLite file; an event on PostgreSQL is backed up with PostgreSQL's own tool. */
export function pgDumpAdvice(databaseUrl: string, file: string): string {
  const url = new URL(databaseUrl);
  const host = url.hostname || url.searchParams.get("host") || "localhost";
  const user = url.username ? ` -U ${decodeURIComponent(url.username)}` : "";
  const db = decodeURIComponent(url.pathname.slice(1)) || "postgres";
  return (
    `the event's data is in PostgreSQL at ${describePostgres(databaseUrl)}; back it up with pg_dump instead ` +
    `(e.g. pg_dump -Fc -h ${host} -p ${url.port || 5432}${user} -f ${file} ${db}); uploaded images are in it too`
  );
}
