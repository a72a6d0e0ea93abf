import type { ChildProcess } from "node:child_process";

export interface Executable {
  /** Where it listens, from its `listening on <url>` line. */
  url: string;
  child: ChildProcess;
  pid: number;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Its exit code (null when a signal ended it) and the signal, once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGKILL by default) unless it has exited, and waits for the exit. */
  kill(signal?: NodeJS.Signals | number): Promise<void>;
  /** SIGTERM, then SIGKILL if it has not stopped after `graceMs` (5 s by default). */
  stop(graceMs?: number): Promise<void>;
}

export declare function startExecutable(
  command: string,
  args: string[],
  options?: { cwd?: string; env?: Record<string, string | undefined>; until?: string | RegExp; timeoutMs?: number },
): Promise<Executable>;
