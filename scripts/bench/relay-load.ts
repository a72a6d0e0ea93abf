/**
 * The relay benchmark's viewers, in one process: each polls the live playlist about every second, as a
 * player does, and downloads every segment that appears after it joined, reading the whole body. Job (a
 * JSON file, argv[2]): { playlistUrl, cookies: string[] (one per viewer; "" for none), viewers, seconds }.
 * Prints one JSON line: bytes and segments received, failures, the server's CPU seconds over the run.
 */
import { readFileSync } from "node:fs";
import { cpuSeconds } from "./lib/proc.ts";

interface RelayJob {
  playlistUrl: string;
  cookies: string[];
  viewers: number;
  seconds: number;
  serverPid: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as RelayJob;
const POLL_MS = 1000;
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
      // A player starts at the live edge: the newest segment only.
      for (const uri of first ? uris.slice(-1) : uris) {
        if (seen.has(uri)) continue;
        seen.add(uri);
        const segment = await fetch(new URL(uri, job.playlistUrl), { headers });
        if (!segment.ok) {
          fail(`segment ${segment.status}`);
          await segment.body?.cancel();
          continue;
        }
        bytes += (await segment.arrayBuffer()).byteLength;
        segmentsReceived++;
      }
      first = false;
    } catch (error) {
      fail((error as Error).name);
    }
    await Bun.sleep(Math.max(0, POLL_MS - (Date.now() - started)));
  }
}

const cpu0 = cpuSeconds(job.serverPid);
const t0 = performance.now();
const until = Date.now() + job.seconds * 1000;
await Promise.all(Array.from({ length: job.viewers }, (_, i) => viewer(i, until)));
const elapsed = (performance.now() - t0) / 1000;
const serverCpu = cpuSeconds(job.serverPid) - cpu0;
console.log(JSON.stringify({ bytes, segmentsReceived, failures, failureStatuses, elapsed, serverCpuSeconds: serverCpu, cpuSecondsPerGB: serverCpu / (bytes / 1e9) }));
