/** Child processes for the benchmarks: servers started and stopped, their CPU time and memory read from /proc. */
import { readFileSync } from "node:fs";
import type { Subprocess } from "bun";

/** Kernel clock ticks per second (utime/stime in /proc/<pid>/stat are in these); 100 on Linux. */
const CLOCK_TICKS = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/** User and system (kernel) CPU seconds the process has used so far. */
export function cpuTimes(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS };
}

/** User + system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** Resident memory of the process in KiB. */
export function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

export interface Machine {
  cores: number;
  memGiB: number;
  cpu: string;
  bun: string;
  node: string;
}

export function machine(): Machine {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const meminfo = readFileSync("/proc/meminfo", "utf8");
  const node = Bun.spawnSync(["node", "--version"]).stdout.toString().trim();
  return {
    cores: navigator.hardwareConcurrency,
    memGiB: Math.round(Number(/MemTotal:\s+(\d+)/.exec(meminfo)?.[1] ?? 0) / 1024 / 1024),
    cpu: /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? "unknown",
    bun: Bun.version,
    node,
  };
}

export function loadAverage(): number {
  return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
}

export interface Server {
  name: string;
  pid: number;
  url: string;
  /** Everything the server printed, for errors. */
  output(): string;
  stop(): Promise<void>;
}

/** The server's WebSocket URL for `path`. */
export const wsUrl = (server: Server, path: string) => server.url.replace(/^http/, "ws") + path;

/**
 * Starts a server process and waits for the line `ready` matches; its first group is the base URL.
 * The process is killed when the benchmark exits, even on a crash.
 */
export async function startServer(name: string, cmd: string[], ready: RegExp, env: Record<string, string> = {}, timeoutMs = 20_000): Promise<Server> {
  const child: Subprocess<"ignore", "pipe", "pipe"> = Bun.spawn(cmd, {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...cleanEnv(), ...env },
  });
  live.add(child);
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder();
      const reader = stream.getReader();
      for (;;) {
        const { value: chunk, done } = await reader.read();
        if (done) break;
        output += decoder.decode(chunk, { stream: true });
        if (output.length > 200_000) output = output.slice(-100_000);
        const match = ready.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      }
    };
    void pump(child.stdout);
    void pump(child.stderr);
    void child.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready:\n${output}`));
    });
  });
  return {
    name,
    pid: child.pid,
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await child.exited;
      clearTimeout(killer);
      live.delete(child);
    },
  };
}

const live = new Set<Subprocess>();
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/** The environment without DREADCAST_* variables, which the server would read as flags. */
export function cleanEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => !e[0].startsWith("DREADCAST_") && e[1] !== undefined));
}

/** Runs a child to completion and returns its stdout; throws when it fails. */
export async function runToEnd(cmd: string[], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<string> {
  // stderr goes straight to ours: children report progress there.
  const child = Bun.spawn(cmd, { stdin: "ignore", stdout: "pipe", stderr: "inherit", env: { ...cleanEnv(), ...options.env } });
  live.add(child);
  const timer = options.timeoutMs ? setTimeout(() => child.kill("SIGKILL"), options.timeoutMs) : null;
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  if (timer) clearTimeout(timer);
  live.delete(child);
  if (code !== 0) throw new Error(`${cmd.slice(0, 3).join(" ")} failed (exit ${code}):\n${out.slice(-2000)}`);
  return out;
}
