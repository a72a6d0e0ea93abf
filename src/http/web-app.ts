import { Elysia } from "elysia";
import { isPagePath } from "../contracts/page-paths.ts";
import { brotliCompressSync, constants as zlib } from "node:zlib";

export interface WebAsset {
  path: string;
  file: string;
  immutable: boolean;
  /** Compressed at build time; compressed at start when absent. */
  gzip?: string;
  br?: string;
}

interface LoadedAsset {
  body: Uint8Array;
  type: string;
  etag: string;
  cacheControl: string;
  gzip?: Uint8Array;
  br?: Uint8Array;
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest)|image\/svg)/;

/** What scripts/build-web.ts generates, or null when no web app is built. */
async function generated(): Promise<{ webAssets?: WebAsset[]; webBuild?: string; webPreloads?: Record<string, string[]> } | null> {
  try {
    return await import("../web-assets.generated.ts");
  } catch {
    return null;
  }
}

/** Loads the built web app (embedded in the executable, or dist/web when run from source). */
export async function loadWebAssets(): Promise<WebAsset[]> {
  return (await generated())?.webAssets ?? [];
}

/** The embedded web build's name (the hash its index.html carries), or null when no web app is built. */
export async function loadWebBuild(): Promise<string | null> {
  return (await generated())?.webBuild ?? null;
}

/** The files each page path's screen loads at once besides the entry (scripts/build-web.ts), or none when no web app is built. */
export async function loadWebPreloads(): Promise<Record<string, string[]>> {
  return (await generated())?.webPreloads ?? {};
}

/**
 * The tags that have the browser fetch a screen's files together with the entry: a module preload for each
 * script, a style preload for each stylesheet (the screen adds the stylesheet itself when it loads). Only
 * files this build serves are named.
 */
export function preloadTags(files: string[], served: (path: string) => boolean): string {
  return files
    .filter((file) => /^\/assets\/[\w.-]+\.(js|css)$/.test(file) && served(file))
    .map((file) =>
      file.endsWith(".css") ? `<link rel="preload" as="style" href="${file}" fetchpriority="low" />` : `<link rel="modulepreload" href="${file}" fetchpriority="low" />`,
    )
    .join("");
}

/** An asset from its bytes, compressed here when it is worth it. */
function fromBytes(body: Uint8Array<ArrayBuffer>, type: string, cacheControl: string, compressed = false): LoadedAsset {
  const loaded: LoadedAsset = { body, type, etag: `"${Bun.hash(body).toString(36)}"`, cacheControl };
  if (!compressed && COMPRESSIBLE.test(type) && body.length > 512) {
    loaded.gzip = Bun.gzipSync(body, { level: 9 });
    loaded.br = new Uint8Array(brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 10 } }));
  }
  return loaded;
}

async function load(asset: WebAsset): Promise<LoadedAsset> {
  const file = Bun.file(asset.file);
  const body = new Uint8Array(await file.arrayBuffer());
  const cacheControl = asset.path === "/index.html" ? "no-cache" : asset.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600";
  const loaded = fromBytes(body, file.type || "application/octet-stream", cacheControl, Boolean(asset.gzip && asset.br));
  if (asset.gzip && asset.br) {
    loaded.gzip = new Uint8Array(await Bun.file(asset.gzip).arrayBuffer());
    loaded.br = new Uint8Array(await Bun.file(asset.br).arrayBuffer());
  }
  return loaded;
}

/** The head a page path gets in place of the built title and description (link previews), or null for the built one. */
export type PageHead = (path: string) => Promise<string | null>;

/** index.html with `head` where its <title> was (the built description dropped), or null when it has no head to put it in. */
export function withPageHead(html: string, head: string): string | null {
  const page = html.replace(/<meta name="description"[^>]*>\s*/i, "");
  // Replaced by a function: a `$` in the event's title is text, not a replacement pattern.
  if (/<title>[\s\S]*?<\/title>/i.test(page)) return page.replace(/<title>[\s\S]*?<\/title>/i, () => head);
  return atHeadEnd(page, head);
}

/** index.html with `tags` added at the end of its head, or null when it has no head. */
function atHeadEnd(html: string, tags: string): string | null {
  return html.includes("</head>") ? html.replace("</head>", () => `${tags}</head>`) : null;
}

function respond(asset: LoadedAsset, request: Request, extraHeaders: Record<string, string>, status = 200): Response {
  const headers: Record<string, string> = {
    ...extraHeaders,
    "content-type": asset.type,
    "cache-control": asset.cacheControl,
    etag: asset.etag,
    vary: "Accept-Encoding",
  };
  if (status === 200 && request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const accept = request.headers.get("accept-encoding") ?? "";
  let body = asset.body;
  if (asset.br && /\bbr\b/.test(accept)) {
    body = asset.br;
    headers["content-encoding"] = "br";
  } else if (asset.gzip && /\bgzip\b/.test(accept)) {
    body = asset.gzip;
    headers["content-encoding"] = "gzip";
  }
  return new Response(request.method === "HEAD" ? null : (body as Bun.BodyInit), { status, headers });
}

/**
 * Serves the SPA: known files with their caching, index.html (no-cache) for page routes, the same page with
 * status 404 for a path the app has no page at (it shows the not-found page: crawlers and link previews take
 * it for what it is), a plain 404 for a missing file (anything whose last segment has an extension) and JSON
 * 404 for unknown /api paths.
 */
export async function webAppPlugin(
  assets: WebAsset[],
  pageHeaders: () => Promise<Record<string, string>>,
  pageHead: PageHead = async () => null,
  preloads: Record<string, string[]> = {},
) {
  const byPath = new Map<string, LoadedAsset>();
  await Promise.all(assets.map(async (a) => byPath.set(a.path, await load(a))));
  const index = byPath.get("/index.html");
  const indexHtml = index ? new TextDecoder().decode(index.body) : "";
  const codeTags = new Map(Object.entries(preloads).map(([path, files]) => [path, preloadTags(files, (file) => byPath.has(file))]));
  // Each page's index.html with its own head, compressed once and kept until that head changes (a path's
  // code tags are the build's, the same for the server's life).
  const pages = new Map<string, { ownHead: string | null; asset: LoadedAsset }>();
  const pageFor = async (path: string, index: LoadedAsset): Promise<LoadedAsset> => {
    // While the head cannot be built (the database away), the page as last served, else the built one:
    // the page opens, and tells what it cannot load itself. The screen's code is named either way.
    const code = codeTags.get(path) ?? "";
    const ownHead = await pageHead(path).catch(() => pages.get(path)?.ownHead ?? null);
    if (ownHead === null && !code) return index;
    const kept = pages.get(path);
    if (kept && kept.ownHead === ownHead) return kept.asset;
    const html = ownHead === null ? atHeadEnd(indexHtml, code) : withPageHead(indexHtml, ownHead + code);
    const asset = html === null ? index : fromBytes(new TextEncoder().encode(html), index.type, index.cacheControl);
    pages.set(path, { ownHead, asset });
    return asset;
  };

  // The page's headers (its CSP) as last made, for while they cannot be made again (the database away).
  let lastHeaders: Record<string, string> | null = null;
  const headersNow = async (): Promise<Record<string, string>> => {
    try {
      lastHeaders = await pageHeaders();
    } catch (error) {
      if (lastHeaders === null) throw error;
    }
    return lastHeaders;
  };
  await headersNow().catch(() => {});

  const handler = async ({ request, path, set }: { request: Request; path: string; set: { status?: number | string } }) => {
    if (path === "/api" || path.startsWith("/api/")) {
      set.status = 404;
      return { error: "Not found" };
    }
    const asset = byPath.get(path);
    if (asset && path !== "/index.html") return respond(asset, request, {});
    const lastSegment = path.slice(path.lastIndexOf("/") + 1);
    if (lastSegment.includes(".") && path !== "/index.html") {
      return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" } });
    }
    if (!index) {
      return new Response("The web app is not built. Run `npm run build:web`.", { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    return respond(await pageFor(path, index), request, await headersNow(), isPagePath(path) ? 200 : 404);
  };

  return new Elysia({ name: "web-app" }).get("/*", handler).head("/*", handler);
}
