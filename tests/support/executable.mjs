/**
 * A server in a process of its own — `bun src/main.ts` or the compiled executable — started and waited
 * for until it says where it listens. Plain JavaScript on node:child_process, so that both the Bun suites
 * and the browser tests (run by Node) start it the same way.
 */
import { spawn } from "node:child_process";

const LISTENING = /listening on (http:\/\/\S+)/;

/**
 * Runs `command` with `args` and waits until it prints `listening on <url>` and, given `until`, until its
 * output (stdout and stderr together) matches that as well. Fails with everything it printed when it exits
 * first or does not get there within `timeoutMs`, and then kills it.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string | undefined>, until?: string | RegExp, timeoutMs?: number }} [options]
 */
export async function startExecutable(command, args, { cwd, env, until, timeoutMs = 20_000 } = {}) {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const kill = async (signal = "SIGKILL") => {
    if (!gone()) child.kill(signal);
    await exited;
  };
  const reached = () => {
    const listening = LISTENING.exec(output);
    if (!listening) return null;
    if (until !== undefined && !(typeof until === "string" ? output.includes(until) : until.test(output))) return null;
    return listening[1];
  };

  const url = await new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${why}:\n${output}`));
    };
    const timer = setTimeout(() => {
      fail(`did not start within ${timeoutMs} ms`);
      void kill();
    }, timeoutMs);
    const read = (chunk) => {
      output += chunk;
      const found = reached();
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.setEncoding("utf8").on("data", read);
    child.stderr.setEncoding("utf8").on("data", read);
    child.once("error", (error) => fail(`could not be started (${error.message})`));
    // "close", not "exit": by then all it printed has been read, for the message.
    child.once("close", (code, signal) => fail(`exited (code ${code}, signal ${signal}) before it was listening`));
  });

  return {
    url,
    child,
    pid: /** @type {number} */ (child.pid),
    output: () => output,
    exited,
    kill,
    /** SIGTERM, then SIGKILL if it has not stopped after `graceMs`. */
    async stop(graceMs = 5_000) {
      if (gone()) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(killer);
    },
  };
}
