/**
 * The ingest benchmark's LL-HLS viewers, in one process: each holds a blocking playlist reload for the part
 * its preload hint names (_HLS_msn/_HLS_part), as hls.js in low-latency mode does, then downloads that part,
 * reading the whole body. Job (a JSON file, argv[2]): { playlistUrl, cookies: string[] (one per viewer; ""
 * for none), viewers, seconds, serverPid }. Prints one JSON line: bytes served (playlists and parts), parts
 * received, failures, time to first byte of a part (p50/p99), the server's CPU seconds over the run.
 */
import { readFileSync } from "node:fs";
import { cpuTimes } from "./lib/proc.ts";
import { blockingUrl, preloadHint } from "./lib/llhls.ts";
import { LatencyHistogram } from "./lib/stats.ts";

interface Job {
  playlistUrl: string;
  cookies: string[];
  viewers: number;
  seconds: number;
  serverPid: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Job;
let bytes = 0;
let parts = 0;
let failures = 0;
const failureStatuses: Record<string, number> = {};
const ttfb = new LatencyHistogram();
const fail = (what: string) => {
  failures++;
  failureStatuses[what] = (failureStatuses[what] ?? 0) + 1;
};

async function viewer(index: number, until: number) {
  const headers: Record<string, string> = job.cookies[index] ? { cookie: job.cookies[index]! } : {};
  // Joins spread over the first second, as a crowd would.
  await Bun.sleep(Math.random() * 1000);
  let hint = null as ReturnType<typeof preloadHint>;
  while (Date.now() < until) {
    try {
      const response = await fetch(hint ? blockingUrl(job.playlistUrl, hint) : job.playlistUrl, { headers });
      const text = await response.text();
      bytes += text.length;
      if (!response.ok) {
        fail(`playlist ${response.status}`);
        hint = null;
        await Bun.sleep(200);
        continue;
      }
      const next = preloadHint(text);
      // The part just listed is the one the previous hint named: fetch it now that it is complete.
      if (hint) {
        const t0 = performance.now();
        const part = await fetch(new URL(hint.uri, job.playlistUrl), { headers });
        ttfb.record(performance.now() - t0);
        if (!part.ok) {
          fail(`part ${part.status}`);
          await part.body?.cancel();
        } else {
          const received = (await part.arrayBuffer()).byteLength;
          bytes += received;
          parts++;
        }
      }
      hint = next;
      if (!next) await Bun.sleep(200);
    } catch (error) {
      fail((error as Error).name);
      hint = null;
      await Bun.sleep(200);
    }
  }
}

const cpu0 = cpuTimes(job.serverPid);
const t0 = performance.now();
const until = Date.now() + job.seconds * 1000;
await Promise.all(Array.from({ length: job.viewers }, (_, i) => viewer(i, until)));
const elapsed = (performance.now() - t0) / 1000;
const cpu1 = cpuTimes(job.serverPid);
const serverCpu = cpu1.user - cpu0.user + cpu1.system - cpu0.system;
console.log(
  JSON.stringify({ bytes, parts, failures, failureStatuses, elapsed, serverCpuSeconds: serverCpu, cpuSecondsPerGB: serverCpu / (bytes / 1e9), partTtfbMs: ttfb.summary() }),
);
