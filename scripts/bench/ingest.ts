/**
 * The built-in ingest benchmark: one 720p30 2.5 Mbit/s zero-latency encode (FFmpeg, `-f tee`) published at
 * once to dreadcast's RTMP port and to Debian's nginx with libnginx-mod-rtmp (HLS, 2 s fragments), side by
 * side. Figures: glass-to-glass latency in hls.js; how soon a part is listed and a blocked playlist request
 * answered; the server's CPU and RSS while ingesting and packaging (nginx-rtmp's CPU beside it); N viewers
 * on the LL-HLS playlist with blocking reload through the session gate against Bun.serve serving the same
 * bytes from memory.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import type { Report } from "./lib/context.ts";
import { cpuSeconds, rssKiB, runToEnd, startServer, type Server } from "./lib/proc.ts";
import { blockingUrl, mediaPlaylistUrl, partEndWallClock, preloadHint } from "./lib/llhls.ts";
import { fmt } from "./lib/stats.ts";
import { createViewers } from "./lib/viewers.ts";
import { LIVE_HLS_OPTIONS } from "../../web/src/lib/hls-options.ts";

export interface IngestBenchContext extends Report {
  bun: string;
  work: string;
  viewers: number;
  loadSeconds: number;
  /** How long the quiet ingest is measured (CPU, RSS): 180 s, or 600 s with --long. */
  ingestSeconds: number;
  latencySeconds: number;
  startDreadcast: (extraArgs?: string[]) => Promise<Server>;
}

const NGINX_RTMP = "/usr/lib/nginx/modules/ngx_rtmp_module.so";
/** Seconds each server is watched with no viewer before its load: its background (the ingest, the floor's following), taken off. */
const BACKGROUND_SECONDS = 10;
/** Viewers among the load whose time to first byte is taken, in a process of their own (see ingest-load.ts). */
const PROBE_VIEWERS = 20;
const root = resolve(import.meta.dir, "../..");
const quantile = (values: number[], q: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });

/** Debian's nginx with the RTMP module, as an unprivileged process in a directory of its own. */
async function startNginx(work: string): Promise<{ pid: number; rtmpUrl: string; playlistUrl: string; hlsDir: string; stop: () => Promise<void> } | null> {
  if (!existsSync(NGINX_RTMP) || !Bun.which("nginx")) return null;
  const dir = join(work, "nginx");
  const hlsDir = join(dir, "hls");
  mkdirSync(hlsDir, { recursive: true });
  const [rtmpPort, httpPort] = [await freePort(), await freePort()];
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `${t}_temp_path ${dir}/${t};`).join(" ");
  writeFileSync(
    join(dir, "nginx.conf"),
    `load_module ${NGINX_RTMP};
worker_processes 1; master_process off; error_log ${dir}/error.log; pid ${dir}/nginx.pid;
events { worker_connections 1024; }
rtmp { server { listen 127.0.0.1:${rtmpPort}; application live { live on; hls on; hls_path ${hlsDir}; hls_fragment 2s; } } }
http { access_log off; ${temp}
  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
  server { listen 127.0.0.1:${httpPort}; location /hls/ { alias ${hlsDir}/; add_header Cache-Control no-cache; add_header Access-Control-Allow-Origin *; } } }
`,
  );
  const child = Bun.spawn(["nginx", "-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], { stdout: "ignore", stderr: "pipe" });
  for (let i = 0; i < 50; i++) {
    if (
      await fetch(`http://127.0.0.1:${httpPort}/hls/`).then(
        () => true,
        () => false,
      )
    )
      break;
    await Bun.sleep(100);
  }
  return {
    pid: child.pid,
    rtmpUrl: `rtmp://127.0.0.1:${rtmpPort}/live/bench`,
    playlistUrl: `http://127.0.0.1:${httpPort}/hls/bench.m3u8`,
    hlsDir,
    stop: async () => {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

/** The test publisher: testsrc2 and a sine at 720p30 2.5 Mbit/s, zero latency, a keyframe a second, to every URL. */
function publish(urls: string[]) {
  const tee = urls.map((u) => `[f=flv:onfail=ignore]${u}`).join("|");
  return Bun.spawn(
    [
      "ffmpeg",
      "-hide_banner",
      "-loglevel",
      "error",
      "-nostdin",
      "-re",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=1280x720:rate=30",
      "-re",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:sample_rate=48000",
      "-map",
      "0:v",
      "-map",
      "1:a",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-tune",
      "zerolatency",
      "-pix_fmt",
      "yuv420p",
      "-g",
      "30",
      "-keyint_min",
      "30",
      "-sc_threshold",
      "0",
      "-b:v",
      "2500k",
      "-maxrate",
      "2500k",
      "-bufsize",
      "2500k",
      "-c:a",
      "aac",
      "-b:a",
      "128k",
      "-ar",
      "48000",
      "-ac",
      "2",
      "-flags",
      "+global_header",
      "-f",
      "tee",
      tee,
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
}

/**
 * A third output of the same tee, FLV over TCP to this process: each video tag's arrival against its
 * timestamp gives the wall clock at which media time t reaches the servers (the tee writes each packet to
 * every output in turn). FFmpeg's -re clock starts before its encoder and the RTMP connections are ready, so
 * the first frames arrive late and then catch up: a PROGRAM-DATE-TIME anchored on the first frame runs that
 * much behind the steady stream, and is corrected by it here.
 */
function flvTap() {
  const offsets: number[] = [];
  // Each coded video frame's FLV time (ms) and when it arrived, in order.
  const frameTimes: number[] = [];
  const frameArrivals: number[] = [];
  // Read as it streams: only the tags' 11-byte headers are kept, their bodies counted past (a keyframe
  // comes in many reads, and gathering it would copy it over and over on the process taking the times).
  let fileHeaderLeft = 13;
  let head = Buffer.alloc(0);
  let tag: { video: boolean; ts: number; left: number } | null = null;
  const server = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(_socket, chunk) {
        const now = Date.now();
        let at = 0;
        while (at < chunk.length) {
          if (fileHeaderLeft > 0) {
            const n = Math.min(fileHeaderLeft, chunk.length - at);
            fileHeaderLeft -= n;
            at += n;
          } else if (tag) {
            // The tag's body and the previous-tag-size after it: the tag has arrived once they have.
            const n = Math.min(tag.left, chunk.length - at);
            tag.left -= n;
            at += n;
            if (tag.left > 0) continue;
            if (tag.video) {
              if (tag.ts >= 3000) offsets.push(now - tag.ts);
              frameTimes.push(tag.ts);
              frameArrivals.push(now);
            }
            tag = null;
          } else {
            // The tag header (11 bytes), and for video the first two bytes of its body: the frame type and
            // codec, and whether it is a coded frame or the decoder's configuration (AVCPacketType).
            const want = head.length >= 11 && head[0] === 9 ? 13 : 11;
            const n = Math.min(want - head.length, chunk.length - at);
            head = Buffer.concat([head, chunk.subarray(at, at + n)]);
            at += n;
            if (head.length < want || (want === 11 && head[0] === 9)) continue;
            const video = head[0] === 9 && head[12] === 1;
            tag = { video, ts: head.readUIntBE(4, 3) | (head[7]! << 24), left: head.readUIntBE(1, 3) + 4 - (head.length - 11) };
            head = Buffer.alloc(0);
          }
        }
      },
    },
  });
  return {
    url: `tcp://127.0.0.1:${server.port}`,
    /** The wall clock of media time 0 in the steady stream (median over video tags after the first 3 s). */
    start: () => quantile(offsets, 0.5),
    samples: () => offsets.length,
    /** The FLV time of the first coded video frame: where dreadcast's PROGRAM-DATE-TIMEs start. */
    firstFrameTime: () => frameTimes[0] ?? NaN,
    /** When the last coded video frame at or before `ms` after the first one arrived (null before the first). */
    arrivalAt: (sinceFirst: number): number | null => {
      const ms = sinceFirst + (frameTimes[0] ?? 0);
      let lo = 0;
      let hi = frameTimes.length - 1;
      if (hi < 0 || frameTimes[0]! > ms) return null;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (frameTimes[mid]! <= ms) lo = mid;
        else hi = mid - 1;
      }
      return frameArrivals[lo]!;
    },
    stop: () => server.stop(true),
  };
}

async function adminSession(server: Server): Promise<string> {
  const headers = { "content-type": "application/json", origin: server.url };
  const admin = { username: "benchkeeper", email: "bench@example.com", password: "bench-pass-13" };
  await fetch(`${server.url}/api/admin/create-first`, { method: "POST", headers, body: JSON.stringify(admin) });
  const login = await fetch(`${server.url}/api/admin/login`, { method: "POST", headers, body: JSON.stringify({ username: admin.username, password: admin.password }) });
  return login.headers
    .getSetCookie()
    .map((v) => v.split(";")[0])
    .join("; ");
}

/**
 * Blocked playlist requests: `waiters` sessions ask at once for the part the preload hint names. Per part:
 * the first answer against the moment the part's last frame arrived (the tap, fed by the same FFmpeg as the
 * servers: the part's end in media time is its PROGRAM-DATE-TIME + part durations − the first
 * PROGRAM-DATE-TIME, and its last frame the one half a frame or more before that), and, as before, against
 * the wall clock at which the part's media ends at the publish's steady pace (the tap's median offset: a
 * frame FFmpeg sends late counts against the server there); every other answer against the first (the part
 * was ready by then). A part is written as its last frame arrives (that frame's duration predicted), so it
 * can be listed before its media ends at the steady pace: that figure may be negative.
 */
async function blockingProbe(playlistUrl: string, cookies: string[], seconds: number, pdtLag: number, firstPdt: number, tap: ReturnType<typeof flvTap>) {
  const HALF_FRAME_MS = 1000 / 30 / 2;
  const listed: number[] = [];
  const afterLastFrame: number[] = [];
  const answered: number[] = [];
  const until = Date.now() + seconds * 1000;
  let text = await (await fetch(playlistUrl, { headers: { cookie: cookies[0]! } })).text();
  while (Date.now() < until) {
    const hint = preloadHint(text);
    if (!hint) {
      await Bun.sleep(100);
      text = await (await fetch(playlistUrl, { headers: { cookie: cookies[0]! } })).text();
      continue;
    }
    const url = blockingUrl(playlistUrl, hint);
    const results = await Promise.all(
      cookies.map(async (cookie) => {
        const response = await fetch(url, { headers: { cookie } });
        const body = await response.text();
        return { at: performance.timeOrigin + performance.now(), ok: response.ok, body };
      }),
    );
    const ok = results.filter((r) => r.ok);
    if (!ok.length) continue;
    const first = Math.min(...ok.map((r) => r.at));
    text = ok[0]!.body;
    const end = partEndWallClock(text, hint.msn, hint.part);
    if (end !== null) {
      listed.push(first - (end - pdtLag));
      const lastFrame = tap.arrivalAt(end - firstPdt - HALF_FRAME_MS);
      if (lastFrame !== null) afterLastFrame.push(first - lastFrame);
    }
    for (const r of ok) if (r.at !== first) answered.push(r.at - first);
  }
  return {
    parts: listed.length,
    listedMs: { p50: quantile(afterLastFrame, 0.5), p99: quantile(afterLastFrame, 0.99) },
    listedAfterSteadyEndMs: { p50: quantile(listed, 0.5), p99: quantile(listed, 0.99) },
    answeredAfterFirstMs: { p50: quantile(answered, 0.5), p99: quantile(answered, 0.99), samples: answered.length },
  };
}

/** nginx-rtmp's live edge: when each new segment appears in its playlist against when its media ended (publish start + EXTINFs so far). */
async function nginxEdge(playlistUrl: string, startWall: () => number | null, until: number) {
  const seen = new Map<string, number>();
  const delays: number[] = [];
  let mediaEnd = 0;
  let first = true;
  while (Date.now() < until) {
    const response = await fetch(playlistUrl).catch(() => null);
    const now = Date.now();
    if (response?.ok) {
      const lines = (await response.text()).split("\n");
      for (let i = 0; i < lines.length; i++) {
        const d = /^#EXTINF:([\d.]+)/.exec(lines[i]!);
        const uri = lines[i + 1]?.trim();
        if (!d || !uri || seen.has(uri)) continue;
        seen.set(uri, now);
        mediaEnd += Number(d[1]) * 1000;
        const t0 = startWall();
        // The first look may find several segments at once: only segments seen appear as they are made count.
        if (!first && t0 !== null) delays.push(now - (t0 + mediaEnd));
      }
      first = false;
    } else await response?.body?.cancel();
    await Bun.sleep(50);
  }
  return delays;
}

export async function ingestBench(c: IngestBenchContext): Promise<Record<string, unknown>> {
  if (!Bun.which("ffmpeg")) {
    c.line("ingest", "SKIPPED: ffmpeg is missing (apt-get install ffmpeg)");
    return { skipped: "no ffmpeg" };
  }
  const server = await c.startDreadcast(["--rtmp-port", "0"]);
  const nginx = await startNginx(c.work);
  if (!nginx) c.line("ingest", `baseline SKIPPED: ${NGINX_RTMP} is missing (apt-get install nginx libnginx-mod-rtmp)`);
  let floor: Server | null = null;
  let tap: ReturnType<typeof flvTap> | null = null;
  let ffmpeg: ReturnType<typeof publish> | null = null;
  try {
    const admin = await adminSession(server);
    const headers = { "content-type": "application/json", origin: server.url, cookie: admin };
    const saved = await fetch(`${server.url}/api/admin/stream-source`, { method: "PUT", headers, body: JSON.stringify({ kind: "ingest" }) });
    if (!saved.ok) throw new Error(`stream-source: ${saved.status} ${await saved.text()}`);
    const ingest = (await (await fetch(`${server.url}/api/admin/ingest`, { headers })).json()) as { rtmpUrl: string; streamKey: string };
    const probeViewers = await createViewers(server.url, 20, { prefix: "probe" });
    tap = flvTap();
    ffmpeg = publish([`${ingest.rtmpUrl}/${ingest.streamKey}`, ...(nginx ? [nginx.rtmpUrl] : []), tap.url]);
    // Live and measured, as the admin's card shows it.
    let view: any = null;
    for (let i = 0; i < 100 && !view?.publisher?.video?.fps; i++) {
      await Bun.sleep(300);
      view = await (await fetch(`${server.url}/api/admin/ingest`, { headers })).json();
    }
    if (!view?.publisher?.video?.fps) {
      ffmpeg.kill("SIGKILL");
      throw new Error(`the ingest did not go live: ${JSON.stringify(view)} ${await new Response(ffmpeg.stderr).text()}`);
    }
    // The viewer's address as /api/stream/playback gives it once the livestream is switched on (the same path, behind the same gate).
    const playlistUrl = await mediaPlaylistUrl(`${server.url}/api/stream/live/index.m3u8`, { cookie: probeViewers[0]!.cookie });
    // The publish's wall-clock start, from dreadcast's first PROGRAM-DATE-TIME (the same encode feeds nginx).
    const firstText = await (await fetch(playlistUrl, { headers: { cookie: probeViewers[0]!.cookie } })).text();
    const firstPdt = Date.parse(/#EXT-X-PROGRAM-DATE-TIME:(\S+)/.exec(firstText)?.[1] ?? "");
    if (!Number.isFinite(firstPdt) || !/#EXT-X-MEDIA-SEQUENCE:0\b/.test(firstText)) throw new Error(`the first playlist does not start the stream: ${firstText}`);
    // Media time 0 reached the servers at tap.start() in the steady stream; the PROGRAM-DATE-TIME says firstPdt.
    await Bun.sleep(4000);
    // (PROGRAM-DATE-TIMEs count from the first coded frame, which FFmpeg stamps a frame or so after 0.)
    const pdtLag = firstPdt - (tap.start() + tap.firstFrameTime());
    if (!Number.isFinite(pdtLag)) throw new Error("the FLV tap received no video after 3 s of media (FFmpeg's tee output to it failed)");
    const startWall = () => tap!.start();
    c.line(
      "ingest",
      `media time 0 reached the servers at the tap's steady clock; dreadcast's PROGRAM-DATE-TIME is ${fmt(pdtLag, 0)} ms behind it (FFmpeg's start-up catch-up), corrected below`,
    );
    c.line(
      "ingest",
      `FFmpeg → dreadcast${nginx ? " + nginx-rtmp" : ""}: 720p30 libx264 ultrafast zerolatency, 2.5 Mbit/s, keyframe every 30 frames, AAC 128k (${JSON.stringify(view.publisher.video)})`,
    );

    // (c) ingest + packaging, quiet (no viewers but the 20 probe sessions' blocking reloads during the first minute).
    const pid = server.pid;
    const settle = 5;
    await Bun.sleep(settle * 1000);
    const cpu0 = cpuSeconds(pid);
    const ngCpu0 = nginx ? cpuSeconds(nginx.pid) : 0;
    const t0 = performance.now();
    const rss: { t: number; kib: number }[] = [];
    const sampler = setInterval(() => rss.push({ t: (performance.now() - t0) / 1000, kib: rssKiB(pid) }), 5000);
    rss.push({ t: 0, kib: rssKiB(pid) });
    const edgeUntil = Date.now() + Math.min(60, c.ingestSeconds) * 1000;
    const [probe, edge] = await Promise.all([
      blockingProbe(
        playlistUrl,
        probeViewers.map((v) => v.cookie),
        Math.min(60, c.ingestSeconds),
        pdtLag,
        firstPdt,
        tap,
      ),
      nginx ? nginxEdge(nginx.playlistUrl, startWall, edgeUntil) : Promise.resolve([] as number[]),
    ]);
    const remaining = c.ingestSeconds * 1000 - (performance.now() - t0);
    if (remaining > 0) await Bun.sleep(remaining);
    clearInterval(sampler);
    const wall = (performance.now() - t0) / 1000;
    rss.push({ t: wall, kib: rssKiB(pid) });
    const cpuPct = (100 * (cpuSeconds(pid) - cpu0)) / wall;
    const ngCpuPct = nginx ? (100 * (cpuSeconds(nginx.pid) - ngCpu0)) / wall : NaN;
    const firstMinute = Math.min(60, wall / 2);
    const atMinute = rss.find((s) => s.t >= firstMinute)!.kib;
    const growthMiB = (Math.max(...rss.filter((s) => s.t >= firstMinute).map((s) => s.kib)) - atMinute) / 1024;

    // (a) glass-to-glass latency in hls.js, both players side by side.
    const job = join(c.work, "ingest-player.json");
    const pages = [{ name: "dreadcast", origin: server.url, url: playlistUrl, cookie: probeViewers[1]!.cookie, lowLatency: true }];
    if (nginx) pages.push({ name: "nginx", origin: new URL(nginx.playlistUrl).origin, url: nginx.playlistUrl, cookie: "", lowLatency: false });
    writeFileSync(job, JSON.stringify({ hlsJs: join(root, "node_modules/hls.js/dist/hls.min.js"), hlsOptions: LIVE_HLS_OPTIONS, seconds: c.latencySeconds, warmup: 10, pages }));
    const played = JSON.parse(
      (await runToEnd(["node", join(import.meta.dir, "ingest-player.mjs"), job], { timeoutMs: (c.latencySeconds + 90) * 1000 })).trim().split("\n").at(-1)!,
    );
    const dcLatency = (played.dreadcast.samples as any[]).filter((s) => s.playingDate && !s.paused).map((s) => (s.now - (s.playingDate - pdtLag)) / 1000);
    const ngBehindEdge = nginx ? (played.nginx.samples as any[]).filter((s) => Number.isFinite(s.latency) && !s.paused).map((s) => s.latency as number) : [];
    const ngEdge = quantile(edge, 0.5) / 1000;
    const ngLatency = ngBehindEdge.map((l) => l + ngEdge);

    // (d) viewers on the LL-HLS playlist with blocking reload, then the floor with the same bytes.
    const viewers = await createViewers(server.url, c.viewers, { prefix: "ll" });
    floor = await startServer(
      "ll-hls-floor",
      [c.bun, join(import.meta.dir, "servers/ll-hls-floor.ts"), playlistUrl, probeViewers[2]!.cookie],
      /ll-hls-floor listening on (http:\/\/\S+)/,
    );
    const load = async (url: string, cookies: string[], serverPid: number) => {
      const file = join(c.work, `ingest-load-${Date.now()}.json`);
      writeFileSync(
        file,
        JSON.stringify({ playlistUrl: url, cookies, viewers: c.viewers, seconds: c.loadSeconds, serverPid, backgroundSeconds: BACKGROUND_SECONDS, probeViewers: PROBE_VIEWERS }),
      );
      return JSON.parse(
        (await runToEnd([c.bun, join(import.meta.dir, "ingest-load.ts"), file], { timeoutMs: (c.loadSeconds + BACKGROUND_SECONDS + 120) * 1000 })).trim().split("\n").at(-1)!,
      );
    };
    const gated = await load(
      playlistUrl,
      viewers.map((v) => v.cookie),
      server.pid,
    );
    const bare = await load(`${floor.url}/live/stream.m3u8`, [], floor.pid);
    const cpuRatio = gated.cpuSecondsPerGB / bare.cpuSecondsPerGB;

    // Lines and summary.
    const s = (n: number) => fmt(n, 2);
    const p50 = quantile(dcLatency, 0.5),
      p95 = quantile(dcLatency, 0.95);
    const latencyOk = p50 <= 2 && p95 <= 3;
    c.line(
      "ingest",
      `glass-to-glass in hls.js (${c.latencySeconds} s, ${dcLatency.length} samples): dreadcast LL-HLS p50 ${s(p50)} s, p95 ${s(p95)} s (page clock − hls.playingDate on the publish clock; ≤ 2.0 / 3.0 s: ${c.verdict(latencyOk)})` +
        (nginx
          ? `; nginx-rtmp p50 ${s(quantile(ngLatency, 0.5))} s, p95 ${s(quantile(ngLatency, 0.95))} s (live-edge delay ${s(ngEdge)} s + hls.js behind the edge p50 ${s(quantile(ngBehindEdge, 0.5))} s) → ratio ${s(quantile(ngLatency, 0.5) / p50)}× dreadcast's`
          : ""),
    );
    const listedOk = probe.listedMs.p99 <= 50,
      answeredOk = probe.answeredAfterFirstMs.p99 <= 20;
    c.line(
      "ingest",
      `parts (${probe.parts} over ${Math.min(60, c.ingestSeconds)} s, 20 blocked sessions each): listed p50 ${fmt(probe.listedMs.p50, 0)} ms, p99 ${fmt(probe.listedMs.p99, 0)} ms after the part's last frame arrived (≤ 50 ms: ${c.verdict(listedOk)}; after its media ended at the publish's steady pace p50 ${fmt(probe.listedAfterSteadyEndMs.p50, 0)} ms, p99 ${fmt(probe.listedAfterSteadyEndMs.p99, 0)} ms); blocked requests answered p50 ${fmt(probe.answeredAfterFirstMs.p50, 1)} ms, p99 ${fmt(probe.answeredAfterFirstMs.p99, 1)} ms after the first (≤ 20 ms: ${c.verdict(answeredOk)})`,
    );
    const cpuOk = cpuPct <= 10,
      rssOk = growthMiB < 20;
    c.line(
      "ingest",
      `ingest + packaging over ${fmt(wall, 0)} s: dreadcast ${fmt(cpuPct, 1)}% of a core (≤ 10%: ${c.verdict(cpuOk)})${nginx ? `, nginx-rtmp ${fmt(ngCpuPct, 1)}% → ratio ${s(cpuPct / ngCpuPct)}×` : ""}; RSS ${fmt(rss[0]!.kib / 1024, 0)} → ${fmt(rss.at(-1)!.kib / 1024, 0)} MiB, growth after ${fmt(firstMinute, 0)} s ${fmt(growthMiB, 1)} MiB (< 20 MiB: ${c.verdict(rssOk)})`,
    );
    const describe = (name: string, r: any) =>
      `${name.padEnd(9)} ${fmt(r.bytes / 1e9, 2)} GB in ${r.parts} parts over ${fmt(r.elapsed, 1)} s, server CPU ${s(r.serverCpuSeconds)} s (${s(r.rawCpuSecondsPerGB)} s/GB), less its background ${fmt(r.backgroundCpuPerSecond * 100, 1)}% of a core → serving ${s(r.servingCpuSeconds)} s, ${s(r.cpuSecondsPerGB)} s/GB; part TTFB of ${r.probeViewers} viewers in a process of their own p50 ${fmt(r.partTtfbMs.p50, 1)} ms p99 ${fmt(r.partTtfbMs.p99, 1)} ms (in the load's process p99 ${fmt(r.loadPartTtfbMs.p99, 1)} ms)` +
      (r.failures ? `, ${r.failures} failed (${JSON.stringify(r.failureStatuses)})` : "");
    c.line("ingest", `${c.viewers} viewers, blocking reload + every part, ${c.loadSeconds} s:`);
    c.line("ingest", describe("gated", gated));
    c.line("ingest", describe("floor", bare));
    const ttfbOk = gated.partTtfbMs.p99 <= 50;
    c.line(
      "ingest",
      `ratios: serving CPU per GB ${s(cpuRatio)}× the floor's (≤ 1.5×: ${c.verdict(cpuRatio <= 1.5)}; everything the processes spent, background included: ${s(gated.rawCpuSecondsPerGB / bare.rawCpuSecondsPerGB)}×); part TTFB p99 ${fmt(gated.partTtfbMs.p99, 1)} ms (≤ 50 ms: ${c.verdict(ttfbOk)})`,
    );
    c.summary.push(
      {
        benchmark: "Ingest: glass-to-glass latency in hls.js (720p30 zerolatency)",
        figure: `p50 ${s(p50)} s, p95 ${s(p95)} s${nginx ? `; nginx-rtmp p50 ${s(quantile(ngLatency, 0.5))} s, p95 ${s(quantile(ngLatency, 0.95))} s` : ""}`,
        target: "p50 ≤ 2.0 s, p95 ≤ 3.0 s",
        ok: latencyOk,
      },
      {
        benchmark: "Ingest: part listed after its last frame arrived",
        figure: `p99 ${fmt(probe.listedMs.p99, 0)} ms (p50 ${fmt(probe.listedMs.p50, 0)}); after its media ended at the publish's steady pace p99 ${fmt(probe.listedAfterSteadyEndMs.p99, 0)} ms`,
        target: "p99 ≤ 50 ms",
        ok: listedOk,
      },
      {
        benchmark: "Ingest: blocked playlist answered after the part was ready",
        figure: `p99 ${fmt(probe.answeredAfterFirstMs.p99, 1)} ms`,
        target: "p99 ≤ 20 ms",
        ok: answeredOk,
      },
      {
        benchmark: "Ingest: server CPU, 720p30 2.5 Mbit/s",
        figure: `${fmt(cpuPct, 1)}% of a core${nginx ? ` (nginx-rtmp ${fmt(ngCpuPct, 1)}%)` : ""}`,
        target: "≤ 10% of a core",
        ok: cpuOk,
      },
      { benchmark: `Ingest: RSS growth after the first minute (${fmt(wall, 0)} s)`, figure: `${fmt(growthMiB, 1)} MiB`, target: "< 20 MiB", ok: rssOk },
      {
        benchmark: `Ingest: ${c.viewers} LL-HLS viewers, CPU per GB`,
        figure: `${s(gated.cpuSecondsPerGB)} s vs floor ${s(bare.cpuSecondsPerGB)} s → ${s(cpuRatio)}× (with the ingest's and the floor's background ${s(gated.rawCpuSecondsPerGB / bare.rawCpuSecondsPerGB)}×)`,
        target: "≤ 1.5× floor",
        ok: cpuRatio <= 1.5,
      },
      {
        benchmark: `Ingest: ${c.viewers} LL-HLS viewers, part TTFB`,
        figure: `p99 ${fmt(gated.partTtfbMs.p99, 1)} ms (floor ${fmt(bare.partTtfbMs.p99, 1)} ms); read in the load's process ${fmt(gated.loadPartTtfbMs.p99, 1)} ms (floor ${fmt(bare.loadPartTtfbMs.p99, 1)} ms)`,
        target: "p99 ≤ 50 ms",
        ok: ttfbOk,
      },
    );
    return {
      pdtLagMs: pdtLag,
      latency: { dreadcast: dcLatency, nginxBehindEdge: ngBehindEdge, nginxEdgeMs: edge, errors: { dreadcast: played.dreadcast.errors, nginx: played.nginx?.errors } },
      probe,
      cpu: { dreadcast: cpuPct, nginx: ngCpuPct, seconds: wall },
      rss,
      growthMiB,
      gated,
      floor: bare,
      cpuRatio,
    };
  } finally {
    ffmpeg?.kill("SIGKILL");
    tap?.stop();
    await floor?.stop();
    await nginx?.stop();
    await server.stop();
  }
}
