/**
 * A synthetic live HLS origin: a new segment every `--segment-seconds` (2) of `--bitrate` (3 Mbit/s) worth
 * of bytes, a sliding playlist of the last five, everything from memory. It is the relay benchmark's origin
 * and, serving the viewers itself, its floor: Bun.serve sending the same bytes with nothing in between.
 * GET /stats answers how often each segment was asked for. Prints `hls-live listening on <url>`.
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { "segment-seconds": { type: "string", default: "2" }, bitrate: { type: "string", default: "3000000" } } });
const segmentSeconds = Number(values["segment-seconds"]);
const segmentBytes = Math.round((Number(values.bitrate) / 8) * segmentSeconds);
const WINDOW = 5;

const segments = new Map<number, Blob>();
const requests = new Map<number, number>();
let newest = -1;

function addSegment() {
  newest++;
  // Random bytes: nothing along the way can compress them, as with real video. A Blob, the cheapest body
  // Bun.serve can send from memory (a Uint8Array is copied into each response).
  segments.set(newest, new Blob([crypto.getRandomValues(new Uint8Array(segmentBytes))]));
  segments.delete(newest - WINDOW * 3);
}
for (let i = 0; i < WINDOW; i++) addSegment();
setInterval(addSegment, segmentSeconds * 1000);

function playlist(): string {
  const first = Math.max(0, newest - WINDOW + 1);
  const lines = ["#EXTM3U", "#EXT-X-VERSION:3", `#EXT-X-TARGETDURATION:${segmentSeconds}`, `#EXT-X-MEDIA-SEQUENCE:${first}`];
  for (let i = first; i <= newest; i++) lines.push(`#EXTINF:${segmentSeconds.toFixed(3)},`, `segment-${i}.ts`);
  return lines.join("\n") + "\n";
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === "/live/stream.m3u8") return new Response(playlist(), { headers: { "content-type": "application/vnd.apple.mpegurl", "cache-control": "no-store" } });
    const match = /^\/live\/segment-(\d+)\.ts$/.exec(path);
    if (match) {
      const n = Number(match[1]);
      const body = segments.get(n);
      if (!body) return new Response("gone", { status: 404 });
      requests.set(n, (requests.get(n) ?? 0) + 1);
      return new Response(body, { headers: { "content-type": "video/mp2t" } });
    }
    if (path === "/stats") return Response.json({ segmentBytes, requests: Object.fromEntries(requests) });
    return new Response("not found", { status: 404 });
  },
});
console.log(`hls-live listening on http://127.0.0.1:${server.port}`);
