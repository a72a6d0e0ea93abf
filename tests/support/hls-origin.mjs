/**
 * A real local HLS origin for the relay tests (node:http, so both Bun and Node tests start it): serves the
 * fixture clip under /hls/ and counts every request by path. `playlistText` replaces the playlist (to
 * offer URIs pointing elsewhere); `stop()` takes it down as an origin that has gone away.
 */
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

export const FIXTURE_DIR = join(import.meta.dirname, "../fixtures/hls");

/** @param {{ playlistText?: string, segmentDelayMs?: number }} [options] */
export async function startHlsOrigin(options = {}) {
  const files = new Map(readdirSync(FIXTURE_DIR).map((name) => [`/hls/${name}`, readFileSync(join(FIXTURE_DIR, name))]));
  /** @type {Map<string, number>} */
  const requests = new Map();
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const body = path === "/hls/stream.m3u8" && options.playlistText !== undefined ? Buffer.from(options.playlistText) : files.get(path);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const type = path.endsWith(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t";
    const send = () => res.writeHead(200, { "content-type": type, "content-length": body.length }).end(body);
    if (path.endsWith(".ts") && options.segmentDelayMs) setTimeout(send, options.segmentDelayMs);
    else send();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    playlistUrl: `${origin}/hls/stream.m3u8`,
    segments: [...files.keys()].filter((p) => p.endsWith(".ts")).map((p) => p.slice("/hls/".length)).sort(),
    requests,
    /** @param {string} path */
    count: (path) => requests.get(path) ?? 0,
    stop() {
      const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
      server.closeAllConnections();
      return closed;
    },
  };
}
