/**
 * The replay benchmark's viewers, in one process: each reads the VOD playlist once, starts at a place of its
 * own and fetches segment after segment as a player does (the init first), reading every body, over a
 * keep-alive connection of its own (lib/http1.ts: fetch's own cost would set the pace, not the server's). Job (a JSON
 * file, argv[2]): { playlistUrl, cookies: string[] (one per viewer; "" for none), viewers, seconds,
 * serverPid }. Prints one JSON line: bytes, segments, failures, the server's CPU seconds over the run.
 */
import { readFileSync } from "node:fs";
import { Http1Connection } from "./lib/http1.ts";
import { cpuTimes } from "./lib/proc.ts";

interface Job {
  playlistUrl: string;
  cookies: string[];
  viewers: number;
  seconds: number;
  serverPid: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Job;
let bytes = 0;
let segments = 0;
let failures = 0;

function pathOf(url: string | URL): string {
  const { pathname, search } = new URL(url, job.playlistUrl);
  return pathname + search;
}

async function viewer(index: number, until: number) {
  const headers = job.cookies[index] ? `cookie: ${job.cookies[index]}\r\n` : "";
  const connection = Http1Connection.for(job.playlistUrl);
  await Bun.sleep(Math.random() * 1000);
  try {
    const playlist = await connection.get(pathOf(job.playlistUrl), headers, true);
    const text = playlist.text ?? "";
    bytes += playlist.size;
    const init = /URI="([^"]+)"/.exec(text)?.[1];
    const names = text.split("\n").filter((l) => l && !l.startsWith("#"));
    if (playlist.status !== 200 || !init || names.length === 0) {
      failures++;
      return;
    }
    const get = async (name: string) => {
      const answer = await connection.get(pathOf(name), headers, false);
      if (answer.status !== 200) failures++;
      else bytes += answer.size;
    };
    await get(init);
    let at = Math.floor(Math.random() * names.length);
    while (Date.now() < until) {
      await get(names[at % names.length]!);
      segments++;
      at++;
    }
  } catch {
    failures++;
  } finally {
    connection.close();
  }
}

const cpu0 = cpuTimes(job.serverPid);
const t0 = performance.now();
const until = Date.now() + job.seconds * 1000;
await Promise.all(Array.from({ length: job.viewers }, (_, i) => viewer(i, until)));
const elapsed = (performance.now() - t0) / 1000;
const cpu1 = cpuTimes(job.serverPid);
const serverCpu = cpu1.user - cpu0.user + cpu1.system - cpu0.system;
console.log(JSON.stringify({ bytes, segments, failures, elapsed, serverCpuSeconds: serverCpu, cpuSecondsPerGB: serverCpu / (bytes / 1e9) }));
