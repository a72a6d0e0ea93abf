/**
 * What the web app's bundle holds (bun scripts/bundle-report.ts [--top N] [--json]): builds it with the same
 * options as scripts/build-web.ts into a scratch directory, with the bundler's metafile, and prints
 *
 * - every output file (entry, route and shared chunks, stylesheets): its gzip size and the packages and
 *   modules that take the most room in it;
 * - what `/` and `/livestream` load before first paint: the files index.html names (scripts, stylesheets),
 *   each route's own lazy chunks and stylesheets (the screen its HTML names), and everything those import
 *   statically. Dynamic imports (the
 *   purchase dialog, the admin panel, hls.js…) and the other screens' stylesheets are listed apart: they
 *   load when first needed.
 *
 * The figures are the bundler's output gzipped the way the server sends them precompressed (gzipAsServed).
 * It ends with the rules in the stylesheet index.html names that only lazily loaded code imports (the build
 * refuses them: see `lazilyImportedStyles`).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appGraph, gzipAsServed, lazilyImportedStyles, PRELOADED_SCREENS, screenFiles, urlPath, webBuildOptions, type Screen } from "./web-build-options.ts";

interface MetaOutput {
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
  imports: { path: string; kind: string }[];
  entryPoint?: string;
  cssBundle?: string;
}

/** Each route's own screen, as its HTML names it: the public site's frame with the landing page; the stream screen's chunk and stylesheet. */
const ROUTES: Record<string, Screen> = Object.fromEntries(["/", "/livestream"].map((path) => [path, PRELOADED_SCREENS.find((s) => s.paths.includes(path))!.screen]));

const args = process.argv.slice(2);
const top = Number(args[args.indexOf("--top") + 1]) || 6;
const asJson = args.includes("--json");

const outdir = await mkdtemp(join(tmpdir(), "dreadcast-bundle-"));
try {
  const built = new Map<string, string>();
  const result = await Bun.build({ ...webBuildOptions(outdir, built), metafile: true });
  if (!result.success || !result.metafile) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  const meta = (typeof result.metafile === "string" ? JSON.parse(result.metafile) : result.metafile) as {
    inputs: Record<string, { imports: { path: string; kind: string }[] }>;
    outputs: Record<string, MetaOutput>;
  };
  const graph = await appGraph(result, outdir, built, meta);
  const { outputs, sheets } = graph;
  const sheetBytes = async (path: string) => (await Bun.file(join(outdir, path)).arrayBuffer()).byteLength;

  const gzip = new Map<string, number>();
  for (const path of [...outputs.keys(), ...sheets.values()]) gzip.set(path, gzipAsServed(new Uint8Array(await Bun.file(join(outdir, path)).arrayBuffer())).length);

  /** Where a module's bytes count: its package for a dependency, its file for our own code. */
  const owner = (input: string) => {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    return m ? m[1]! : input;
  };

  const files = [...outputs]
    .filter(([path]) => /\.(js|css)$/.test(path))
    .map(([path, out]) => {
      const byPackage = new Map<string, number>();
      for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) byPackage.set(owner(input), (byPackage.get(owner(input)) ?? 0) + bytesInOutput);
      return {
        file: path,
        entry: out.entryPoint ?? null,
        bytes: out.bytes,
        gzipBytes: gzip.get(path)!,
        biggest: [...byPackage]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([name, bytes]) => ({ name, bytes })),
        staticImports: out.imports.filter((i) => i.kind === "import-statement").map((i) => urlPath(i.path)),
        dynamicImports: out.imports.filter((i) => i.kind === "dynamic-import").map((i) => urlPath(i.path)),
      };
    });
  for (const [source, path] of sheets) {
    files.push({ file: path, entry: source, bytes: await sheetBytes(path), gzipBytes: gzip.get(path)!, biggest: [], staticImports: [], dynamicImports: [] });
  }
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);

  const firstPaint: Record<string, { files: { file: string; gzipBytes: number }[]; gzipBytes: number; lazy: string[] }> = {};
  const entry = screenFiles(graph, null);
  for (const [route, screen] of Object.entries(ROUTES)) {
    const own = screenFiles(graph, screen);
    const seen = new Set([...entry.files, ...own.files]);
    const lazy = new Set([...entry.lazy, ...own.lazy, ...sheets.values()]);
    const loaded = [...seen].filter((p) => /\.(js|css)$/.test(p)).map((p) => ({ file: p, gzipBytes: gzip.get(p)! }));
    firstPaint[route] = { files: loaded, gzipBytes: loaded.reduce((n, f) => n + f.gzipBytes, 0), lazy: [...lazy].filter((p) => !seen.has(p)) };
  }

  const lazilyImported = lazilyImportedStyles(meta);

  if (asJson) {
    console.log(JSON.stringify({ files, firstPaint, lazilyImported }, null, 2));
  } else {
    const kib = (n: number) => `${(n / 1024).toFixed(1).padStart(6)} KiB`;
    // A lazy chunk's own stylesheet holds only rules the site's stylesheet has too: the bundler writes it, no page asks for it.
    const unused = (f: (typeof files)[number]) => f.file.endsWith(".css") && f.entry !== null && f.entry !== "web/index.html" && !sheets.has(f.entry);
    const name = (f: (typeof files)[number]) => (f.entry ? `${f.file}  ← ${f.entry}` : f.file) + (unused(f) ? "  (never requested)" : "");
    console.log("Output files, largest first (gzip, then raw; biggest parts raw):\n");
    for (const f of files) {
      console.log(`${kib(f.gzipBytes)} gz ${kib(f.bytes)} raw  ${name(f)}`);
      console.log(`      ${f.biggest.map((b) => `${b.name} ${(b.bytes / 1024).toFixed(1)}`).join(", ")}`);
    }
    for (const [route, r] of Object.entries(firstPaint)) {
      console.log(`\n${route}: ${kib(r.gzipBytes).trim()} gzip JS + CSS before first paint, in ${r.files.length} files`);
      for (const f of r.files.sort((a, b) => b.gzipBytes - a.gzipBytes)) console.log(`  ${kib(f.gzipBytes)}  ${f.file}`);
      console.log(`  loaded when first needed: ${r.lazy.join(", ") || "none"}`);
    }
    console.log(`\nIn the stylesheet index.html names, imported only by lazily loaded code: ${lazilyImported.join(", ") || "nothing"}`);
  }
} finally {
  await rm(outdir, { recursive: true, force: true });
}
