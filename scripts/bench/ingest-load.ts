/**
 * The ingest benchmark's LL-HLS viewers, in one process: each, on a keep-alive connection of its own
 * (lib/http1.ts), holds a blocking playlist reload for the part its preload hint names
 * (_HLS_msn/_HLS_part), as hls.js in low-latency mode does, then downloads that part, reading the whole
 * body. The time to first byte of a part is from its request written to the answer's first byte. Job (a JSON file, argv[2]): { playlistUrl, cookies: string[] (one per viewer; ""
 * for none), viewers, seconds, serverPid, backgroundSeconds }. Prints one JSON line: bytes served (playlists and parts), parts
 * received, failures, time to first byte of a part (p50/p99), the server's CPU seconds over the run.
 *
 * Neither server only serves: dreadcast ingests and packages the publish, the floor follows dreadcast's
 * playlist. That background is measured first, over `backgroundSeconds` with no viewer, and its rate over
 * the run's length is taken off the run's CPU: `cpuSecondsPerGB` is the serving's own, `rawCpuSecondsPerGB`
 * everything the process spent.
 *
 * With `probeViewers` N, the last N viewers run in a process of their own, started with the load, and the
 * time to first byte of a part is theirs: each real viewer has a device of its own, and in the one process
 * holding hundreds of viewers, who all wake for each part at the same moment, a first byte waits for the
 * process to get through the other viewers' parts before it is read. `loadPartTtfbMs` is that process's.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
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
  backgroundSeconds?: number;
  probeViewers?: number;
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

const cpuSeconds = () => {
  if (!job.serverPid) return 0;
  const { user, system } = cpuTimes(job.serverPid);
  return user + system;
};
// The server's CPU with nobody watching, per second, over the same kind of stretch as the run.
const backgroundStart = cpuSeconds();
const backgroundT0 = performance.now();
await Bun.sleep((job.backgroundSeconds ?? 0) * 1000);
const backgroundElapsed = (performance.now() - backgroundT0) / 1000;
const backgroundPerSecond = job.backgroundSeconds ? (cpuSeconds() - backgroundStart) / backgroundElapsed : 0;

const probes = Math.min(job.probeViewers ?? 0, job.viewers - 1);
const probeJob = `${process.argv[2]}.probe.json`;
if (probes > 0) {
  const cookies = job.cookies.slice(job.viewers - probes, job.viewers);
  writeFileSync(probeJob, JSON.stringify({ playlistUrl: job.playlistUrl, cookies, viewers: probes, seconds: job.seconds, serverPid: 0 } satisfies Job));
}
const cpu0 = cpuSeconds();
const t0 = performance.now();
const probe = probes > 0 ? Bun.spawn([process.execPath, import.meta.path, probeJob], { stdout: "pipe", stderr: "inherit" }) : null;
const until = Date.now() + job.seconds * 1000;
await Promise.all(Array.from({ length: job.viewers - probes }, (_, i) => viewer(i, until)));
const probed = probe
  ? (JSON.parse((await new Response(probe.stdout).text()).trim().split("\n").at(-1)!) as {
      bytes: number;
      parts: number;
      failures: number;
      failureStatuses: Record<string, number>;
      partTtfbMs: unknown;
    })
  : null;
const elapsed = (performance.now() - t0) / 1000;
if (probed) {
  rmSync(probeJob, { force: true });
  bytes += probed.bytes;
  parts += probed.parts;
  failures += probed.failures;
  for (const [what, n] of Object.entries(probed.failureStatuses)) failureStatuses[what] = (failureStatuses[what] ?? 0) + n;
}
const serverCpu = cpuSeconds() - cpu0;
const servingCpu = serverCpu - backgroundPerSecond * elapsed;
const gb = bytes / 1e9;
console.log(
  JSON.stringify({
    bytes,
    parts,
    failures,
    failureStatuses,
    elapsed,
    serverCpuSeconds: serverCpu,
    backgroundCpuPerSecond: backgroundPerSecond,
    servingCpuSeconds: servingCpu,
    cpuSecondsPerGB: servingCpu / gb,
    rawCpuSecondsPerGB: serverCpu / gb,
    partTtfbMs: probed ? probed.partTtfbMs : ttfb.summary(),
    loadPartTtfbMs: ttfb.summary(),
    probeViewers: probes,
  }),
);
