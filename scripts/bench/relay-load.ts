/**
 * The relay benchmark's viewers, in one process: each reloads the live playlist once per target duration
 * (2 s), as hls.js does for a live stream, and downloads every segment that appears after it joined, reading the whole body. Job (a
 * JSON file, argv[2]): { playlistUrl, cookies: string[] (one per viewer; "" for none), viewers, seconds }.
 * Prints one JSON line: bytes and segments received, failures, the server's CPU seconds over the run and
 * the kernel's share of them.
 */
import { readFileSync } from "node:fs";
import { cpuTimes } from "./lib/proc.ts";

interface RelayJob {
  playlistUrl: string;
  cookies: string[];
  viewers: number;
  seconds: number;
  serverPid: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as RelayJob;
const POLL_MS = 2000;
let bytes = 0;
let segmentsReceived = 0;
let failures = 0;
const failureStatuses: Record<string, number> = {};

const fail = (what: string) => {
  failures++;
  failureStatuses[what] = (failureStatuses[what] ?? 0) + 1;
};

async function viewer(index: number, until: number) {
  const headers: Record<string, string> = job.cookies[index] ? { cookie: job.cookies[index]! } : {};
  const seen = new Set<string>();
  let first = true;
  // Joins spread over the first poll interval, as a crowd would.
  await Bun.sleep(Math.random() * POLL_MS);
  while (Date.now() < until) {
    const started = Date.now();
    try {
      const response = await fetch(job.playlistUrl, { headers });
      if (!response.ok) fail(`playlist ${response.status}`);
      const uris = response.ok ? (await response.text()).split("\n").filter((l) => l && !l.startsWith("#")) : [];
      // A player starts at the live edge: the newest segment only; the older ones count as seen.
      if (first) for (const uri of uris.slice(0, -1)) seen.add(uri);
      for (const uri of uris) {
        if (seen.has(uri)) continue;
        seen.add(uri);
        const segment = await fetch(new URL(uri, job.playlistUrl), { headers });
        if (!segment.ok) {
          fail(`segment ${segment.status}`);
          await segment.body?.cancel();
          continue;
        }
        // Read first, then add: `bytes += await …` would add to the total as it was before the await.
        const received = (await segment.arrayBuffer()).byteLength;
        bytes += received;
        segmentsReceived++;
      }
      first = false;
    } catch (error) {
      fail((error as Error).name);
    }
    await Bun.sleep(Math.max(0, POLL_MS - (Date.now() - started)));
  }
}

const cpu0 = cpuTimes(job.serverPid);
const t0 = performance.now();
const until = Date.now() + job.seconds * 1000;
await Promise.all(Array.from({ length: job.viewers }, (_, i) => viewer(i, until)));
const elapsed = (performance.now() - t0) / 1000;
const cpu1 = cpuTimes(job.serverPid);
const serverCpu = cpu1.user - cpu0.user + cpu1.system - cpu0.system;
const serverSystemShare = (cpu1.system - cpu0.system) / serverCpu;
console.log(
  JSON.stringify({ bytes, segmentsReceived, failures, failureStatuses, elapsed, serverCpuSeconds: serverCpu, serverSystemShare, cpuSecondsPerGB: serverCpu / (bytes / 1e9) }),
);
