/**
 * The ingest benchmark's LL-HLS viewers, in one process: each, on a keep-alive connection of its own
 * (lib/http1.ts), holds a blocking playlist reload for the part its preload hint names
 * (_HLS_msn/_HLS_part), as hls.js in low-latency mode does, then downloads that part, reading the whole
 * body. The time to first byte of a part is from its request written to the answer's first byte. Job (a JSON file, argv[2]): { playlistUrl, cookies: string[] (one per viewer; ""
 * for none), viewers, seconds, serverPid }. Prints one JSON line: bytes served (playlists and parts), parts
 * received, failures, time to first byte of a part (p50/p99), the server's CPU seconds over the run.
 */
import { readFileSync } from "node:fs";
import { cpuTimes } from "./lib/proc.ts";
import { blockingUrl, preloadHint } from "./lib/llhls.ts";
import { Http1Connection } from "./lib/http1.ts";
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

/** The path and query of a URL on the playlist's server. */
const pathOf = (url: string) => {
  const u = new URL(url, job.playlistUrl);
  return u.pathname + u.search;
};

async function viewer(index: number, until: number) {
  // Each viewer on a keep-alive connection of its own, as each phone would be.
  const connection = Http1Connection.for(job.playlistUrl);
  const headers = job.cookies[index] ? `cookie: ${job.cookies[index]}\r\n` : "";
  // Joins spread over the first second, as a crowd would.
  await Bun.sleep(Math.random() * 1000);
  let hint = null as ReturnType<typeof preloadHint>;
  while (Date.now() < until) {
    try {
      const playlist = await connection.get(pathOf(hint ? blockingUrl(job.playlistUrl, hint) : job.playlistUrl), headers, true);
      bytes += playlist.size;
      if (playlist.status !== 200) {
        fail(`playlist ${playlist.status}`);
        hint = null;
        await Bun.sleep(200);
        continue;
      }
      const next = preloadHint(playlist.text!);
      // The part just listed is the one the previous hint named: fetch it now that it is complete.
      if (hint) {
        const part = await connection.get(pathOf(hint.uri), headers, false);
        ttfb.record(part.firstByteMs);
        if (part.status !== 200) fail(`part ${part.status}`);
        else {
          bytes += part.size;
          parts++;
        }
      }
      hint = next;
      if (!next) await Bun.sleep(200);
    } catch (error) {
      fail((error as Error).message);
      hint = null;
      await Bun.sleep(200);
    }
  }
  connection.close();
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
