/** Starts the real compiled executable on a free port with a fresh data dir, and stops it. */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startExecutable } from "../../support/executable.mjs";
import { freePort } from "../../support/free-port.mjs";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The executable under test: dist/dreadcast unless DREADCAST_E2E_BIN names another build. */
export function executablePath() {
  return process.env.DREADCAST_E2E_BIN ?? join(repoRoot, "dist/dreadcast");
}

/**
 * @param {{ args?: string[], startTimeoutMs?: number }} [options] extra serve flags, e.g. ["--enable-test-codes"]
 * @returns {Promise<{ url: string, dataDir: string, output: () => string, stop: () => Promise<void> }>}
 */
export async function startServer({ args = [], startTimeoutMs = 20_000 } = {}) {
  const bin = executablePath();
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build it first with \`node_modules/.bin/bun scripts/build.ts\``);
  const dataDir = mkdtempSync(join(tmpdir(), "dreadcast-e2e-"));
  // The server reads DREADCAST_* variables as flags: keep the developer's own out of the test run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("DREADCAST_")));
  const server = await startExecutable(bin, ["--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir, ...args], { env, timeoutMs: startTimeoutMs }).catch((error) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: server.url,
    dataDir,
    output: server.output,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A server that can be stopped and started again on the same address and data directory: a restart,
 * or an upgrade.
 */
export async function restartableServer() {
  const dataDir = mkdtempSync(join(tmpdir(), "dreadcast-e2e-restart-"));
  const args = ["--port", String(await freePort()), "--data-dir", dataDir];
  let current = await startServer({ args });
  return {
    get url() {
      return current.url;
    },
    stop: () => current.stop(),
    async start() {
      current = await startServer({ args });
    },
    async close() {
      await current.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
