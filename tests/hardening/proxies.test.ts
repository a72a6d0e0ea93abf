import { afterEach, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ACCESS_PRODUCT } from "../../src/contracts/payments.ts";
import { clientAddress } from "../../src/http/client-ip.ts";
import { type PublishSession, startRtmpServer } from "../../src/modules/ingest/rtmp/server.ts";
import { RawRtmpClient, recordingSink } from "../support/rtmp.ts";
import { CADDY, NGINX, OPENSSL, request, ROOT, SITE, startCaddy, startEcho, startNginx, substitute, upgrade, type Echoed, type RunningProxy } from "../support/proxies.ts";
import { defaultConfig } from "../../src/config.ts";
import { createContext, disposeContext } from "../../src/context.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { databaseForDataDir, TEST_ENGINE } from "../support/postgres.ts";
import { startServer } from "../support/server.ts";
import { viewerSession } from "../support/viewer.ts";
import { tempDir } from "../support/hardening.ts";

/**
 * Every shipped proxy configuration — deploy/cluster/nginx.conf, deploy/cluster/Caddyfile,
 * deploy/cluster/Caddyfile.compose and the README's Caddy example — run for real in front of an echo of what
 * arrives and in front of the server: each path gets the viewer's address, the site's host and the scheme,
 * so that the per-address limits count each viewer, and an X-Forwarded-For the viewer made up gains nothing.
 */

/** Session cookies of `count` viewers let in through the data directory's database, before the server starts. */
async function viewerCookies(dataDir: string, count: number): Promise<string[]> {
  const store = await openStore({ dataDir, databaseUrl: TEST_ENGINE === "postgres" ? await databaseForDataDir(dataDir) : null });
  const ctx = await createContext({ ...defaultConfig(), dataDir }, store, silentLogger);
  try {
    const cookies: string[] = [];
    for (let i = 0; i < count; i++) cookies.push((await viewerSession(ctx, `viewer${i}`)).cookie);
    return cookies;
  } finally {
    await disposeContext(ctx);
    await closeStore(store);
  }
}

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The README's Caddy example: the fenced block of *Deploying* that proxies to 127.0.0.1:3000. */
function readmeCaddyExample(): string {
  const block = /```\n(\s*live\.example\.com \{\n\s*reverse_proxy 127\.0\.0\.1:3000\n\s*\}\n)\s*```/.exec(read("README.md"));
  if (!block) throw new Error("README.md no longer holds its Caddy example (live.example.com → 127.0.0.1:3000)");
  return block[1]!;
}

interface ShippedProxy {
  name: string;
  missing: string | null;
  /** The scheme the proxy tells the server the viewer used. */
  scheme: "https" | "http";
  start(backends: [number, number, number]): Promise<RunningProxy>;
}

const caddyMissing = CADDY ? null : "no caddy (apt-get install caddy)";
const PROXIES: ShippedProxy[] = [
  {
    name: "deploy/cluster/nginx.conf",
    missing: !NGINX ? "no nginx (apt-get install nginx-light)" : !OPENSSL ? "no openssl for its certificate" : null,
    scheme: "https",
    start: (backends) => startNginx(backends),
  },
  {
    name: "deploy/cluster/Caddyfile",
    missing: caddyMissing,
    scheme: "http",
    start: ([a, b, c]) =>
      startCaddy(read("deploy/cluster/Caddyfile"), (text, site) =>
        substitute(text, [
          [/^live\.example\.com \{$/gm, `${site} {`],
          ["127.0.0.1:3001 127.0.0.1:3002 127.0.0.1:3003", `127.0.0.1:${a} 127.0.0.1:${b} 127.0.0.1:${c}`],
        ]),
      ),
  },
  {
    name: "deploy/cluster/Caddyfile.compose",
    missing: caddyMissing,
    scheme: "http",
    start: ([a, b, c]) =>
      startCaddy(
        read("deploy/cluster/Caddyfile.compose"),
        (text) => substitute(text, [["dreadcast-1:3000 dreadcast-2:3000 dreadcast-3:3000", `127.0.0.1:${a} 127.0.0.1:${b} 127.0.0.1:${c}`]]),
        (site) => ({ SITE_ADDRESS: site }),
      ),
  },
  {
    name: "README.md's Caddy example",
    missing: caddyMissing,
    scheme: "http",
    start: ([a]) =>
      startCaddy(readmeCaddyExample(), (text, site) =>
        substitute(text, [
          ["live.example.com {", `${site} {`],
          ["127.0.0.1:3000", `127.0.0.1:${a}`],
        ]),
      ),
  },
];

for (const proxy of PROXIES) if (proxy.missing) console.log(`SKIPPED: the tests of ${proxy.name} (${proxy.missing})`);

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function echoes(): Promise<Server<Echoed>[]> {
  const servers = [startEcho(), startEcho(), startEcho()];
  cleanup.push(() => servers.forEach((s) => void s.stop(true)));
  return servers;
}

/** The address the server works out from what `echoed` received, the proxy being its peer at 127.0.0.1. */
const addressSeen = (echoed: Echoed) => clientAddress("127.0.0.1", echoed.headers["x-forwarded-for"] ?? null, ["127.0.0.1"]);

for (const proxy of PROXIES) {
  describe.skipIf(proxy.missing !== null)(proxy.name, () => {
    test("passes the viewer's address, the site's host and the scheme on every path, the chat's socket too; a made-up X-Forwarded-For is not believed", async () => {
      const [a, b, c] = await echoes();
      const running = await proxy.start([a!.port!, b!.port!, c!.port!]);
      cleanup.push(() => running.stop());
      const requests: [string, string, string, string][] = [
        ["127.0.0.2", "GET", "/", ""],
        ["127.0.0.3", "GET", "/api/livestream-settings", ""],
        ["127.0.0.4", "POST", "/api/create-payment-intent", '{"email":"a@b.co"}'],
        ["127.0.0.5", "GET", "/api/stream/hls/stream.m3u8", ""],
      ];
      for (const [from, method, path, body] of requests) {
        const answer = await request(running, from, method, path, body ? { "Content-Type": "application/json" } : {}, body);
        expect(answer.status).toBe(200);
        const echoed = JSON.parse(answer.body) as Echoed;
        expect({ method: echoed.method, path: echoed.path }).toEqual({ method, path });
        expect(echoed.headers.host).toBe(SITE);
        expect(echoed.headers["x-forwarded-for"]).toBe(from);
        expect(echoed.headers["x-forwarded-proto"]).toBe(proxy.scheme);
        expect(addressSeen(echoed)).toBe(from);
      }
      // A client naming another address (or a trusted one) is still its own address to the server.
      for (const forged of ["203.0.113.9", "127.0.0.1", "198.51.100.7, 127.0.0.1"]) {
        const answer = await request(running, "127.0.0.6", "POST", "/api/create-payment-intent", { "X-Forwarded-For": forged, "Content-Type": "application/json" }, "{}");
        expect(addressSeen(JSON.parse(answer.body) as Echoed)).toBe("127.0.0.6");
      }
      // The chat's socket: its own location in nginx.conf.
      const socket = await upgrade(running, "127.0.0.7", { "X-Forwarded-For": "203.0.113.9", Origin: `https://${SITE}` });
      socket.close();
      expect(socket.status).toBe(101);
      const echoed = JSON.parse(socket.first) as Echoed;
      expect(echoed.path).toBe("/ws");
      expect(echoed.headers.host).toBe(SITE);
      expect(echoed.headers.upgrade?.toLowerCase()).toBe("websocket");
      expect(echoed.headers["x-forwarded-proto"]).toBe(proxy.scheme);
      expect(addressSeen(echoed)).toBe("127.0.0.7");
    }, 30_000);

    test("in front of the server, the per-address limits count each viewer: 25 viewers from 25 addresses open all their 125 sockets, 32 buyers all pay, and an address making up X-Forwarded-For is held to its own limits", async () => {
      const dataDir = tempDir("proxied");
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const everyone = await viewerCookies(dataDir, 50);
      const [viewers, crowdViewers] = [everyone.slice(0, 25), everyone.slice(25)];
      const server = await startServer(dataDir, ["--trust-proxy", "127.0.0.1", "--public-url", `https://${SITE}`]);
      cleanup.push(() => server.kill());
      const port = Number(new URL(server.url).port);
      const running = await proxy.start([port, port, port]);
      cleanup.push(() => running.stop());
      const intent = (from: string, headers: Record<string, string> = {}) =>
        request(
          running,
          from,
          "POST",
          "/api/create-payment-intent",
          { "Content-Type": "application/json", Origin: `https://${SITE}`, ...headers },
          JSON.stringify({ product: ACCESS_PRODUCT, email: "buyer@dreadcast.test" }),
        );

      const buyers = Array.from({ length: 32 }, (_, i) => `127.0.1.${i + 1}`);
      const answers = [];
      for (const from of buyers) answers.push((await intent(from)).status);
      expect(answers).toEqual(buyers.map(() => 200));

      const forger = "127.0.2.1";
      for (let i = 1; i <= 30; i++) expect((await intent(forger, { "X-Forwarded-For": `198.51.100.${i}` })).status).toBe(200);
      const refused = await intent(forger, { "X-Forwarded-For": "198.51.100.31" });
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toEqual({ error: "Too many payment attempts. Please try again later." });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      // The others are unaffected by the forger's count.
      expect((await intent("127.0.1.1")).status).toBe(200);

      // Chat sockets: 5 per person, 100 per address. Each viewer on an address of their own opens all five.
      const socket = async (from: string, cookie: string, headers: Record<string, string> = {}) => {
        const opened = await upgrade(running, from, { Origin: `https://${SITE}`, Cookie: cookie, ...headers });
        cleanup.push(() => opened.close());
        return opened;
      };
      const statuses: number[] = [];
      for (const [i, cookie] of viewers.entries()) for (let n = 0; n < 5; n++) statuses.push((await socket(`127.0.3.${i + 1}`, cookie)).status);
      expect(statuses).toEqual(viewers.flatMap(() => [101, 101, 101, 101, 101]));
      // One address whose viewers name a new X-Forwarded-For on every socket still has 100 sockets, then is refused.
      const crowd = "127.0.4.1";
      const crowded: number[] = [];
      for (const [i, cookie] of crowdViewers.entries())
        for (let n = 0; n < 4; n++) crowded.push((await socket(crowd, cookie, { "X-Forwarded-For": `198.51.100.${i * 4 + n + 1}` })).status);
      expect(crowded).toEqual(crowdViewers.flatMap(() => [101, 101, 101, 101]));
      const refusedSocket = await socket(crowd, crowdViewers[0]!, { "X-Forwarded-For": "203.0.113.200" });
      expect(refusedSocket.status).toBe(429);
      expect(JSON.parse(refusedSocket.first)).toEqual({ error: "Too many connections from your network. Please try again later." });
    }, 60_000);
  });
}

const STREAM_MODULE = existsSync("/usr/lib/nginx/modules/ngx_stream_module.so");
describe.skipIf(!NGINX || !OPENSSL || !STREAM_MODULE)("deploy/cluster/nginx.conf's RTMP pass-through", () => {
  test("names each publisher's address to the instance in a PROXY header: the door counts the publisher, not nginx", async () => {
    const sessions: PublishSession[] = [];
    const servers = await Promise.all(
      [0, 1, 2].map(() =>
        startRtmpServer({
          port: 0,
          host: "127.0.0.1",
          logger: silentLogger,
          trustProxy: ["127.0.0.1"],
          authorize: (_app, key) => (key === "right-key" ? "ok" : "bad key"),
          onPublish: (session) => (sessions.push(session), recordingSink().sink),
        }),
      ),
    );
    cleanup.push(() => Promise.all(servers.map((server) => server.close())));
    const [a, b, c] = await echoes();
    const running = await startNginx([a!.port!, b!.port!, c!.port!], [servers[0]!.port, servers[1]!.port, servers[2]!.port]);
    cleanup.push(() => running.stop());
    const publisher = await RawRtmpClient.open(running.rtmpPort!, true, "127.0.0.7");
    await publisher.publish("right-key");
    expect(publisher.statusCodes()).toEqual(["NetStream.Publish.Start"]);
    expect(sessions.map((session) => session.remoteAddress)).toEqual(["127.0.0.7"]);
    publisher.socket.destroy();
    // Wrong keys through nginx hold only the address that sent them.
    for (let i = 0; i < 6; i++) {
      const wrong = await RawRtmpClient.open(running.rtmpPort!, true, "127.0.0.8");
      await wrong.publish(`wrong-${i}`);
      wrong.socket.destroy();
    }
    const reports = servers.flatMap((server) => server.wrongKeys());
    expect(new Set(reports.map((report) => report.address))).toEqual(new Set(["127.0.0.8"]));
  }, 30_000);
});
