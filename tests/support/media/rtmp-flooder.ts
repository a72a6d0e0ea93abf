/**
 * An attacker without the stream key, in a process of its own (so that what the viewer and the health
 * check measure in the test's process is the server, not the flood's own event loop). Keeps `count`
 * connections open to `port`, each from one of `from` in turn, and opens each one again as the server
 * closes it, until it is sent SIGTERM; then prints how many it opened as JSON.
 *
 *   bun tests/support/media/rtmp-flooder.ts '{"port":1935,"kind":"amf","count":15,"from":["127.0.0.2"]}'
 *
 * kinds: "amf" — the handshake, connect, then object-heavy commands (`_checkbw` and `releaseStream` with an
 * AMF0 object of 9,300 properties) as fast as the socket drains; "idle" — a TCP connection that sends
 * nothing (to the RTMPS port: a TLS connection that never says hello).
 */

import net from "node:net";
import { type Amf0Object, encodeAmf0 } from "../../../src/modules/ingest/rtmp/amf0.ts";
import { ChunkWriter, MessageType } from "../../../src/modules/ingest/rtmp/chunks.ts";

interface Spec {
  port: number;
  kind: "amf" | "idle";
  count: number;
  from: string[];
  /** Wait before opening a closed connection again, ms. */
  reconnectMs?: number;
}

const spec = JSON.parse(process.argv[2] ?? "{}") as Spec;

const writer = new ChunkWriter();
const setChunkSize = writer.encode({ chunkStreamId: 2, type: MessageType.SetChunkSize, timestamp: 0, streamId: 0, payload: Uint8Array.of(0, 1, 0, 0) });
writer.setChunkSize(65536);
const command = (values: Parameters<typeof encodeAmf0>[0]) =>
  writer.encode({ chunkStreamId: 3, type: MessageType.CommandAmf0, timestamp: 0, streamId: 0, payload: encodeAmf0(values) });

/** 9,300 properties with three-character names and null values: ~56 KiB, ~3 ms to decode in full. */
function heavyObject(): Amf0Object {
  const object: Amf0Object = {};
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (let i = 0; i < 9300; i++) object[letters[i % 62]! + letters[Math.floor(i / 62) % 62]! + letters[Math.floor(i / 3844)]!] = null;
  return object;
}

const heavy = heavyObject();
const CONNECT = command(["connect", 1, { app: "live", type: "nonprivate", tcUrl: "rtmp://127.0.0.1/live" }]);
const LOOPED = [command(["_checkbw", 0, null, heavy]), command(["releaseStream", 2, heavy, "x"])];
const C0C1 = new Uint8Array(1 + 1536).fill(3, 0, 1);
const C2 = new Uint8Array(1536);

let running = true;
let opened = 0;
const sockets = new Set<net.Socket>();

function once(from: string, n: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: spec.port, host: "127.0.0.1", localAddress: from });
    sockets.add(socket);
    opened++;
    socket.on("error", () => {});
    socket.on("close", () => {
      sockets.delete(socket);
      resolve();
    });
    if (spec.kind === "idle") return;
    let got = 0;
    const message = LOOPED[n % LOOPED.length]!;
    const pump = () => {
      while (!socket.destroyed && socket.write(message));
    };
    socket.once("connect", () => socket.write(C0C1));
    socket.on("data", (data: Buffer) => {
      if (got >= 1 + 2 * 1536) return;
      got += data.length;
      if (got < 1 + 2 * 1536) return;
      socket.write(C2);
      socket.write(setChunkSize);
      socket.write(CONNECT);
      socket.on("drain", pump);
      pump();
    });
  });
}

let n = 0;
for (let i = 0; i < spec.count; i++) {
  void (async () => {
    while (running) {
      const k = n++;
      await once(spec.from[k % spec.from.length]!, k);
      await Bun.sleep(spec.reconnectMs ?? 20);
    }
  })();
}

process.on("SIGTERM", () => {
  running = false;
  for (const socket of sockets) socket.destroy();
  process.stdout.write(JSON.stringify({ opened }) + "\n", () => process.exit(0));
});
