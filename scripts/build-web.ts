/**
 * Builds the React app into dist/web (hashed, minified, split) and writes src/web-assets.generated.ts,
 * the import map that embeds every file into the executable (`with { type: "file" }`).
 *
 * The build is named by a hash of everything in it, written into index.html (`<meta name="dreadcast-build">`):
 * a page still open after an upgrade compares it with the one the server now serves, and reloads rather
 * than ask for files the new build no longer has.
 */
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, rm, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { brotliCompressSync, constants as zlib } from "node:zlib";
import { appGraph, gzipAsServed, lazilyImportedStyles, PRELOADED_SCREENS, screenFiles, webBuildOptions } from "./web-build-options.ts";

const root = resolve(import.meta.dir, "..");
const outdir = join(root, "dist/web");
const publicDir = join(root, "web/public");

await rm(outdir, { recursive: true, force: true });
const stylesheets = new Map<string, string>();
const result = await Bun.build({ ...webBuildOptions(outdir, stylesheets), metafile: true });
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const meta = typeof result.metafile === "string" ? JSON.parse(result.metafile) : result.metafile!;
const lazilyImported = lazilyImportedStyles(meta);
if (lazilyImported.length > 0) {
  console.error(`Every page's first paint would wait for the styles of lazily loaded code: ${lazilyImported.join(", ")}.`);
  console.error('Import them by URL and load them with their screen instead (`import href from "./x.css?url"`, web/src/lib/stylesheets.ts).');
  process.exit(1);
}

// The bundler also writes, for a split-off chunk that imports a stylesheet the entry's already carries (the
// countdown's, say), a copy of those rules that nothing loads: such stylesheets, named by no page or script,
// are left out of the build.
const referencing = await Promise.all(result.outputs.filter((o) => /\.(js|html)$/.test(o.path)).map((o) => o.text()));
const unreferenced = new Set(result.outputs.filter((o) => o.path.endsWith(".css") && !referencing.some((text) => text.includes(basename(o.path)))).map((o) => o.path));
for (const path of unreferenced) await rm(path);
const outputs = result.outputs.filter((o) => !unreferenced.has(o.path));

// The files each preloaded screen loads at once besides the entry, by the page paths that show it.
const graph = await appGraph(result, outdir, stylesheets, meta);
const preloads: Record<string, string[]> = {};
for (const { paths, screen } of PRELOADED_SCREENS) {
  const { files } = screenFiles(graph, screen);
  for (const path of paths) preloads[path] = files.filter((file) => /\.(js|css)$/.test(file)).sort();
}

const hashed = new Set<string>();
for (const output of outputs) {
  const rel = "/" + relative(outdir, output.path).split("\\").join("/");
  if (rel !== "/index.html") hashed.add(rel);
}

// The build's name: a hash of every file the bundler wrote, names and contents.
const digest = createHash("sha256");
for (const output of [...outputs].sort((a, b) => a.path.localeCompare(b.path))) {
  digest
    .update(relative(outdir, output.path))
    .update("\0")
    .update(new Uint8Array(await output.arrayBuffer()));
}
const build = digest.digest("hex").slice(0, 12);
const indexPath = join(outdir, "index.html");
const indexHtml = await Bun.file(indexPath).text();
if (!indexHtml.includes("</head>")) throw new Error("index.html has no </head> to name the build in");
await Bun.write(indexPath, indexHtml.replace("</head>", `<meta name="dreadcast-build" content="${build}" /></head>`));

await mkdir(outdir, { recursive: true });
await cp(publicDir, outdir, { recursive: true });

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir)) {
    if (entry.startsWith(".")) continue;
    const full = join(dir, entry);
    if ((await stat(full)).isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out;
}

const files = (await walk(outdir)).sort();

// Text files are compressed here, once, so the server starts without spending a second on Brotli.
const compressedDir = join(root, "dist/web-compressed");
await rm(compressedDir, { recursive: true, force: true });
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
const precompressed = new Map<string, { gzip: string; br: string }>();
for (const file of files) {
  const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
  if (!COMPRESSIBLE.test(file) || bytes.length <= 512) continue;
  const base = join(compressedDir, relative(outdir, file));
  await mkdir(dirname(base), { recursive: true });
  await Bun.write(`${base}.gz`, gzipAsServed(bytes));
  await Bun.write(`${base}.br`, brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
  precompressed.set(file, { gzip: `${base}.gz`, br: `${base}.br` });
}
const lines = [
  "// Generated by scripts/build-web.ts — do not edit. Embeds the built web app into the executable.",
  "// @ts-nocheck — the imported files are build outputs without type declarations.",
];
const entries: string[] = [];
const importOf = (name: string, file: string) => {
  lines.push(`import ${name} from ${JSON.stringify("./" + relative(join(root, "src"), file).split("\\").join("/"))} with { type: "file" };`);
  return `${name} as unknown as string`;
};
files.forEach((file, i) => {
  const urlPath = "/" + relative(outdir, file).split("\\").join("/");
  const fields = [`path: ${JSON.stringify(urlPath)}`, `file: ${importOf(`f${i}`, file)}`, `immutable: ${hashed.has(urlPath)}`];
  const packed = precompressed.get(file);
  if (packed) fields.push(`gzip: ${importOf(`g${i}`, packed.gzip)}`, `br: ${importOf(`b${i}`, packed.br)}`);
  entries.push(`  { ${fields.join(", ")} },`);
});
lines.push(
  "",
  `export const webBuild = ${JSON.stringify(build)};`,
  "",
  "/** The code and styles of the screen a page path shows, named in its HTML so that they load with the entry. */",
  `export const webPreloads: Record<string, string[]> = ${JSON.stringify(preloads)};`,
  "",
  "export const webAssets: { path: string; file: string; immutable: boolean; gzip?: string; br?: string }[] = [",
  ...entries,
  "];",
  "",
);
await Bun.write(join(root, "src/web-assets.generated.ts"), lines.join("\n"));

const total = files.reduce((n, f) => n + Bun.file(f).size, 0);
console.log(`web app built: ${files.length} files, ${(total / 1024).toFixed(0)} KiB in dist/web, build ${build}`);
