import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startExecutable, type Executable } from "./executable.mjs";
import { TEST_ENGINE, databaseForDataDir } from "./postgres.ts";

const ROOT = resolve(import.meta.dir, "../..");

/** The real server as a child process (`bun src/main.ts`), as an operator runs it. */
export interface ServerProcess extends Executable {
  /** Resident memory of the server process in KiB (from /proc). */
  rssKiB(): number;
}

/**
 * Starts `bun src/main.ts` on a free port of 127.0.0.1 over `dataDir` and waits until it listens (and,
 * given `until`, until it has printed that too). On the PostgreSQL test run, and unless the flags name a
 * database, it runs on the data directory's own database (the one a test's setup wrote to); a test that
 * picks its engine itself says so with `databaseUrl` (a URL, or null for SQLite). `env` is its whole
 * environment: by default this process's, with NODE_ENV=production.
 */
export async function startServer(
  dataDir: string,
  flags: string[] = [],
  options: { env?: Record<string, string | undefined>; until?: string | RegExp; timeoutMs?: number; databaseUrl?: string | null } = {},
): Promise<ServerProcess> {
  const databaseUrl =
    options.databaseUrl !== undefined ? options.databaseUrl : TEST_ENGINE === "postgres" && !flags.includes("--database-url") ? await databaseForDataDir(dataDir) : null;
  const database = databaseUrl ? ["--database-url", databaseUrl] : [];
  const server = await startExecutable(process.execPath, ["src/main.ts", "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, ...database, ...flags], {
    cwd: ROOT,
    env: options.env ?? { ...process.env, NODE_ENV: "production" },
    until: options.until,
    timeoutMs: options.timeoutMs,
  });
  return Object.assign(server, {
    rssKiB() {
      const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    },
  });
}

/** A dreadcast instance of a cluster in a process of its own (one that a test can SIGKILL), on a fresh data directory. */
export interface InstanceProcess extends ServerProcess {
  port: number;
  name: string;
}

/**
 * Starts an instance named `name` with only PATH and HOME in its environment; `flags` name its database
 * and Redis. Killing it removes its data directory.
 */
export async function startInstance(name: string, flags: string[]): Promise<InstanceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), `dreadcast-${name}-`));
  const server = await startServer(dataDir, ["--instance-name", name, ...flags], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
    timeoutMs: 15_000,
  }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const kill = server.kill;
  return Object.assign(server, {
    port: Number(new URL(server.url).port),
    name,
    async kill(signal: NodeJS.Signals | number = "SIGKILL") {
      await kill(signal);
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
