import type { Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");

/** A dreadcast server in a process of its own (one that a test can SIGKILL), on a free port. */
export interface InstanceProcess {
  url: string;
  port: number;
  name: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything it printed so far. */
  output(): string;
  kill(signal?: number): Promise<void>;
}

export async function startInstance(name: string, flags: string[]): Promise<InstanceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), `dreadcast-${name}-`));
  const proc = Bun.spawn([process.execPath, MAIN, "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir, "--instance-name", name, ...flags], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  };
  void read(proc.stdout);
  void read(proc.stderr);
  const deadline = Date.now() + 15_000;
  let port = 0;
  while (!port) {
    const match = /listening on http:\/\/[^:]+:(\d+)/.exec(text);
    if (match) port = Number(match[1]);
    else if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`instance ${name} did not start:\n${text}`);
    else await Bun.sleep(25);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    name,
    proc,
    output: () => text,
    async kill(signal = 9) {
      if (proc.exitCode === null) proc.kill(signal);
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
