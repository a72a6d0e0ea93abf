/**
 * The RTMP door against floods, on the real server in a process of its own (`bun src/main.ts`, as an
 * operator runs it) with FFmpeg publishing live throughout, as an attacker without the stream key would
 * try to ruin the night: connections looping object-heavy AMF commands, idle sockets filling the
 * allowance for connections not publishing, TLS sockets that never say hello, and hundreds of wrong keys.
 * The attackers connect from other loopback addresses (127.0.0.2 and up: other hosts, as the server sees
 * them) than the broadcaster (127.0.0.1).
 * While each runs, a viewer's LL-HLS player must keep getting a new part at least every 2 × PART-TARGET
 * and `/readyz` must answer within 200 ms at p95; a correct-key publish must always get through the door,
 * and the broadcaster's reconnect (over RTMPS) must be taken. Then the key holder's own bombs: a publish
 * pushed faster than real time is held to its pace. What a flood sent that once broke the door is kept
 * under tests/fixtures/rtmp/ and replayed first.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { encodeAmf0 } from "../../src/modules/ingest/rtmp/amf0.ts";
import { MessageType } from "../../src/modules/ingest/rtmp/chunks.ts";
import { TestClient } from "../support/app.ts";
import { OPENSSL, selfSignedCertificate } from "../support/certificate.ts";
import { eventually } from "../support/eventually.ts";
import { freePort } from "../support/free-port.mjs";
import { startServer, type ServerProcess } from "../support/server.ts";
import { buyDemoCode, enter } from "../support/viewer.ts";
import { FFMPEG, publish, type Publisher, RawRtmpClient } from "../support/rtmp.ts";

const ROOT = resolve(import.meta.dir, "../..");
const FIXTURES = join(ROOT, "tests/fixtures/rtmp");
const missing = !FFMPEG ? "no ffmpeg" : !OPENSSL ? "no openssl" : null;
if (missing) console.log(`SKIPPED: the RTMP flood tests against the real server (${missing})`);

const LIVE = "/api/stream/live/";
const PART_TARGET_S = 0.334;

let dir = "";
let server: ServerProcess | null = null;
let rtmpPort = 0;
let rtmpsPort = 0;
let streamKey = "";
let admin: TestClient;
let viewer: TestClient;
const publishers: Publisher[] = [];

/** Keeps `count` connections doing `work` until `stop()`: each one closed (by the server) is opened again. */
function keep(count: number, open: () => Promise<void>): { stop(): void } {
  let running = true;
  const loop = async () => {
    while (running) {
      await open().catch(() => {});
      await Bun.sleep(5);
    }
  };
  for (let i = 0; i < count; i++) void loop();
  return { stop: () => (running = false) };
}

/** A flood in a process of its own (tests/support/media/rtmp-flooder.ts): what the test measures is then the server, not the flood's event loop. */
function flooder(kind: "amf" | "idle", port: number, count: number, from: string[], reconnectMs?: number) {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "../support/media/rtmp-flooder.ts"), JSON.stringify({ kind, port, count, from, reconnectMs })], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const output = new Response(child.stdout).text();
  return {
    async stop(): Promise<{ opened: number }> {
      child.kill("SIGTERM");
      await child.exited;
      return JSON.parse((await output).trim() || '{"opened":0}') as { opened: number };
    },
  };
}

const hosts = (first: number, n: number) => Array.from({ length: n }, (_, i) => `127.0.0.${first + i}`);

/** What the viewer (unless there is no stream to watch) and the health check see while a flood runs. */
function watch({ viewing = true } = {}) {
  let running = true;
  const readyz: number[] = [];
  const gaps: number[] = [];
  const failures: string[] = [];
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${server!.url}/readyz`).catch((error: unknown) => (failures.push(`readyz: ${String(error)}`), null));
      readyz.push(performance.now() - started);
      if (res && res.status !== 200) failures.push(`readyz ${res.status}`);
      await res?.arrayBuffer();
      await Bun.sleep(100);
    }
  })();
  // An LL-HLS player: each blocking reload asks for the part after the newest it has.
  const playing = (async () => {
    if (!viewing) return;
    let text = await (await viewerGet(`${LIVE}stream.m3u8`)).text();
    let last = performance.now();
    while (running) {
      const hint = /PRELOAD-HINT:TYPE=PART,URI="part-(\d+)-(\d+)\.m4s"/.exec(text);
      if (!hint) {
        failures.push(`no preload hint in ${text.slice(0, 200)}`);
        return;
      }
      const res = await viewerGet(`${LIVE}stream.m3u8?_HLS_msn=${hint[1]}&_HLS_part=${hint[2]}`).catch((error: unknown) => (failures.push(`playlist: ${String(error)}`), null));
      if (!res || res.status !== 200) {
        failures.push(`playlist ${res?.status}`);
        await res?.arrayBuffer();
        continue;
      }
      text = await res.text();
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
  })();
  return {
    async stop() {
      running = false;
      await Promise.all([probing, playing]);
      const sorted = [...readyz].sort((a, b) => a - b);
      return { readyzP95: sorted[Math.floor(sorted.length * 0.95)] ?? Infinity, readyzMax: sorted.at(-1) ?? Infinity, maxGap: Math.max(...gaps), parts: gaps.length, failures };
    },
  };
}

function viewerGet(path: string): Promise<Response> {
  return fetch(server!.url + path, { headers: { cookie: [...viewer.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
}

/** Runs `flood` for `seconds` with the viewer and /readyz watched; the stream must stay fresh and the server ready. */
async function underFlood(label: string, seconds: number, flood: () => { stop(): unknown }, during?: () => Promise<void>) {
  const watching = watch();
  const running = flood();
  const started = Date.now();
  await during?.();
  await Bun.sleep(Math.max(0, seconds * 1000 - (Date.now() - started)));
  const seen = await watching.stop();
  await running.stop();
  console.log(`${label}: readyz p95 ${seen.readyzP95.toFixed(1)} ms (max ${seen.readyzMax.toFixed(1)}), ${seen.parts} parts, longest wait for one ${seen.maxGap.toFixed(0)} ms`);
  expect(seen.failures).toEqual([]);
  expect(seen.readyzP95).toBeLessThan(200);
  expect(seen.parts).toBeGreaterThan(seconds * 2);
  expect(seen.maxGap).toBeLessThanOrEqual(2 * PART_TARGET_S * 1000);
}

async function adminIngest(): Promise<{ warnings: string[]; live: boolean }> {
  const res = await admin.get("/api/admin/ingest");
  if (res.status !== 200) throw new Error(`GET /api/admin/ingest: ${res.status} ${res.text}`);
  return res.body;
}

/** A correct-key publish from a client of its own: the door must let it as far as the key check. */
async function correctKeyGetsThrough(port: number, from = "127.0.0.1"): Promise<string> {
  const client = await RawRtmpClient.open(port, true, from);
  try {
    await client.publish(streamKey);
    return client.statusCodes()[0] ?? (client.closed ? "closed" : "no answer");
  } finally {
    client.socket.destroy();
  }
}

beforeAll(async () => {
  if (missing) return;
  dir = mkdtempSync(join(tmpdir(), "dreadcast-rtmp-flood-"));
  const certificate = selfSignedCertificate(dir, "localhost");
  const data = join(dir, "data");
  const created = Bun.spawnSync(
    [process.execPath, "src/main.ts", "admin", "create", "--username", "warden", "--email", "warden@example.com", "--password", "s3cret-pass", "--data-dir", data],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
  if (created.exitCode !== 0) throw new Error(`admin create: ${created.stderr.toString()}`);
  rtmpPort = await freePort();
  rtmpsPort = await freePort();
  server = await startServer(data, ["--rtmp-port", String(rtmpPort), "--rtmps-port", String(rtmpsPort), "--tls-cert", certificate.cert, "--tls-key", certificate.key], {
    databaseUrl: null,
  });
  admin = new TestClient(server.url);
  expect((await admin.post("/api/admin/login", { username: "warden", password: "s3cret-pass" })).status).toBe(200);
  expect((await admin.put("/api/admin/stream-source", { kind: "ingest" })).status).toBe(200);
  // The key needs a fresh proof (a sign-in just now is one) and is revealed on its own.
  const revealed = await admin.post("/api/admin/ingest/reveal-key");
  expect(revealed.status).toBe(200);
  streamKey = revealed.body.streamKey;
  expect(streamKey).toMatch(/^[0-9a-f]{40}$/);
  viewer = new TestClient(server.url);
  const { accessCode } = await buyDemoCode(viewer);
  expect((await enter(viewer, accessCode, "Nightwatch")).status).toBe(200);
  // OBS, live the whole time (a small picture in real time: the floods share the two cores).
  publishers.push(publish(`rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`, { seconds: 150 }));
  await eventually(async () => (await viewerGet(`${LIVE}stream.m3u8`)).status === 200, 20_000, "the live playlist");
}, 60_000);

afterAll(async () => {
  for (const p of publishers) p.child.kill(9);
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(missing !== null)("the RTMP door under floods, a real publisher live throughout", () => {
  test("inputs kept from earlier floods are refused and the stream plays on", async () => {
    const files = readdirSync(FIXTURES).filter((name) => name.endsWith(".bin"));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const bytes = new Uint8Array(readFileSync(join(FIXTURES, name)));
      const client = await RawRtmpClient.open(rtmpPort, true, "127.0.0.2");
      expect(client.closed).toBe(false);
      client.socket.write(bytes);
      // Each is a message a publisher never sends before its publish, or one over the bounds: the server ends the connection or ignores it.
      await eventually(() => client.closed, 1500).catch(() => {});
      client.socket.destroy();
    }
    expect((await viewerGet(`${LIVE}stream.m3u8`)).status).toBe(200);
    expect(server!.output()).not.toContain("unexpected failure");
  });

  test("15 connections from one address and 15 from five more looping object-heavy AMF commands before publish: decoding never starves the event loop", async () => {
    const rssBefore = server!.rssKiB();
    let opened = 0;
    await underFlood("object-heavy AMF", 12, () => {
      const one = flooder("amf", rtmpPort, 15, ["127.0.0.2"]);
      const five = flooder("amf", rtmpPort, 15, hosts(3, 5));
      return { stop: async () => (opened = (await one.stop()).opened + (await five.stop()).opened) };
    });
    console.log(`object-heavy AMF: ${opened} connections opened, RSS ${Math.round(rssBefore / 1024)} → ${Math.round(server!.rssKiB() / 1024)} MiB`);
    expect(server!.rssKiB() - rssBefore).toBeLessThan(100 * 1024);
    expect(await correctKeyGetsThrough(rtmpPort)).toBe("NetStream.Publish.BadName"); // through the door: "another publisher is live"
  }, 40_000);

  test("idle TCP sockets and TLS sockets that never say hello, from one address and from five, cannot lock the broadcaster out", async () => {
    const answers: string[] = [];
    await underFlood(
      "idle sockets",
      12,
      () => {
        const floods = [flooder("idle", rtmpPort, 16, ["127.0.0.2"]), flooder("idle", rtmpPort, 20, hosts(3, 5)), flooder("idle", rtmpsPort, 80, hosts(2, 6))];
        return { stop: () => Promise.all(floods.map((flood) => flood.stop())) };
      },
      async () => {
        await Bun.sleep(1500); // the allowance is full by now
        for (let i = 0; i < 12; i++) {
          answers.push(await correctKeyGetsThrough(rtmpPort));
          await Bun.sleep(500);
        }
      },
    );
    // Each correct-key publish reached the key check (refused only because OBS is live on the key).
    expect(answers).toEqual(Array(12).fill("NetStream.Publish.BadName"));
    // The silent TLS sockets were closed by the handshake's timeout, not left open.
    const silent = net.connect({ port: rtmpsPort, host: "127.0.0.1" });
    silent.on("error", () => {});
    const closedAfter = await new Promise<number>((resolve) => {
      const started = Date.now();
      silent.once("close", () => resolve(Date.now() - started));
    });
    expect(closedAfter).toBeLessThan(8000);
  }, 60_000);

  test("300 wrong keys from one address: it is made to wait, the log holds a few lines, the panel says so, the broadcaster is not held", async () => {
    const linesBefore = server!.output().split("\n").length;
    const answers = { refused: 0, waiting: 0, shed: 0 };
    let tries = 0;
    // 20 tries a second, as the probe made them: 300 in 15 s.
    await underFlood("wrong keys", 15, () =>
      keep(6, async () => {
        if (tries >= 300) return void (await Bun.sleep(100));
        tries++;
        await Bun.sleep(250);
        const client = await RawRtmpClient.open(rtmpPort, true, "127.0.0.9").catch(() => null);
        if (!client) return void answers.shed++;
        try {
          await client.publish(`wrong${"0".repeat(32)}${String(tries).padStart(3, "0")}`);
          const said = JSON.stringify(client.messages.map((m) => new TextDecoder().decode(m.payload)));
          if (said.includes("Too many wrong stream keys")) answers.waiting++;
          else if (said.includes("Stream key refused")) answers.refused++;
          else answers.shed++;
        } finally {
          client.socket.destroy();
        }
      }),
    );
    const lines = server!.output().split("\n").slice(linesBefore);
    const about = lines.filter((line) => /wrong stream key/.test(line));
    console.log(
      `wrong keys: ${tries} tries: ${answers.refused} keys looked at and refused, ${answers.waiting} told to wait, ${answers.shed} shed at the door; ${about.length} log lines about them`,
    );
    expect(tries).toBeGreaterThanOrEqual(250);
    // Five looked at, then a wait; each try after a wait starts a longer one (10 s, then 20 s: seven at most in 15 s).
    expect(answers.refused).toBeGreaterThanOrEqual(5);
    expect(answers.refused).toBeLessThanOrEqual(7);
    expect(answers.waiting).toBeGreaterThan(50);
    expect(about.length).toBeLessThanOrEqual(4);
    expect(lines.join("\n")).not.toContain(streamKey);
    const { warnings } = await adminIngest();
    expect(warnings.join(" ")).toMatch(/\d+ publishes with a wrong stream key from 127\.0\.0\.9 in the last 10 minutes; it waits \d+ s before its next try is looked at/);
    // From that address even the right key waits, and is told why; the broadcaster's own address is not held.
    const client = await RawRtmpClient.open(rtmpPort, true, "127.0.0.9");
    await client.publish(streamKey);
    expect(JSON.stringify(client.messages.map((m) => new TextDecoder().decode(m.payload)))).toContain("Too many wrong stream keys from this address: try again in");
    client.socket.destroy();
    expect(await correctKeyGetsThrough(rtmpPort)).toBe("NetStream.Publish.BadName");
  }, 60_000);

  test("the broadcaster's reconnect over RTMPS is taken while silent TLS sockets fill the door", async () => {
    const secure = flooder("idle", rtmpsPort, 80, hosts(2, 6));
    try {
      await Bun.sleep(1000);
      publishers[0]!.child.kill(9); // a network blip: OBS drops and reconnects
      await eventually(async () => !(await adminIngest()).live, 15_000, "the first publish gone");
      const again = publish(`rtmps://localhost:${rtmpsPort}/live/${streamKey}`, { seconds: 8 });
      publishers.push(again);
      await eventually(async () => (await adminIngest()).live, 15_000, "the reconnect over RTMPS live");
      const { code, stderr } = await again.done;
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    } finally {
      await secure.stop();
    }
  }, 90_000);

  test("a key holder pushing a file faster than real time is held to its pace", async () => {
    for (const p of publishers) p.child.kill(9); // OBS is done for the night: the key holder alone now
    await eventually(async () => !(await adminIngest()).live, 15_000, "the last publish over");
    // 20 s of media, encoded as fast as FFmpeg can (no -re, done in a second or two): taken in at about real time.
    const fast = publish(`rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`, { seconds: 20, size: "160x90", realTime: false });
    publishers.push(fast);
    await eventually(async () => (await adminIngest()).live, 10_000, "the fast publish live");
    const started = Date.now();
    expect((await fast.done).code).toBe(0);
    const encoded = (Date.now() - started) / 1000;
    await eventually(async () => !(await adminIngest()).live, 30_000, "the fast publish over");
    const took = (Date.now() - started) / 1000;
    console.log(`faster than real time: 20 s of media sent in ${encoded.toFixed(1)} s, taken in over ${took.toFixed(1)} s`);
    expect(took).toBeGreaterThan(20 - 3 - 4); // at most 3 s ahead of real time, and the last read or two at once
  }, 60_000);

  test("a key holder's metadata bombs: 8 MiB strict arrays and objects end the connection unread; a bloated one within bounds is dropped and the publish goes on", async () => {
    for (const p of publishers) p.child.kill(9); // OBS is done for the night: the key holder alone now
    await eventually(async () => !(await adminIngest()).live, 15_000, "the last publish over");
    const rssBefore = server!.rssKiB();
    const watching = watch({ viewing: false });
    const started = Date.now();
    const big = new Uint8Array(8 * 1024 * 1024 - 64);
    // A strict array of ~8 M nulls after its header: "@setDataFrame", "onMetaData", [null × 8 M].
    big.set(encodeAmf0(["@setDataFrame", "onMetaData"]));
    for (let round = 0; round < 4; round++) {
      const client = await RawRtmpClient.open(rtmpPort);
      await client.publish(streamKey);
      expect(client.statusCodes()).toEqual(["NetStream.Publish.Start"]);
      client.send({ chunkStreamId: 4, type: MessageType.DataAmf0, timestamp: 0, streamId: 1, payload: big });
      await eventually(() => client.closed, 5000, "the bomb's connection closed");
      await eventually(async () => !(await adminIngest()).live, 5000, "the bomb's publish over");
    }
    // Within the 64 KiB bound but past the decode's: the metadata is dropped, the publisher stays.
    const client = await RawRtmpClient.open(rtmpPort);
    await client.publish(streamKey);
    const bloated: Record<string, null> = {};
    for (let i = 0; i < 7000; i++) bloated[`k${i}`] = null; // ~56 KiB
    client.send({ chunkStreamId: 4, type: MessageType.DataAmf0, timestamp: 0, streamId: 1, payload: encodeAmf0(["@setDataFrame", "onMetaData", bloated]) });
    await Bun.sleep(500);
    expect(client.closed).toBe(false);
    expect((await adminIngest()).live).toBe(true);
    client.socket.destroy();
    const seen = await watching.stop();
    console.log(
      `metadata bombs: ${(Date.now() - started) / 1000} s, readyz p95 ${seen.readyzP95.toFixed(1)} ms, RSS ${Math.round(rssBefore / 1024)} → ${Math.round(server!.rssKiB() / 1024)} MiB`,
    );
    expect(seen.failures).toEqual([]);
    expect(seen.readyzP95).toBeLessThan(200);
    expect(server!.rssKiB() - rssBefore).toBeLessThan(48 * 1024);
    expect(server!.output()).toContain("dropped metadata that cannot be read");
  }, 60_000);
});
