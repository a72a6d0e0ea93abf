/**
 * A real local HLS origin for the relay tests (node:http, so both Bun and Node tests start it): serves the
 * fixture clip under /hls/ and counts every request by path. `playlistText` replaces the playlist (to
 * offer URIs pointing elsewhere); `bigSegments` adds files of that many bytes under /hls/ (Infinity: one
 * that never ends, as a live `.ts` behind a playlist), sent as fast as the reader takes them, with a
 * Content-Length unless `chunked`; `redirects` answers those paths with a 302 to another address;
 * `liveDir` serves a directory as it is at each request instead (an encoder writing a live playlist into
 * it), on `port` when given (an origin coming back where it was); `stop()` takes it down as an origin that
 * has gone away.
 */
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

export const FIXTURE_DIR = join(import.meta.dirname, "../fixtures/hls");

/** A file of a live directory as it is now, or undefined (not written yet, or gone). @param {string} dir @param {string} name */
function liveFile(dir, name) {
  if (!/^[\w.-]+$/.test(name)) return undefined;
  try {
    return readFileSync(join(dir, name));
  } catch {
    return undefined;
  }
}

/** One MiB of a repeating pattern: what a big segment is made of, without holding it whole. */
const PATTERN = Buffer.alloc(1024 * 1024, "dreadcast ");

/**
 * Sends `bytes` (Infinity: without end) of the pattern, waiting for the reader; resolves with what was sent once the
 * response ends or its connection is closed.
 * @param {import("node:http").ServerResponse} res @param {number} bytes @param {boolean} chunked
 */
function sendBig(res, bytes, chunked) {
  res.writeHead(200, { "content-type": "video/mp2t", ...(chunked || bytes === Infinity ? {} : { "content-length": bytes }) });
  let sent = 0;
  return new Promise((resolve) => {
    res.on("close", () => resolve(sent));
    const pump = () => {
      while (sent < bytes && !res.destroyed) {
        const chunk = bytes - sent >= PATTERN.length ? PATTERN : PATTERN.subarray(0, bytes - sent);
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      if (sent >= bytes) res.end();
    };
    pump();
  });
}

/** What a file under /hls/ is sent as, by its extension. @type {Record<string, string>} */
const TYPES = { m3u8: "application/vnd.apple.mpegurl", ts: "video/mp2t", m4s: "video/iso.segment", mp4: "video/mp4" };

/** @param {{ playlistText?: string, segmentDelayMs?: number, bigSegments?: Record<string, number>, chunked?: boolean, redirects?: Record<string, string>, liveDir?: string, port?: number }} [options] */
export async function startHlsOrigin(options = {}) {
  const files = new Map(readdirSync(FIXTURE_DIR).map((name) => [`/hls/${name}`, readFileSync(join(FIXTURE_DIR, name))]));
  /** @type {Map<string, number>} */
  const requests = new Map();
  /** Bytes of the big segments sent, each response's figure once it has ended or was cut off. @type {Map<string, number[]>} */
  const sentBig = new Map();
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const redirect = options.redirects?.[path];
    if (redirect) {
      res.writeHead(302, { location: redirect }).end();
      return;
    }
    const big = options.bigSegments?.[path.slice("/hls/".length)];
    if (big !== undefined) {
      void sendBig(res, big, options.chunked ?? false).then((sent) => sentBig.set(path, [...(sentBig.get(path) ?? []), sent]));
      return;
    }
    const body =
      path === "/hls/stream.m3u8" && options.playlistText !== undefined
        ? Buffer.from(options.playlistText)
        : options.liveDir
          ? liveFile(options.liveDir, path.slice("/hls/".length))
          : files.get(path);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const type = TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";
    const send = () => res.writeHead(200, { "content-type": type, "content-length": body.length }).end(body);
    if (path.endsWith(".ts") && options.segmentDelayMs) setTimeout(send, options.segmentDelayMs);
    else send();
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    playlistUrl: `${origin}/hls/stream.m3u8`,
    segments: [...files.keys()]
      .filter((p) => p.endsWith(".ts"))
      .map((p) => p.slice("/hls/".length))
      .sort(),
    requests,
    sentBig,
    /** @param {string} path */
    count: (path) => requests.get(path) ?? 0,
    stop() {
      const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
      server.closeAllConnections();
      return closed;
    },
  };
}
