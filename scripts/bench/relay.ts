/**
 * The HLS relay benchmark: N viewers pull a live 3 Mbit/s stream's playlist and segments through
 * dreadcast's session-gated relay, then straight from the origin, which serves them from memory with
 * Bun.serve and nothing else (the floor). Figures: server CPU per GB served, each against the floor, and
 * how many times the origin was asked for each segment while dreadcast relayed it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Report } from "./lib/context.ts";
import { runToEnd, startServer, type Server } from "./lib/proc.ts";
import { fmt } from "./lib/stats.ts";
import { createViewers } from "./lib/viewers.ts";

export interface RelayBenchContext extends Report {
  bun: string;
  work: string;
  viewers: number;
  seconds: number;
  startDreadcast: (extraArgs?: string[]) => Promise<Server>;
}

interface LoadResult {
  bytes: number;
  segmentsReceived: number;
  failures: number;
  failureStatuses: Record<string, number>;
  elapsed: number;
  serverCpuSeconds: number;
  serverSystemShare: number;
  cpuSecondsPerGB: number;
}

async function load(c: RelayBenchContext, playlistUrl: string, cookies: string[], serverPid: number): Promise<LoadResult> {
  const file = join(c.work, `relay-job-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify({ playlistUrl, cookies, viewers: c.viewers, seconds: c.seconds, serverPid }));
  const out = await runToEnd([c.bun, join(import.meta.dir, "relay-load.ts"), file], { timeoutMs: (c.seconds + 120) * 1000 });
  return JSON.parse(out.trim().split("\n").at(-1)!) as LoadResult;
}

/** An admin made through the API, whose session chooses the relay as the stream source. */
async function relayThrough(server: Server, originUrl: string): Promise<void> {
  const headers = { "content-type": "application/json", origin: server.url };
  const admin = { username: "benchkeeper", email: "bench@example.com", password: "bench-pass-13" };
  await fetch(`${server.url}/api/admin/create-first`, { method: "POST", headers, body: JSON.stringify(admin) });
  const login = await fetch(`${server.url}/api/admin/login`, { method: "POST", headers, body: JSON.stringify({ username: admin.username, password: admin.password }) });
  const cookie = login.headers
    .getSetCookie()
    .map((v) => v.split(";")[0])
    .join("; ");
  const saved = await fetch(`${server.url}/api/admin/stream-source`, { method: "PUT", headers: { ...headers, cookie }, body: JSON.stringify({ kind: "hls", originUrl }) });
  if (!saved.ok) throw new Error(`stream-source: ${saved.status} ${await saved.text()}`);
}

export async function relayBench(c: RelayBenchContext): Promise<Record<string, unknown>> {
  const origin = await startServer("hls-live", [c.bun, join(import.meta.dir, "servers/hls-live.ts")], /hls-live listening on (http:\/\/\S+)/);
  // The origin runs on this machine, beside the server.
  const server = await c.startDreadcast(["--allow-private-origins"]);
  try {
    await relayThrough(server, `${origin.url}/live/stream.m3u8`);
    const viewers = await createViewers(server.url, c.viewers, { prefix: "relay" });
    const before = (await (await fetch(`${origin.url}/stats`)).json()) as { segmentBytes: number; requests: Record<string, number> };
    const relay = await load(
      c,
      `${server.url}/api/stream/hls/stream.m3u8`,
      viewers.map((v) => v.cookie),
      server.pid,
    );
    const after = (await (await fetch(`${origin.url}/stats`)).json()) as { requests: Record<string, number> };
    const perSegment = Object.entries(after.requests)
      .map(([n, count]) => count - (before.requests[n] ?? 0))
      .filter((count) => count > 0);
    const floor = await load(c, `${origin.url}/live/stream.m3u8`, [], origin.pid);
    const ratio = relay.cpuSecondsPerGB / floor.cpuSecondsPerGB;
    const maxPerSegment = Math.max(...perSegment);
    const meanPerSegment = perSegment.reduce((a, b) => a + b, 0) / perSegment.length;
    const describe = (name: string, r: LoadResult) =>
      `${name.padEnd(9)} ${fmt(r.bytes / 1e9, 2)} GB in ${r.segmentsReceived} segments over ${fmt(r.elapsed, 1)} s, server CPU ${fmt(r.serverCpuSeconds, 2)} s (${fmt(100 * r.serverSystemShare, 0)}% in the kernel) → ${fmt(r.cpuSecondsPerGB, 2)} s/GB` +
      (r.failures ? `, ${r.failures} failed (${JSON.stringify(r.failureStatuses)})` : "");
    c.line(
      "hls relay",
      `${c.viewers} viewers × ${fmt((before.segmentBytes * 8) / 2 / 1e6, 1)} Mbit/s live stream (${fmt(before.segmentBytes / 1e3, 0)} KB segments every 2 s) for ${c.seconds} s`,
    );
    c.line("hls relay", describe("relay", relay));
    c.line("hls relay", describe("floor", floor));
    c.line(
      "hls relay",
      `ratios: CPU per GB ${fmt(ratio, 2)}× the floor's (≤ 1.5×: ${c.verdict(ratio <= 1.5)}); origin requests per segment ${fmt(meanPerSegment, 2)} (max ${maxPerSegment} over ${perSegment.length} segments; = 1: ${c.verdict(maxPerSegment === 1)})`,
    );
    c.summary.push(
      {
        benchmark: `HLS relay: server CPU per GB (${c.viewers} viewers, 3 Mbit/s)`,
        figure: `${fmt(relay.cpuSecondsPerGB, 2)} s vs floor ${fmt(floor.cpuSecondsPerGB, 2)} s → ${fmt(ratio, 2)}×`,
        target: "≤ 1.5× floor",
        ok: ratio <= 1.5,
      },
      {
        benchmark: "HLS relay: origin requests per segment",
        figure: `${fmt(meanPerSegment, 2)} (max ${maxPerSegment}, ${perSegment.length} segments)`,
        target: "= 1",
        ok: maxPerSegment === 1,
      },
    );
    return { viewers: c.viewers, seconds: c.seconds, relay, floor, ratio, originRequestsPerSegment: perSegment };
  } finally {
    await server.stop();
    await origin.stop();
  }
}
