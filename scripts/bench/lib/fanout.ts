/** One chat fan-out run (the load generator's `fanout` mode) on a fresh server: dreadcast or the floor. Used by the quiet and the busy chat. */
import { join } from "node:path";
import type { BenchContext } from "./context.ts";
import { startServer, wsUrl } from "./proc.ts";
import { createViewers } from "./viewers.ts";

/** One fan-out run against a fresh dreadcast (its own viewers) started with `args`. */
export async function dreadcastFanout(c: BenchContext, viewers: number, senders: number, args: string[] = []): Promise<Record<string, any>> {
  const server = await c.startDreadcast(args);
  try {
    const sessions = await createViewers(server.url, viewers);
    return await c.loadgen({
      mode: "fanout",
      protocol: "dreadcast",
      url: wsUrl(server, "/ws"),
      origin: server.url,
      serverPid: server.pid,
      viewers: sessions,
      sockets: viewers,
      senders,
      rate: c.opts.rate,
      seconds: c.opts.seconds,
      warmup: c.opts.warmup,
    });
  } finally {
    await server.stop();
  }
}

/** The same fan-out run against a fresh floor (`servers/floor.ts`) started with `args`. */
export async function floorFanout(c: BenchContext, sockets: number, senders: number, args: string[] = []): Promise<Record<string, any>> {
  const server = await startServer("floor", [c.bun, join(import.meta.dir, "../servers/floor.ts"), ...args], /floor listening on (http:\/\/\S+)/);
  try {
    return await c.loadgen({
      mode: "fanout",
      protocol: "floor",
      url: wsUrl(server, "/"),
      origin: server.url,
      serverPid: server.pid,
      sockets,
      senders,
      rate: c.opts.rate,
      seconds: c.opts.seconds,
      warmup: c.opts.warmup,
    });
  } finally {
    await server.stop();
  }
}
