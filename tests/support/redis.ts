import { RedisClient, type Subprocess } from "bun";
import { freePort } from "./free-port.mjs";

/** The --secret-key every instance of a test cluster shares (a cluster needs one key to open each other's sealed secrets). */
export const CLUSTER_SECRET_KEY = "6d1f0c5e9b2a47d3a8e4f1b7c2d9e0a35b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e";

/**
 * A Redis server of the test's own (Debian's `redis-server`, nothing kept on disk) on a free port, so that a
 * test may stop and restart it without touching anyone else's. Null where the binary is missing.
 */
export interface TestRedis {
  url: string;
  port: number;
  /** The server's process id while it runs (0 when it does not). */
  readonly pid: number;
  /** Kills it (SIGKILL: what a crash looks like to the instances) and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const REDIS_SERVER = Bun.which("redis-server");

async function answers(url: string): Promise<boolean> {
  const client = new RedisClient(url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 500 });
  try {
    await client.connect();
    return (await client.send("PING", [])) === "PONG";
  } catch {
    return false;
  } finally {
    client.close();
  }
}

export async function startTestRedis(): Promise<TestRedis | null> {
  if (!REDIS_SERVER) return null;
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: Subprocess | null = null;
  const start = async () => {
    child = Bun.spawn([REDIS_SERVER, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"], {
      stdout: "ignore",
      stderr: "ignore",
    });
    const deadline = Date.now() + 5000;
    while (!(await answers(url))) {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
      await Bun.sleep(50);
    }
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running) return;
    running.kill(9);
    await running.exited;
  };
  await start();
  process.once("exit", () => child?.kill(9));
  return {
    url,
    port,
    get pid() {
      return (child as Subprocess | null)?.pid ?? 0;
    },
    kill,
    start,
    stop: kill,
  };
}
