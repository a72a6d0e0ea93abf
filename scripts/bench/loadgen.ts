/**
 * The load generator: its own Bun process, apart from the server it measures. Reads a job (JSON file named
 * on the command line), opens the sockets, drives the load, reads the server's CPU time and memory from
 * /proc/<pid> around the measured window, and prints one JSON result on stdout (progress on stderr).
 *
 * Protocols: `dreadcast` (/ws with the viewer's cookie, same-origin Origin and X-Forwarded-For), `floor`
 * (a bare Bun pub/sub server that echoes each frame to everyone) and `socketio` (Socket.IO 4 over its
 * WebSocket transport, spoken directly: the same client code and cost for all three servers). One
 * official socket.io-client watches the Socket.IO run beside them, as a check that the direct protocol
 * is the real one: it must receive every message the run sent.
 *
 * Latency: every chat text carries `@@<performance.now()>` of its send; each receiving socket subtracts it
 * from its own clock, for every line of a batched frame. Sender and receivers live in this one process,
 * so it is one clock.
 */
import { readFileSync } from "node:fs";
import { io } from "socket.io-client";
import { cpuTimes, rssKiB } from "./lib/proc.ts";
import { LatencyHistogram, round } from "./lib/stats.ts";
import type { Viewer } from "./lib/viewers.ts";

export type Protocol = "dreadcast" | "floor" | "socketio";

export interface Job {
  mode: "fanout" | "idle" | "storm";
  protocol: Protocol;
  /** ws:// URL of the socket endpoint. */
  url: string;
  /** http:// origin sent as Origin. */
  origin: string;
  serverPid: number;
  /** A cluster: socket i opens to urls[i % n] with origins[i % n]; the CPU of every serverPids process counts. */
  urls?: string[];
  origins?: string[];
  serverPids?: number[];
  /** The broker between them (Redis): its CPU time is reported apart. */
  brokerPid?: number;
  /** Sockets to open; dreadcast needs as many viewers (cookies) as this. */
  sockets: number;
  viewers?: Viewer[];
  /** Chat senders (the first sockets) and each one's messages per second. */
  senders: number;
  rate: number;
  /** Seconds of load before the measured window, and of the window. */
  warmup: number;
  seconds: number;
  /** Storm: hearts per second from each socket. */
  heartRate?: number;
  /** Idle: sockets opened (and kept) before the baseline is read. */
  idleWarm?: number;
  /** Idle: seconds to wait after connecting before memory is read. */
  settle?: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Job;
const log = (text: string) => process.stderr.write(`    [loadgen ${job.protocol}] ${text}\n`);
const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- what every socket counts -------------------------------------------------------------------------

const latency = new LatencyHistogram();
let measuring = false;
let deliveriesInWindow = 0;
/** Frames that carried chat lines (one each, or a batch). */
let chatFramesInWindow = 0;
let deliveriesTotal = 0;
let refused = 0;
/** Per socket: count frames (hearts / viewer_count / stats) received in the window. */
let countFrames: Uint32Array;

const COUNT_PREFIXES = ['{"type":"hearts"', '{"type":"viewer_count"', '{"type":"stats"'];

function onFrame(index: number, data: string): void {
  let at = data.indexOf("@@");
  if (at !== -1 && !data.startsWith('{"type":"chatHistory"')) {
    // One line per frame, or a batch of them: each line is a delivery, its latency from its own send time.
    const received = now();
    if (measuring) chatFramesInWindow++;
    do {
      deliveriesTotal++;
      if (measuring) {
        deliveriesInWindow++;
        latency.record(received - parseFloat(data.slice(at + 2, at + 24)));
      }
      at = data.indexOf("@@", at + 2);
    } while (at !== -1);
    return;
  }
  if (data.charCodeAt(0) !== 123) return;
  if (measuring && COUNT_PREFIXES.some((p) => data.startsWith(p))) countFrames[index]!++;
  else if (data.startsWith('{"type":"system_message"') || data.startsWith('{"type":"error"')) {
    refused++;
    if (refused <= 3) log(`refused: ${data.slice(0, 160)}`);
  }
}

// --- sockets -----------------------------------------------------------------------------------------

interface Client {
  ws: WebSocket;
  sendChat(text: string): void;
  sendHeart(): void;
}

const serverPids = job.serverPids ?? [job.serverPid];

/** Server processes gone during the run (a crash under the load): their CPU time stops at what was last read. */
const lastCpu = new Map<number, { user: number; system: number }>();
const exited = new Set<number>();

/** User and system CPU seconds of the server (every process of a cluster) so far. */
function serverCpuTimes(): { user: number; system: number } {
  let user = 0;
  let system = 0;
  for (const pid of serverPids) {
    let times = lastCpu.get(pid) ?? { user: 0, system: 0 };
    try {
      times = cpuTimes(pid);
      lastCpu.set(pid, times);
    } catch {
      if (!exited.has(pid)) log(`server process ${pid} is gone`);
      exited.add(pid);
    }
    user += times.user;
    system += times.system;
  }
  return { user, system };
}

function open(index: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    const viewer = job.viewers?.[index];
    const url = job.urls ? job.urls[index % job.urls.length]! : job.url;
    const origin = job.origins ? job.origins[index % job.origins.length]! : job.origin;
    if (job.protocol === "dreadcast") {
      if (!viewer) throw new Error(`no viewer session for socket ${index}`);
      ws = new WebSocket(url, { headers: { cookie: viewer.cookie, origin, "x-forwarded-for": viewer.ip } } as unknown as string[]);
    } else if (job.protocol === "socketio") {
      ws = new WebSocket(`${url}?EIO=4&transport=websocket`);
    } else {
      ws = new WebSocket(url);
    }
    let ready = false;
    const client: Client = {
      ws,
      sendChat: job.protocol === "socketio" ? (text) => ws.send(`42["chat",${JSON.stringify({ text })}]`) : (text) => ws.send(JSON.stringify({ type: "chat_message", text })),
      sendHeart: () => ws.send('{"type":"send_heart"}'),
    };
    const becomeReady = () => {
      ready = true;
      resolve(client);
    };
    ws.onmessage = (event) => {
      const data = event.data as string;
      if (job.protocol === "socketio") {
        // Engine.IO: 0 = open, 2 = ping (answer 3), 4 = message; Socket.IO: 40 = connected, 42 = event.
        if (data === "2") return ws.send("3");
        if (data.startsWith("0{")) return ws.send("40");
        if (data.startsWith("40")) return becomeReady();
        return onFrame(index, data);
      }
      if (!ready) {
        // dreadcast: the history frame comes first on a new socket.
        if (job.protocol === "dreadcast" && data.startsWith('{"type":"chatHistory"')) return becomeReady();
      }
      onFrame(index, data);
    };
    ws.onopen = () => {
      if (job.protocol === "floor") becomeReady();
    };
    ws.onerror = () => {
      if (!ready) reject(new Error(`socket ${index} failed to open`));
    };
    ws.onclose = (event) => {
      if (!ready) reject(new Error(`socket ${index} closed before ready (${event.code} ${event.reason})`));
      else if (!closing) {
        unexpectedCloses++;
        if (unexpectedCloses <= 3) log(`socket ${index} closed: ${event.code} ${event.reason}`);
      }
    };
  });
}

let closing = false;
let unexpectedCloses = 0;

/** An official socket.io-client that counts the chat messages it is sent. */
async function officialClient(): Promise<{ received(): number; close(): void }> {
  const socket = io(job.origin, { transports: ["websocket"], reconnection: false });
  let received = 0;
  socket.on("chat", (message: { text?: string }) => {
    if (message.text?.includes("@@")) received++;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return { received: () => received, close: () => socket.close() };
}

async function connectAll(count: number, offset: number, batch = 100): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < count; i += batch) {
    const n = Math.min(batch, count - i);
    clients.push(...(await Promise.all(Array.from({ length: n }, (_, k) => open(offset + i + k)))));
  }
  return clients;
}

// --- load --------------------------------------------------------------------------------------------

/**
 * Sends `total` per second spread evenly over the sockets in turn (a 2 ms tick), so each of `targets`
 * sends total/targets per second at a steady spacing. Returns a stop function.
 */
function pace(targets: Client[], perSecond: number, send: (client: Client, seq: number) => void): { sent(): number; stop(): number } {
  if (targets.length === 0 || perSecond <= 0) return { sent: () => 0, stop: () => 0 };
  const started = now();
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((now() - started) / 1000) * perSecond);
    while (sent < due) {
      send(targets[sent % targets.length]!, sent);
      sent++;
    }
  }, 2);
  return {
    sent: () => sent,
    stop() {
      clearInterval(timer);
      return sent;
    },
  };
}

const chatText = (seq: number) => `bench line ${seq} @@${now().toFixed(3)}`;

function peakRss(): { read(): number; stop(): void } {
  const read = () => {
    try {
      return rssKiB(job.serverPid);
    } catch {
      return 0;
    }
  };
  let peak = read();
  const timer = setInterval(() => (peak = Math.max(peak, read())), 250);
  return { read: () => Math.max(peak, read()), stop: () => clearInterval(timer) };
}

async function measuredLoad(clients: Client[], extra?: () => ReturnType<typeof pace>) {
  const senders = clients.slice(0, job.senders);
  const chat = pace(senders, job.senders * job.rate, (c, seq) => c.sendChat(chatText(seq)));
  const other = extra?.();
  await sleep(job.warmup * 1000);
  const rss = peakRss();
  const cpu0 = serverCpuTimes();
  const broker0 = job.brokerPid ? cpuTimes(job.brokerPid) : null;
  const own0 = process.cpuUsage();
  const t0 = now();
  const chatBefore = chat.sent();
  const otherBefore = other?.sent() ?? 0;
  measuring = true;
  // Read every half second, so a server that dies under the load is counted up to (nearly) its end.
  const sampling = setInterval(serverCpuTimes, 500);
  await sleep(job.seconds * 1000);
  measuring = false;
  clearInterval(sampling);
  const elapsed = (now() - t0) / 1000;
  const cpu1 = serverCpuTimes();
  const serverCpu = cpu1.user + cpu1.system - cpu0.user - cpu0.system;
  const broker1 = job.brokerPid ? cpuTimes(job.brokerPid) : null;
  const brokerCpu = broker0 && broker1 ? broker1.user + broker1.system - broker0.user - broker0.system : 0;
  const serverSystem = cpu1.system - cpu0.system;
  const own = process.cpuUsage(own0);
  const rssPeak = rss.read();
  rss.stop();
  const chatInWindow = chat.sent() - chatBefore;
  const otherInWindow = (other?.sent() ?? 0) - otherBefore;
  const chatSent = chat.stop();
  other?.stop();
  await sleep(1500);
  const expected = chatSent * clients.length;
  return {
    seconds: round(elapsed, 2),
    chatSent,
    chatSentPerSec: round(chatInWindow / elapsed, 1),
    otherSentPerSec: round(otherInWindow / elapsed, 0),
    deliveries: deliveriesInWindow,
    deliveriesPerSec: round(deliveriesInWindow / elapsed, 0),
    linesPerFrame: round(deliveriesInWindow / Math.max(1, chatFramesInWindow), 2),
    latencyMs: Object.fromEntries(Object.entries(latency.summary()).map(([k, v]) => [k, round(v, 2)])),
    serverCpuSeconds: round(serverCpu, 2),
    serverCpuPercent: round((100 * serverCpu) / elapsed, 1),
    /** The kernel's share of the server's CPU time (sending on loopback includes the receiver's TCP work). */
    serverSystemShare: round(serverSystem / Math.max(serverCpu, 0.01), 2),
    cpuSecondsPer100k: round((serverCpu / Math.max(1, deliveriesInWindow)) * 100_000, 3),
    deliveriesPerCpuSecond: round(deliveriesInWindow / Math.max(serverCpu, 0.01), 0),
    /** With a broker: its CPU, and the figures counting it with the servers'. */
    brokerCpuPercent: round((100 * brokerCpu) / elapsed, 0),
    cpuSecondsPer100kWithBroker: round(((serverCpu + brokerCpu) / Math.max(1, deliveriesInWindow)) * 100_000, 3),
    deliveriesPerCpuSecondWithBroker: round(deliveriesInWindow / Math.max(serverCpu + brokerCpu, 0.01), 0),
    serverRssKiB: rssPeak,
    loadgenCpuPercent: round((100 * (own.user + own.system)) / 1e6 / elapsed, 0),
    lost: Math.max(0, expected - deliveriesTotal),
    lostPercent: round((100 * Math.max(0, expected - deliveriesTotal)) / Math.max(1, expected), 2),
    refused,
    unexpectedCloses,
    serversExited: exited.size,
  };
}

async function main(): Promise<unknown> {
  const t0 = now();
  if (job.mode === "idle") {
    const warm = job.idleWarm ?? 100;
    const first = await connectAll(warm, 0);
    await sleep(2000);
    const before = rssKiB(job.serverPid);
    log(`baseline ${before} KiB with ${warm} sockets; opening ${job.sockets} more`);
    const rest = await connectAll(job.sockets, warm);
    const connectSeconds = (now() - t0) / 1000;
    const samples: number[] = [];
    for (let s = 0; s < (job.settle ?? 5); s++) {
      await sleep(1000);
      samples.push(rssKiB(job.serverPid));
    }
    const after = samples.at(-1)!;
    closing = true;
    for (const c of [...first, ...rest]) c.ws.close();
    return {
      sockets: job.sockets,
      connectSeconds: round(connectSeconds, 1),
      rssBeforeKiB: before,
      rssAfterKiB: after,
      rssSamplesKiB: samples,
      perSocketKiB: round((after - before) / job.sockets, 2),
      unexpectedCloses,
    };
  }

  const clients = await connectAll(job.sockets, 0);
  countFrames = new Uint32Array(clients.length);
  log(`${clients.length} sockets open in ${((now() - t0) / 1000).toFixed(1)} s`);
  await sleep(1000);

  if (job.mode === "fanout") {
    const observer = job.protocol === "socketio" ? await officialClient() : null;
    const result = await measuredLoad(clients);
    closing = true;
    for (const c of clients) c.ws.close();
    observer?.close();
    if (observer && observer.received() !== result.chatSent) log(`the official socket.io-client got ${observer.received()} of ${result.chatSent} messages`);
    // Count frames (hearts, viewer_count, stats) each viewer got besides the chat: writes the fan-out pays too.
    const countFramesPerViewerPerSec = round(countFrames.reduce((a, b) => a + b, 0) / clients.length / result.seconds, 2);
    return { sockets: clients.length, ...result, countFramesPerViewerPerSec, ...(observer ? { officialClientReceived: observer.received() } : {}) };
  }

  // storm: every socket sends hearts at heartRate, the senders chat as in the fan-out.
  const heartRate = job.heartRate ?? 10;
  const result = await measuredLoad(clients, () => pace(clients, clients.length * heartRate, (c) => c.sendHeart()));
  const perViewer = Array.from(countFrames, (n) => n / result.seconds);
  closing = true;
  for (const c of clients) c.ws.close();
  return {
    sockets: clients.length,
    heartRate,
    ...result,
    countFramesPerViewerPerSec: {
      mean: round(perViewer.reduce((a, b) => a + b, 0) / perViewer.length, 2),
      max: round(Math.max(...perViewer), 2),
    },
  };
}

const result = await main();
process.stdout.write(JSON.stringify(result) + "\n");
process.exit(0);
