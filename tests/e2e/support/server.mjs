/** Starts the real compiled executable on a free port with a fresh data dir, and stops it. */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The executable under test: dist/dreadcast unless DREADCAST_E2E_BIN names another build. */
export function executablePath() {
  return process.env.DREADCAST_E2E_BIN ?? join(repoRoot, "dist/dreadcast");
}

/** A port that was free a moment ago, so a server can come back on the same address. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

const LISTENING = /dreadcast \S+ listening on (http:\/\/\S+)/;

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
  const child = spawn(bin, ["--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise((resolveExit) => child.once("exit", (code, signal) => resolveExit({ code, signal })));

  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk) => (output += chunk.toString()));
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (code ${code}, signal ${signal}) before listening:\n${output}`));
    });
  });

  return {
    url,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(killer);
      }
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
