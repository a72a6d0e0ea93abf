/**
 * The floor for the ingest benchmark's viewers: Bun.serve holding the same LL-HLS in memory and nothing
 * else (no session, no gate). It follows dreadcast's playlist with blocking reloads (argv: playlist URL,
 * cookie), keeps each part's bytes once, and answers /live/stream.m3u8 with _HLS_msn/_HLS_part blocking
 * until that part is held, and /live/<part> from memory.
 */
import { blockingUrl, preloadHint, type Hint } from "../lib/llhls.ts";

const [upstream, cookie] = [process.argv[2]!, process.argv[3] ?? ""];
const headers: Record<string, string> = cookie ? { cookie } : {};
const files = new Map<string, ArrayBuffer>();
let playlist = "";
let held: Hint | null = null;
let waiters: { msn: number; part: number; resolve: () => void }[] = [];
const before = (a: { msn: number; part: number }, b: { msn: number; part: number }) => a.msn < b.msn || (a.msn === b.msn && a.part < b.part);
const base = (uri: string) => uri.split("?")[0]!.split("/").at(-1)!;

async function follow() {
  for (;;) {
    try {
      const response = await fetch(held ? blockingUrl(upstream, held) : upstream, { headers });
      const text = await response.text();
      if (!response.ok) throw new Error(String(response.status));
      for (const m of text.matchAll(/URI="([^"]+)"|^([^#\n][^\n]*)$/gm)) {
        const uri = (m[1] ?? m[2])!;
        const name = base(uri);
        if (files.has(name) || name.endsWith(".m3u8") || (/PRELOAD-HINT:TYPE=PART,URI="/.test(text) && name === base(preloadHint(text)?.uri ?? ""))) continue;
        files.set(name, await (await fetch(new URL(uri, upstream), { headers })).arrayBuffer());
      }
      while (files.size > 300) files.delete(files.keys().next().value!);
      playlist = text.replace(/\?[^"\n]*/g, "");
      held = preloadHint(text);
      const ready = waiters.filter((w) => held && before(w, held));
      waiters = waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.resolve();
    } catch {
      held = null;
      await Bun.sleep(200);
    }
  }
}

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/live/stream.m3u8") {
      const msn = url.searchParams.get("_HLS_msn");
      if (msn !== null) {
        const want = { msn: Number(msn), part: Number(url.searchParams.get("_HLS_part") ?? 0) };
        if (!held || !before(want, held)) {
          const ok = await Promise.race([new Promise<boolean>((resolve) => waiters.push({ ...want, resolve: () => resolve(true) })), Bun.sleep(6000).then(() => false)]);
          if (!ok) return new Response("not yet", { status: 503 });
        }
      }
      return new Response(playlist, { headers: { "content-type": "application/vnd.apple.mpegurl", "cache-control": "no-cache" } });
    }
    const body = files.get(url.pathname.slice("/live/".length));
    return body ? new Response(body, { headers: { "content-type": "video/mp4" } }) : new Response("not found", { status: 404 });
  },
});
void follow();
console.log(`ll-hls-floor listening on http://127.0.0.1:${server.port}`);
