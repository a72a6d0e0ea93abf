import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { defaultConfig, parseServeArgs, serveHelp } from "../../src/config.ts";
import { createContext, disposeContext } from "../../src/context.ts";
import { closeStore, openStore } from "../../src/db/database.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { loginAsAdmin, startTestApp, type TestApp, type TestClient } from "../support/app.ts";
import { eventually } from "../support/eventually.ts";
import { startServer, type ServerProcess } from "../support/server.ts";
import { viewerSession } from "../support/viewer.ts";
import { startHlsOrigin, type HlsOrigin } from "../support/hls-origin.mjs";
import { databaseForDataDir, TEST_ENGINE } from "../support/postgres.ts";
import { tempDir } from "../support/hardening.ts";

/**
 * The HLS relay under attack. A viewer's requests cannot make the server hold hundreds of MB (only what
 * the playlists name is fetched, each file once and up to a bounded size, requests limited per session),
 * and an admin cannot point the relay inside the host (refused on save and at every fetch, unless the
 * operator says the origin is on their own network with --allow-private-origins).
 */

const MiB = 1024 * 1024;
const BIG = 40 * MiB;
const HUGE = 300 * MiB;
/** What the relay may grow by under each attack: one 40 MB file (or 64 MiB of one cut off) and what is in flight, not ten of them or a whole 300 MB one. */
const GROWTH_LIMIT_KIB = 128 * 1024;
/** Past this the attack has won: the server is stopped before it takes the machine with it. */
const RUNAWAY_KIB = 1024 * 1024;

// A VOD playlist: the server's own recording of a live stream leaves it alone, so every fetch here is a viewer's.
const PLAYLIST = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD"]
  .concat(["segment-0.ts", "big.ts", "huge.ts", "endless.ts"].flatMap((uri) => ["#EXTINF:2.000000,", uri]))
  .join("\n");

/** The server's resident memory: the lowest of a few readings (the collector's timing is not ours), and the highest while `attack` runs. */
async function rssDuring<T>(server: ServerProcess, attack: () => Promise<T>): Promise<{ result: T; growthKiB: number }> {
  let before = Infinity;
  for (let i = 0; i < 4; i++) {
    before = Math.min(before, server.rssKiB());
    await Bun.sleep(150);
  }
  let peak = before;
  let sampling = true;
  let runaway = false;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, server.rssKiB());
      if (peak - before > RUNAWAY_KIB) {
        runaway = true;
        await server.kill();
        return;
      }
      await Bun.sleep(20);
    }
  })();
  try {
    const result = await attack();
    // Whatever the attack set going still runs for a moment after its answers.
    await Bun.sleep(500);
    return { result, growthKiB: peak - before };
  } catch (error) {
    if (runaway) throw new Error(`the server grew by more than ${RUNAWAY_KIB / 1024} MiB and was stopped`);
    throw error;
  } finally {
    sampling = false;
    await sampler;
  }
}

describe("the relay's memory, on the real server process", () => {
  let origin: HlsOrigin;
  let server: ServerProcess;
  const dataDir = tempDir("relay");
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    origin = await startHlsOrigin({ playlistText: PLAYLIST, bigSegments: { "big.ts": BIG, "huge.ts": HUGE, "endless.ts": Infinity } });
    const config = { ...defaultConfig(), dataDir, allowPrivateOrigins: true };
    const store = await openStore({ dataDir, databaseUrl: TEST_ENGINE === "postgres" ? await databaseForDataDir(dataDir) : null });
    const ctx = await createContext(config, store, silentLogger);
    for (const name of ["ranger", "hoarder", "hasty", "patient"]) cookies[name] = (await viewerSession(ctx, name)).cookie;
    await ctx.stream.save({ kind: "hls", originUrl: origin.playlistUrl });
    await disposeContext(ctx);
    await closeStore(store);
    // The origin runs on this machine, beside the server.
    server = await startServer(dataDir, ["--allow-private-origins"]);
  });

  afterAll(async () => {
    await server?.kill();
    await origin?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (who: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/stream/hls/${path}`, { headers: { cookie: cookies[who]!, ...headers } });

  test("ten parallel one-byte ranges of a 40 MB segment under ten query strings fetch nothing; ten of it as named fetch it once", async () => {
    const { result, growthKiB } = await rssDuring(server, async () => {
      const renamed = await Promise.all(Array.from({ length: 10 }, (_, i) => get("ranger", `big.ts?v=${i + 1}`, { range: "bytes=0-0" })));
      const renamedStatuses = await Promise.all(renamed.map(async (r) => (await r.arrayBuffer(), r.status)));
      const fetchedForRenamed = origin.count("/hls/big.ts");
      const named = await Promise.all(Array.from({ length: 10 }, () => get("ranger", "big.ts", { range: "bytes=0-0" })));
      const parts = await Promise.all(named.map(async (r) => ({ status: r.status, range: r.headers.get("content-range"), bytes: (await r.arrayBuffer()).byteLength })));
      return { renamedStatuses, fetchedForRenamed, parts };
    });
    expect(growthKiB).toBeLessThan(GROWTH_LIMIT_KIB);
    expect(result.renamedStatuses).toEqual(Array(10).fill(404));
    expect(result.fetchedForRenamed).toBe(0);
    expect(result.parts).toEqual(Array(10).fill({ status: 206, range: `bytes 0-0/${BIG}`, bytes: 1 }));
    expect(origin.count("/hls/big.ts")).toBe(1);
  });

  test("a 300 MB segment and one that never ends are refused once past the size bound, the origin's connection dropped", async () => {
    const { result, growthKiB } = await rssDuring(server, async () => {
      const answers = await Promise.all(["huge.ts", "endless.ts"].map((path) => get("hoarder", path)));
      return Promise.all(answers.map(async (r) => ({ status: r.status, retryAfter: r.headers.get("retry-after"), error: ((await r.json()) as { error: string }).error })));
    });
    expect(growthKiB).toBeLessThan(GROWTH_LIMIT_KIB);
    const refused = { status: 503, retryAfter: "2", error: "The stream cannot be reached right now. Trying again shortly." };
    expect(result).toEqual([refused, refused]);
    // Each was read no further than the bound (plus what the sockets buffered), not to its end or the 15 s timeout.
    const sent = await eventually(
      () => origin.sentBig.get("/hls/huge.ts") && origin.sentBig.get("/hls/endless.ts") && [origin.sentBig.get("/hls/huge.ts")!, origin.sentBig.get("/hls/endless.ts")!],
      10_000,
    );
    expect(sent[0]!.every((bytes) => bytes < HUGE)).toBe(true);
    expect(sent[1]!.every((bytes) => bytes < 128 * MiB)).toBe(true);
    // Asked again, the too-large segment is not fetched again.
    expect((await get("hoarder", "huge.ts")).status).toBe(503);
    expect(origin.count("/hls/huge.ts")).toBe(1);
  });

  test("one session's flood of relay requests gets 429 with Retry-After; another session watches on", async () => {
    expect((await get("patient", "stream.m3u8")).status).toBe(200);
    const statuses: number[] = [];
    let limited: Response | null = null;
    for (let batch = 0; batch < 30 && !limited; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => get("hasty", "stream.m3u8")));
      for (const answer of answers) {
        statuses.push(answer.status);
        if (answer.status === 429) limited ??= answer;
        else await answer.arrayBuffer();
      }
    }
    expect(limited).not.toBeNull();
    // Generous for honest players: over a thousand went through first.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1000);
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited!.json()).toEqual({ error: "Too many requests for the stream from this session. Please wait a moment." });
    expect((await get("patient", "stream.m3u8")).status).toBe(200);
    expect((await get("patient", "segment-0.ts")).status).toBe(200);
  });
});

describe("an HLS origin inside the host", () => {
  let app: TestApp;
  let admin: TestClient;
  let viewerCookie: string;
  const origins: HlsOrigin[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    admin = await loginAsAdmin(app);
    viewerCookie = (await viewerSession(app.ctx, "prober")).cookie;
  });
  afterAll(async () => {
    await app.close();
    await Promise.all(origins.map((o) => o.stop()));
  });

  const why = (address: string, kind: string) =>
    `Origin URL is refused: it points to ${address}, a ${kind} address. The relay fetches from this machine or its private network only when dreadcast runs with --allow-private-origins.`;

  test.each([
    ["the cloud metadata service", "http://169.254.169.254/latest/meta-data/live.m3u8", why("169.254.169.254", "link-local")],
    ["IPv6 loopback", "http://[::1]:8888/live/index.m3u8", why("::1", "loopback")],
    ["loopback written in hex", "http://0x7f000001:8080/hls/stream.m3u8", why("127.0.0.1", "loopback")],
    ["loopback as one number", "http://2130706433:8080/hls/stream.m3u8", why("127.0.0.1", "loopback")],
    ["a secret beside the server", "http://127.0.0.1:9/secret/stream.m3u8", why("127.0.0.1", "loopback")],
    ["a name that resolves to loopback", "http://localhost:8888/live/index.m3u8", why("127.0.0.1", "loopback")],
    ["IPv4 loopback inside IPv6", "http://[::ffff:127.0.0.1]/live.m3u8", why("::ffff:7f00:1", "loopback")],
    ["the private network", "http://10.0.0.5/live.m3u8", why("10.0.0.5", "private")],
    ["a home network", "http://192.168.1.20:8888/live/index.m3u8", why("192.168.1.20", "private")],
    ["an IPv6 unique local address", "http://[fd12:3456::1]/live.m3u8", why("fd12:3456::1", "private")],
    ["IPv6 link-local", "http://[fe80::1]/live.m3u8", why("fe80::1", "link-local")],
    ["the unspecified address", "http://0.0.0.0:8080/live.m3u8", why("0.0.0.0", "unspecified")],
    ["loopback through NAT64", "http://[64:ff9b::127.0.0.1]/live.m3u8", why("64:ff9b::7f00:1", "loopback")],
    [
      "a name that does not resolve",
      "http://origin.invalid/live.m3u8",
      "Origin URL is refused: its host name origin.invalid does not resolve to an address. The relay fetches from this machine or its private network only when dreadcast runs with --allow-private-origins.",
    ],
  ])("refuses %s with a 400 that says why and names the flag, saving nothing", async (_, originUrl, message) => {
    const before = (await admin.get("/api/admin/stream-source")).body;
    const res = await admin.put("/api/admin/stream-source", { kind: "hls", originUrl });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, field: "originUrl" });
    expect((await admin.get("/api/admin/stream-source")).body).toEqual(before);
  });

  test("a public origin is accepted", async () => {
    const res = await admin.put("/api/admin/stream-source", { kind: "hls", originUrl: "https://203.0.113.7/live/index.m3u8" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: "hls", originUrl: "https://203.0.113.7/live/index.m3u8" });
  });

  test("an origin saved before that leads inside the host now (by address or by name) is checked at every fetch and never fetched", async () => {
    const origin = await startHlsOrigin();
    origins.push(origin);
    const { port } = new URL(origin.origin);
    for (const originUrl of [origin.playlistUrl, `http://localhost:${port}/hls/stream.m3u8`]) {
      // As a name that resolved to a public address when saved, and to this machine since.
      await app.ctx.store.run("UPDATE stream_source SET kind = 'hls', fields = ?, watermark = 1 WHERE id = 1", JSON.stringify({ originUrl }));
      await app.ctx.stream.load();
      for (const path of ["stream.m3u8", "segment-0.ts"]) {
        const res = await fetch(`${app.url}/api/stream/hls/${path}`, { headers: { cookie: viewerCookie } });
        expect(`${originUrl} ${path} ${res.status}`).toBe(`${originUrl} ${path} 503`);
      }
    }
    expect(origin.requests.size).toBe(0);
  });
});

describe("an origin allowed on the streamer's own network", () => {
  let app: TestApp;
  let viewerCookie: string;
  const origins: HlsOrigin[] = [];

  beforeAll(async () => {
    app = await startTestApp({ allowPrivateOrigins: true });
    viewerCookie = (await viewerSession(app.ctx, "follower")).cookie;
  });
  afterAll(async () => {
    await app.close();
    await Promise.all(origins.map((o) => o.stop()));
  });

  test("is saved and relayed, and its redirects elsewhere (inside the host or not) are never followed", async () => {
    const elsewhere = await startHlsOrigin();
    const origin = await startHlsOrigin({
      redirects: { "/hls/segment-1.ts": `${elsewhere.origin}/hls/segment-1.ts`, "/hls/segment-2.ts": "http://169.254.169.254/latest/meta-data/segment-2.ts" },
    });
    origins.push(elsewhere, origin);
    const admin = await loginAsAdmin(app);
    expect((await admin.put("/api/admin/stream-source", { kind: "hls", originUrl: origin.playlistUrl })).status).toBe(200);
    const get = (path: string) => fetch(`${app.url}/api/stream/hls/${path}`, { headers: { cookie: viewerCookie } });
    expect((await get("stream.m3u8")).status).toBe(200);
    expect((await get("segment-0.ts")).status).toBe(200);
    expect((await get("segment-1.ts")).status).toBe(503);
    expect((await get("segment-2.ts")).status).toBe(503);
    expect(origin.count("/hls/segment-1.ts")).toBe(1);
    expect(elsewhere.requests.size).toBe(0);
  });
});

test("--allow-private-origins and DREADCAST_ALLOW_PRIVATE_ORIGINS turn the check off; --help lists them; it is on by default", () => {
  expect(parseServeArgs([], {}).allowPrivateOrigins).toBe(false);
  expect(parseServeArgs(["--allow-private-origins"], {}).allowPrivateOrigins).toBe(true);
  expect(parseServeArgs([], { DREADCAST_ALLOW_PRIVATE_ORIGINS: "true" }).allowPrivateOrigins).toBe(true);
  expect(parseServeArgs(["--allow-private-origins=false"], { DREADCAST_ALLOW_PRIVATE_ORIGINS: "1" }).allowPrivateOrigins).toBe(false);
  expect(serveHelp()).toContain("--allow-private-origins");
  expect(serveHelp()).toContain("[env DREADCAST_ALLOW_PRIVATE_ORIGINS]");
});
