import type { Server, Subprocess } from "bun";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connect as connectTls } from "node:tls";
import { freePort } from "./free-port.mjs";
import { selfSignedCertificate } from "./certificate.ts";

/**
 * The shipped proxy configurations (deploy/, and the README's Caddy example) run for real — Debian's nginx
 * and Caddy — with only their addresses substituted: ports, upstreams, the site's name, and the paths of
 * pid, logs and certificate, so that a test tests what ships.
 */

export const ROOT = resolve(import.meta.dir, "../..");
export const NGINX = Bun.which("nginx") ?? Bun.which("nginx", { PATH: "/usr/sbin:/sbin" });
export const CADDY = Bun.which("caddy");
export { OPENSSL } from "./certificate.ts";

/** The site's name in the tests, in place of the examples' live.example.com (which the server refuses). */
export const SITE = "night.dreadcast.test";

export interface RunningProxy {
  /** Where a client connects: the HTTPS port for nginx, the (plain HTTP) site's port for Caddy. */
  port: number;
  tls: boolean;
  /** nginx: the RTMP pass-through's port (stream {}), where the stream module is installed. */
  rtmpPort?: number;
  output(): string;
  stop(): Promise<void>;
}

async function waitForPort(port: number, proc: Subprocess, output: () => string, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect({ host: "127.0.0.1", port });
      socket.once("connect", () => {
        socket.destroy();
        done(true);
      });
      socket.once("error", () => done(false));
    });
    if (open) return;
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`${what} did not start:\n${output()}`);
    await Bun.sleep(50);
  }
}

function collect(proc: Subprocess<"ignore", "pipe", "pipe">): () => string {
  let text = "";
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      const decoder = new TextDecoder();
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    })();
  }
  return () => text;
}

/** Substitutes text that must be in `text` (the test fails when the shipped file no longer holds it). */
export function substitute(text: string, pairs: [string | RegExp, string][]): string {
  for (const [from, to] of pairs) {
    const next = text.replaceAll(from as string, to);
    if (next === text) throw new Error(`the shipped configuration no longer holds ${String(from)}: update the test's substitutions`);
    text = next;
  }
  return text;
}

/**
 * deploy/cluster/nginx.conf in front of `backends` (in place of 127.0.0.1:3001–3003), its TLS site on a free
 * port with a self-signed certificate for SITE. Its IPv6 listens are left out (the machine may have none)
 * and its temp paths set (they default to /var/lib/nginx, which needs root).
 */
export async function startNginx(backends: [number, number, number], rtmpBackends?: [number, number, number]): Promise<RunningProxy> {
  const dir = mkdtempSync(join(tmpdir(), "dreadcast-nginx-"));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  selfSignedCertificate(dir, SITE);
  let conf = readFileSync(join(ROOT, "deploy/cluster/nginx.conf"), "utf8");
  conf = substitute(conf, [
    ["pid /run/nginx.pid;", `pid ${dir}/nginx.pid;`],
    ["/var/log/nginx/", `${dir}/`],
    ["ssl_certificate     /etc/letsencrypt/live/live.example.com/fullchain.pem;", `ssl_certificate ${dir}/cert.pem;`],
    ["ssl_certificate_key /etc/letsencrypt/live/live.example.com/privkey.pem;", `ssl_certificate_key ${dir}/key.pem;`],
    ["live.example.com", SITE],
    [/^\s*listen \[::\]:\d+.*$/gm, ""],
    ["listen 80;", `listen 127.0.0.1:${httpPort};`],
    ["listen 443 ssl", `listen 127.0.0.1:${httpsPort} ssl`],
    ["127.0.0.1:3001", `127.0.0.1:${backends[0]}`],
    ["127.0.0.1:3002", `127.0.0.1:${backends[1]}`],
    ["127.0.0.1:3003", `127.0.0.1:${backends[2]}`],
    ["http {", `http {\n${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((k) => `    ${k}_temp_path ${dir}/${k};`).join("\n")}`],
  ]);
  // The RTMP pass-through (stream {}) on a free port where the stream module is installed (libnginx-mod-stream), left out where not.
  const streamModule = "/usr/lib/nginx/modules/ngx_stream_module.so";
  const rtmpPort = existsSync(streamModule) ? await freePort() : undefined;
  conf = rtmpPort
    ? conf.replace("listen 1935;", `listen 127.0.0.1:${rtmpPort};`).replace("include /etc/nginx/modules-enabled/*.conf;", `load_module ${streamModule};`)
    : conf.replace(/\nstream \{[\s\S]*\n\}\n/, "\n").replace("include /etc/nginx/modules-enabled/*.conf;", "");
  if (rtmpPort && rtmpBackends) {
    conf = substitute(conf, [
      ["127.0.0.1:13001", `127.0.0.1:${rtmpBackends[0]}`],
      ["127.0.0.1:13002", `127.0.0.1:${rtmpBackends[1]}`],
      ["127.0.0.1:13003", `127.0.0.1:${rtmpBackends[2]}`],
    ]);
  }
  writeFileSync(join(dir, "nginx.conf"), conf);
  const proc = Bun.spawn([NGINX!, "-p", dir, "-c", join(dir, "nginx.conf"), "-e", "stderr", "-g", "daemon off;"], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const output = collect(proc);
  await waitForPort(httpsPort, proc, output, "nginx");
  return {
    port: httpsPort,
    tls: true,
    rtmpPort,
    output,
    async stop() {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A Caddyfile run by Caddy, its site on plain HTTP at a free port (`http://SITE:PORT`, so that no
 * certificate is asked of anyone), Caddy's admin endpoint off and its state in a temp dir. `rewrite` makes
 * the file's other substitutions (its upstreams); `env` is Caddy's environment ({$SITE_ADDRESS}).
 */
export async function startCaddy(
  caddyfile: string,
  rewrite: (text: string, siteAddress: string) => string,
  env: (siteAddress: string) => Record<string, string> = () => ({}),
): Promise<RunningProxy> {
  const dir = mkdtempSync(join(tmpdir(), "dreadcast-caddy-"));
  mkdirSync(join(dir, "home"));
  const port = await freePort();
  const siteAddress = `http://${SITE}:${port}`;
  writeFileSync(join(dir, "Caddyfile"), `{\n\tadmin off\n}\n\n${rewrite(caddyfile, siteAddress)}`);
  const home = join(dir, "home");
  const proc = Bun.spawn([CADDY!, "run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
    env: { PATH: process.env.PATH ?? "", HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home, ...env(siteAddress) },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = collect(proc);
  await waitForPort(port, proc, output, "caddy");
  return {
    port,
    tls: false,
    output,
    async stop() {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A connection to the proxy from `from` (any 127.x.y.z address: each is another client to the proxy). */
function open(proxy: RunningProxy, from: string): Promise<Socket> {
  return new Promise((done, fail) => {
    const tcp = connect({ host: "127.0.0.1", port: proxy.port, localAddress: from });
    tcp.once("error", fail);
    if (!proxy.tls) return tcp.once("connect", () => done(tcp));
    tcp.once("connect", () => {
      const tls = connectTls({ socket: tcp, servername: SITE, rejectUnauthorized: false, ALPNProtocols: ["http/1.1"] });
      tls.once("secureConnect", () => done(tls));
      tls.once("error", fail);
    });
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine, ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(" ")[1]), headers };
}

/**
 * One HTTP/1.0 request through the proxy from the address `from` (HTTP/1.0: the answer ends with the
 * connection, never chunked), as a browser at that address would send it, plus `headers`.
 */
export async function request(proxy: RunningProxy, from: string, method: string, path: string, headers: Record<string, string> = {}, body = ""): Promise<RawResponse> {
  const socket = await open(proxy, from);
  const bytes: Buffer[] = [];
  const ended = new Promise<void>((done, fail) => {
    socket.on("data", (chunk: Buffer) => bytes.push(chunk));
    socket.once("end", () => done());
    socket.once("close", () => done());
    socket.once("error", fail);
  });
  const lines = [`${method} ${path} HTTP/1.0`, `Host: ${SITE}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
  await ended;
  socket.destroy();
  const text = Buffer.concat(bytes).toString();
  const split = text.indexOf("\r\n\r\n");
  return { ...parseHead(text.slice(0, split)), body: text.slice(split + 4) };
}

export interface RawSocket {
  status: number;
  /** The first text frame the server sent (after a 101), or the refusal's body. */
  first: string;
  close(): void;
}

/** A WebSocket upgrade of /ws through the proxy from `from`, left open: its status and first frame (or body). */
export async function upgrade(proxy: RunningProxy, from: string, headers: Record<string, string> = {}): Promise<RawSocket> {
  const socket = await open(proxy, from);
  const close = () => socket.destroy();
  let buffer = Buffer.alloc(0);
  const result = new Promise<RawSocket>((done, fail) => {
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const split = buffer.indexOf("\r\n\r\n");
      if (split < 0) return;
      const { status, headers: answered } = parseHead(buffer.subarray(0, split).toString());
      const rest = buffer.subarray(split + 4);
      if (status !== 101) {
        if (rest.length < Number(answered["content-length"] ?? 0)) return;
        return done({ status, first: rest.toString(), close });
      }
      if (rest.length < 2) return;
      let length = rest[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (rest.length < 4) return;
        length = rest.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (rest.length < 10) return;
        length = Number(rest.readBigUInt64BE(2));
        offset = 10;
      }
      if (rest.length < offset + length) return;
      done({ status, first: rest.subarray(offset, offset + length).toString(), close });
    });
    socket.once("error", fail);
    socket.once("close", () => fail(new Error(`closed before an answer: ${buffer.toString().slice(0, 200)}`)));
  });
  const lines = [
    "GET /ws HTTP/1.1",
    `Host: ${SITE}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    `Sec-WebSocket-Key: ${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64")}`,
    "Sec-WebSocket-Version: 13",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  return await result;
}

/** What arrived at an echo backend: the request line's method and path, and every header. */
export interface Echoed {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** A backend that answers every request (and /ws's first frame) with what arrived; /readyz answers 200 too. */
export function startEcho(): Server<Echoed> {
  return Bun.serve<Echoed>({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, server) {
      const url = new URL(req.url);
      const echoed: Echoed = { method: req.method, path: url.pathname + url.search, headers: Object.fromEntries(req.headers) };
      if (url.pathname === "/ws" && server.upgrade(req, { data: echoed })) return undefined;
      return Response.json(echoed);
    },
    websocket: {
      open(ws) {
        ws.send(JSON.stringify(ws.data));
      },
      message() {},
    },
  });
}
