/**
 * The replay's costs, in process on the real parts (the ingest's packager and recorder, the store, the
 * app's download route):
 * - recording: a 720p publish (an FFmpeg-made FLV, pushed over RTMP in real time without encoding, as OBS
 *   sends it) ingested with and without its recording, turn about; the CPU the recording adds (≤ 5 %);
 * - the MP4 download of a one-hour recording (the 60 s recording's files listed sixty times over, so the
 *   disk holds one minute and the page cache serves the rest, as it does for a recording just made):
 *   time to the first byte (target ≤ 1 s) and throughput (target ≥ 100 MB/s);
 * - 500 viewers watching the replay at different places (a load generator of its own process): the app's
 *   CPU per GB served, against Bun serving the same playlist and files from memory (target ≤ 1.5×).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { defaultConfig, type Config } from "../../src/config.ts";
import { createContext, disposeContext } from "../../src/context.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import type { AppContext } from "../../src/context.ts";
import { VIEWER_COOKIE } from "../../src/modules/access/sessions.ts";
import { ADMIN_COOKIE } from "../../src/modules/admin/auth.ts";
import { CachedRecordingFiles } from "../../src/modules/replay/file-cache.ts";
import type { Report } from "./lib/context.ts";
import { fmt } from "./lib/stats.ts";

export interface ReplayBenchOptions extends Report {
  work: string;
  /** Viewers watching the replay at once, and for how long. */
  viewers: number;
  loadSeconds: number;
  /** Seconds of the 720p publish; the download lists it over and over up to an hour. */
  seconds: number;
  rounds: number;
}

function expect200(res: Response, what: string): void {
  if (res.status !== 200) throw new Error(`${what}: ${res.status}`);
}

/** A viewer let in straight through the services: a code, a user and a session. */
async function viewerCookie(ctx: AppContext, username: string): Promise<{ cookie: string }> {
  const code = await ctx.access.issueAccessCode("SKP");
  const userId = (await ctx.store.get<{ id: number }>("INSERT INTO users (username, access_code_id, created_at) VALUES (?, ?, ?) RETURNING id", username, code.id, Date.now()))!.id;
  await ctx.store.run("UPDATE access_codes SET used = 1 WHERE id = ?", code.id);
  return { cookie: `${VIEWER_COOKIE}=${await ctx.viewerSessions.open(undefined, userId, code.id)}` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function replayBench(o: ReplayBenchOptions) {
  const dir = mkdtempSync(join(o.work, "replay-"));
  try {
    const flvPath = join(dir, "publish.flv");
    const encode = Bun.spawnSync([
      "ffmpeg",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=1280x720:rate=30",
      "-f",
      "lavfi",
      "-i",
      "sine=sample_rate=48000",
      "-t",
      String(o.seconds),
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-pix_fmt",
      "yuv420p",
      "-g",
      "60",
      "-b:v",
      "2500k",
      "-c:a",
      "aac",
      "-ar",
      "48000",
      "-ac",
      "2",
      flvPath,
    ]);
    if (encode.exitCode !== 0) throw new Error(`ffmpeg: ${encode.stderr.toString()}`);

    const dataDir = join(dir, "data");
    const config: Config = { ...defaultConfig(), host: "127.0.0.1", port: 0, rtmpPort: 0, dataDir };
    const appStore = await openStore({ dataDir, databaseUrl: null, databaseTimeoutMs: config.databaseTimeoutMs });
    const ctx = await createContext(config, appStore, silentLogger);
    const app = (await createApp(ctx, [])).listen({ port: 0, hostname: "127.0.0.1" });
    const base = `http://127.0.0.1:${app.server!.port}`;
    try {
      const admin = await ctx.admins.create("owner", "owner@example.com", "owner-pass");
      const cookie = `${ADMIN_COOKIE}=${await ctx.admins.createSession(admin.id)}`;
      const call = (method: string, path: string, body?: unknown) =>
        fetch(base + path, { method, headers: { cookie, origin: base, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      if ((await call("PUT", "/api/admin/stream-source", { kind: "ingest" })).status !== 200) throw new Error("could not choose the built-in ingest");
      const { rtmpUrl, streamKey } = (await (await call("GET", "/api/admin/ingest")).json()) as { rtmpUrl: string; streamKey: string };
      const recorder = ctx.ingest.recorder;

      // --- recording's CPU: the whole ingest (RTMP in, FLV, packaging) with and without it, turn about ---
      const publishOnce = async (record: boolean) => {
        ctx.ingest.recorder = record ? recorder : null;
        // A full collection at both ends: the round pays for the garbage it made, not for an earlier round's.
        Bun.gc(true);
        const before = cpuMs();
        // In real time, as OBS sends it, without encoding: this process's CPU is the ingest's.
        const push = Bun.spawn(["ffmpeg", "-v", "error", "-re", "-i", flvPath, "-c", "copy", "-f", "flv", `${rtmpUrl}/${streamKey}`], { stdout: "ignore", stderr: "pipe" });
        if ((await push.exited) !== 0) throw new Error(`ffmpeg push: ${await new Response(push.stderr).text()}`);
        // Until the recording (if any) is closed: its writes count.
        for (let i = 0; record && i < 200; i++) {
          const open = await appStore.get<{ n: number }>("SELECT COUNT(*) AS n FROM recordings WHERE state = 'recording'");
          if (Number(open!.n) === 0) break;
          await Bun.sleep(25);
        }
        await Bun.sleep(300);
        Bun.gc(true);
        return cpuMs() - before;
      };
      await publishOnce(false);
      const plain: number[] = [];
      const recorded: number[] = [];
      for (let r = 0; r < o.rounds; r++) {
        plain.push(await publishOnce(false));
        recorded.push(await publishOnce(true));
      }
      ctx.ingest.recorder = recorder;
      // Each pair ran back to back: the median of their ratios, so that the machine's drift cancels.
      const added = median(recorded.map((ms, i) => ms / plain[i]!)) - 1;
      o.line(
        "recording",
        `${o.seconds} s of 720p ingested (RTMP to LL-HLS) in ${fmt(median(plain), 0)} ms of CPU, ${fmt(median(recorded), 0)} ms with its recording (medians of ${o.rounds} rounds, turn about): ${added >= 0 ? "+" : ""}${fmt(added * 100, 1)} % (the median pair; pairs ${recorded.map((ms, i) => `${fmt((ms / plain[i]! - 1) * 100, 1)} %`).join(", ")})`,
      );
      o.summary.push({ benchmark: "replay", figure: `recording adds ${fmt(added * 100, 1)} % CPU to ingesting 720p`, target: "≤ 5 %", ok: added <= 0.05 });

      // --- the one-hour download: one recording's segments listed until an hour ---
      const [kept] = await appStore.all<{ id: number }>("SELECT id FROM recordings ORDER BY id LIMIT 1");
      const id = Number(kept!.id);
      const segments = await ctx.recordings.segmentsOf(id);
      const oneRun = segments.reduce((t, s) => t + Number(s.duration_ms), 0);
      const copies = Math.ceil(3_600_000 / oneRun);
      await appStore.tx(async () => {
        let seq = segments.length;
        let start = oneRun;
        for (let c = 1; c < copies; c++) {
          for (const s of segments) {
            await appStore.run(
              "INSERT INTO recording_segments (recording_id, seq, file, init_file, start_ms, duration_ms, program_date_time, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
              id,
              seq++,
              s.file,
              s.init_file,
              start + Number(s.start_ms),
              s.duration_ms,
              Number(s.program_date_time) + start,
              s.bytes,
            );
          }
          start += oneRun;
        }
        await appStore.run("UPDATE recordings SET duration_ms = ? WHERE id = ?", start, id);
      });
      const url = `${base}/api/admin/recordings/${id}.mp4`;
      const t0 = performance.now();
      const res = await fetch(url, { headers: { cookie } });
      const reader = res.body!.getReader();
      let first = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first) first = performance.now() - t0;
        bytes += value.length;
      }
      const seconds = (performance.now() - t0) / 1000;
      const mbps = bytes / 1e6 / seconds;
      o.line("mp4 download", `one hour (${fmt(bytes / 1e9, 2)} GB): first byte in ${fmt(first, 0)} ms, ${fmt(mbps, 0)} MB/s (${fmt(seconds, 1)} s)`);
      o.summary.push({ benchmark: "replay", figure: `1 h MP4 download: first byte ${fmt(first, 0)} ms`, target: "≤ 1 s", ok: first <= 1000 });
      o.summary.push({ benchmark: "replay", figure: `1 h MP4 download: ${fmt(mbps, 0)} MB/s`, target: "≥ 100 MB/s", ok: mbps >= 100 });
      // --- 500 viewers at different places in the replay, against Bun serving the same bytes from memory ---
      expect200(await call("PUT", "/api/admin/livestream-settings", { isActive: false }), "switching the livestream off");
      const cookies: string[] = [];
      for (let i = 0; i < o.viewers; i++) cookies.push((await viewerCookie(ctx, `viewer${i}`)).cookie);
      const load = async (playlistUrl: string, viewerCookies: string[]) => {
        const jobFile = join(dir, `replay-job-${Date.now()}.json`);
        writeFileSync(jobFile, JSON.stringify({ playlistUrl, cookies: viewerCookies, viewers: o.viewers, seconds: o.loadSeconds, serverPid: process.pid }));
        const child = Bun.spawn([process.execPath, join(import.meta.dir, "replay-load.ts"), jobFile], { stdout: "pipe", stderr: "inherit" });
        const out = await new Response(child.stdout).text();
        await child.exited;
        return JSON.parse(out.trim().split("\n").at(-1)!) as { bytes: number; failures: number; cpuSecondsPerGB: number; segments: number };
      };
      // The floor: the same playlist and files, in memory, served by Bun with no check at all.
      const playlist = await (await fetch(`${base}/api/stream/replay/index.m3u8`, { headers: { cookie: cookies[0]! } })).text();
      const files = new Map<string, Uint8Array>();
      for (const name of [/URI="([^"]+)"/.exec(playlist)![1]!, ...playlist.split("\n").filter((l) => l && !l.startsWith("#"))]) {
        if (!files.has(name)) files.set(name, new Uint8Array(await (await fetch(`${base}/api/stream/replay/${name}`, { headers: { cookie: cookies[0]! } })).arrayBuffer()));
      }
      const floor = Bun.serve({
        port: 0,
        hostname: "127.0.0.1",
        fetch(request) {
          const name = new URL(request.url).pathname.slice("/replay/".length);
          if (name === "index.m3u8") return new Response(playlist, { headers: { "content-type": "application/vnd.apple.mpegurl" } });
          const bytes = files.get(name);
          return bytes ? new Response(bytes, { headers: { "content-type": "video/iso.segment" } }) : new Response("", { status: 404 });
        },
      });
      // Turn about, three rounds each, so that the machine's drift falls on both; the median round decides.
      // The replay's files are sent from the server's memory once asked for twice (--replay-cache-mb, 128 MiB
      // by default): what the viewers ask for here fits in it, as the start of a night most watch would.
      const cache = ctx.recordings.files;
      if (!(cache instanceof CachedRecordingFiles)) throw new Error("the replay's files are not behind their memory");
      const distinctBytes = [...files.values()].reduce((n, b) => n + b.length, 0);
      const rounds: { ours: Awaited<ReturnType<typeof load>>; bare: Awaited<ReturnType<typeof load>>; hitRate: number }[] = [];
      for (let r = 0; r < 3; r++) {
        const before = cache.figures();
        const oursRound = await load(`${base}/api/stream/replay/index.m3u8`, cookies);
        const after = cache.figures();
        const bareRound = await load(`http://127.0.0.1:${floor.port}/replay/index.m3u8`, []);
        rounds.push({ ours: oursRound, bare: bareRound, hitRate: (after.hits - before.hits) / Math.max(1, after.hits - before.hits + after.misses - before.misses) });
      }
      // For reference, one more pair with nothing kept in memory: every file opened and sent from the disk's page cache.
      cache.resize(0);
      const fromDisk = await load(`${base}/api/stream/replay/index.m3u8`, cookies);
      const bareForDisk = await load(`http://127.0.0.1:${floor.port}/replay/index.m3u8`, []);
      cache.resize(config.replayCacheBytes);
      void floor.stop(true);
      const byRatio = [...rounds].sort((a, b) => a.ours.cpuSecondsPerGB / a.bare.cpuSecondsPerGB - b.ours.cpuSecondsPerGB / b.bare.cpuSecondsPerGB);
      const { ours, bare } = byRatio[1]!;
      const ratio = ours.cpuSecondsPerGB / bare.cpuSecondsPerGB;
      const diskRatio = fromDisk.cpuSecondsPerGB / bareForDisk.cpuSecondsPerGB;
      const failures = rounds.reduce((n, round) => n + round.ours.failures, 0) + fromDisk.failures;
      o.line(
        "replay load",
        `${o.viewers} viewers over ${files.size} distinct files (${fmt(distinctBytes / 1e6, 0)} MB), 3 rounds of ${o.loadSeconds} s each, turn about with Bun from memory: ${rounds.map((round) => `${fmt(round.ours.cpuSecondsPerGB / round.bare.cpuSecondsPerGB, 2)}× (${fmt(round.hitRate * 100, 1)} % sent from dreadcast's memory)`).join(", ")}; the median round ${fmt(ours.bytes / 1e9, 2)} GB at ${fmt(ours.cpuSecondsPerGB, 2)} CPU-s/GB against ${fmt(bare.cpuSecondsPerGB, 2)}: ${fmt(ratio, 2)}×; with nothing kept in memory (every file from the disk's page cache) ${fmt(fromDisk.cpuSecondsPerGB, 2)} against ${fmt(bareForDisk.cpuSecondsPerGB, 2)}: ${fmt(diskRatio, 2)}× (${failures} failures)`,
      );
      o.summary.push({
        benchmark: "replay",
        figure: `${o.viewers} replay viewers: ${fmt(ratio, 2)}× Bun's CPU per GB (median of 3 rounds; ${fmt(diskRatio, 2)}× with nothing kept in memory)`,
        target: "≤ 1.5×",
        ok: ratio <= 1.5 && failures === 0,
      });
      return {
        replayCpuPerGB: ours.cpuSecondsPerGB,
        floorCpuPerGB: bare.cpuSecondsPerGB,
        replayRatio: ratio,
        replayFromDiskRatio: diskRatio,
        ingestMs: median(plain),
        withRecordingMs: median(recorded),
        addedPercent: added * 100,
        downloadBytes: bytes,
        firstByteMs: first,
        megabytesPerSecond: mbps,
      };
    } finally {
      void app.stop(true);
      await disposeContext(ctx);
      await closeStore(appStore);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const work = mkdtempSync("/tmp/dreadcast-replay-bench-");
  const summary: Report["summary"] = [];
  await replayBench({
    line: (l, t) => console.log(`${l.padEnd(14)} ${t}`),
    verdict: (ok) => (ok ? "PASS" : "MISS"),
    summary,
    work,
    seconds: 30,
    rounds: 5,
    viewers: 500,
    loadSeconds: 10,
  });
  for (const row of summary) console.log(`| ${row.benchmark} | ${row.figure} | ${row.target} | ${row.ok ? "PASS" : "MISS"} |`);
  rmSync(work, { recursive: true, force: true });
}
