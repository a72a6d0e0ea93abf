/** The options the web app is bundled with: shared by the build (build-web.ts) and the bundle report. */
import { join, relative, resolve } from "node:path";

export const webRoot = resolve(import.meta.dir, "..");

/** How a stylesheet built on its own is imported: `import href from "./x.css?url"`. */
const STYLESHEET_URL = /\.css\?url$/;

/**
 * The bundler puts the rules of every stylesheet the app's code imports, however lazily, into the one
 * stylesheet index.html names. A lazily loaded screen's styles are therefore imported by URL instead
 * (`import href from "./screen.css?url"`): bundled on their own (their @imports inlined, minified, as
 * `bun build` does), written as a hashed asset, and fetched with the screen's code (web/src/lib/stylesheets.ts).
 * A nested Bun.build inside a plugin never finishes, so the stylesheet is bundled by a `bun build` process.
 * `built` gets each one's source (from the repository's root) and CSS.
 */
function stylesheetUrls(built: Map<string, string>): Bun.BunPlugin {
  return {
    name: "stylesheet-urls",
    setup(build) {
      build.onResolve({ filter: STYLESHEET_URL }, (args) => {
        const path = args.path.replace(/\?url$/, "");
        const absolute = path.startsWith("@/") ? join(webRoot, "web/src", path.slice(2)) : resolve(args.resolveDir, path);
        return { path: absolute, namespace: "stylesheet-url" };
      });
      build.onLoad({ filter: /.*/, namespace: "stylesheet-url" }, async (args) => {
        const bundler = Bun.spawn([process.execPath, "build", args.path, "--target=browser", "--minify"], { stdout: "pipe", stderr: "pipe" });
        const [css, errors, code] = await Promise.all([new Response(bundler.stdout).text(), new Response(bundler.stderr).text(), bundler.exited]);
        if (code !== 0) throw new Error(`${args.path} could not be bundled: ${errors.trim()}`);
        built.set(relative(webRoot, args.path), css);
        return { contents: css, loader: "file" };
      });
    },
  };
}

/**
 * A file gzipped the way the server sends it: precompressed once at build time with libdeflate's slowest,
 * tightest level, about 3% smaller than zlib's -9 for the same standard stream.
 */
export const gzipAsServed = (bytes: Uint8Array<ArrayBuffer>) => Bun.gzipSync(bytes, { level: 12, library: "libdeflate" });

/** `stylesheets` is filled with the stylesheets built on their own: source (from the repository's root) → CSS. */
export function webBuildOptions(outdir: string, stylesheets = new Map<string, string>()) {
  return {
    entrypoints: [join(webRoot, "web/index.html")],
    outdir,
    target: "browser",
    minify: true,
    splitting: true,
    // Side-effect-free chunks under 4 KiB of source fold into a chunk more screens load: fewer, larger files,
    // which compress better and cost fewer requests on a phone's network. Measured (npm run bundle-report),
    // with the night's phases, the break card and Donate's closed reason in the stream screen: /livestream
    // 104.9 KiB at 1 KiB, 105.0 at 2, 105.0 at 3, 104.8 at 4, 105.4 at 6 and 8 (where folding puts code a
    // screen does not use into a chunk it loads); / 83.1–83.3 at each. Earlier, before them: 103.9 at 2 KiB,
    // 104.3 at 4, 105.8 at 16.
    minChunkSize: 4096,
    sourcemap: "none",
    publicPath: "/",
    naming: { entry: "[name].[ext]", chunk: "assets/[name]-[hash].[ext]", asset: "assets/[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    plugins: [stylesheetUrls(stylesheets)],
  } satisfies Bun.BuildConfig;
}

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string }[] }>;
  outputs: Record<string, { inputs: Record<string, unknown>; entryPoint?: string }>;
}

/**
 * The stylesheets in the one index.html names that only lazily loaded code imports: none should be, as the
 * bundler would make every page's first paint wait for them. Such a screen imports its styles by URL.
 */
export function lazilyImportedStyles(meta: Metafile): string[] {
  const entry = "web/index.html";
  const reached = new Set<string>();
  const reach = (input: string) => {
    if (reached.has(input)) return;
    reached.add(input);
    for (const i of meta.inputs[input]?.imports ?? []) if (i.kind === "import-statement" && meta.inputs[i.path]) reach(i.path);
  };
  reach(entry);
  return Object.values(meta.outputs)
    .filter((out) => out.entryPoint === entry)
    .flatMap((out) => Object.keys(out.inputs))
    .filter((input) => input.endsWith(".css") && !reached.has(input));
}

/**
 * A screen the router loads lazily: its page module, the modules the router fetches together with it (the
 * query cache) and the stylesheets it loads with it, each from the repository's root.
 */
export interface Screen {
  page: string;
  alongside: string[];
  stylesheets: string[];
}

const SITE_PAGES = "web/src/app/site-pages.tsx";
const SITE_STYLES = "web/src/app/site-pages.css";
const QUERY_CACHE = "web/src/lib/query-client.ts";

/**
 * The screens a page's HTML names the code of (`<link rel="modulepreload">`, `<link rel="preload" as="style">`),
 * so that the browser fetches it together with the app's entry rather than after it has run: the stream
 * screen, which a viewer opens from a link on a phone, and the public site's frame with the page it shows
 * (the landing page waits for it before its first paint). Keyed by the page paths that show it.
 */
export const PRELOADED_SCREENS: { paths: string[]; screen: Screen }[] = [
  { paths: ["/"], screen: { page: SITE_PAGES, alongside: [], stylesheets: [SITE_STYLES] } },
  {
    paths: ["/access"],
    screen: {
      page: SITE_PAGES,
      alongside: ["web/src/features/access/components/access-page.tsx", QUERY_CACHE],
      stylesheets: [SITE_STYLES, "web/src/features/access/components/access.css"],
    },
  },
  {
    paths: ["/checkout-success"],
    screen: {
      page: SITE_PAGES,
      alongside: ["web/src/features/checkout-success/components/checkout-success-page.tsx", QUERY_CACHE],
      stylesheets: [SITE_STYLES, "web/src/features/checkout-success/components/checkout-success.css"],
    },
  },
  {
    paths: ["/livestream", "/livestream-new", "/livestream-fixed"],
    screen: {
      page: "web/src/features/livestream/components/livestream-page.tsx",
      alongside: [QUERY_CACHE],
      stylesheets: ["web/src/features/livestream/components/livestream-page.css"],
    },
  },
];

interface BuiltOutput {
  imports: { path: string; kind: string }[];
  entryPoint?: string;
}

/** The built app as a graph of its files, each named by its URL path ("/assets/…"). */
export interface AppGraph<O extends BuiltOutput = BuiltOutput> {
  outputs: Map<string, O>;
  /** The stylesheets built on their own: source (from the repository's root) → URL path. */
  sheets: Map<string, string>;
  /** The scripts and stylesheets index.html names. */
  named: string[];
}

/** A path the bundler wrote, as the page asks for it. */
export const urlPath = (path: string) => "/" + path.replace(/^\.?\//, "");

/**
 * The graph of a build: its metafile's outputs, the stylesheets built on their own (each found by its CSS,
 * as they are assets to the bundler) and what the built index.html names.
 */
export async function appGraph<O extends BuiltOutput>(
  result: Bun.BuildOutput,
  outdir: string,
  built: Map<string, string>,
  meta: { outputs: Record<string, O> },
): Promise<AppGraph<O>> {
  const outputs = new Map(Object.entries(meta.outputs).map(([path, out]) => [urlPath(path), out]));
  const sheets = new Map<string, string>();
  for (const output of result.outputs) {
    if (output.loader !== "file" || !output.path.endsWith(".css")) continue;
    const css = await output.text();
    const source = [...built].find(([, text]) => text === css)?.[0];
    if (source) sheets.set(source, urlPath(relative(outdir, output.path).split("\\").join("/")));
  }
  const html = await Bun.file(join(outdir, "index.html")).text();
  const named = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => urlPath(m[1]!));
  return { outputs, sheets, named };
}

/**
 * What a screen loads at once besides what index.html names: its chunk and stylesheets and every chunk
 * those import statically (`files`), and what they import dynamically (`lazy`, loaded when first needed).
 * With no screen, what index.html names and its static imports.
 */
export function screenFiles(graph: AppGraph, screen: Screen | null): { files: string[]; lazy: string[] } {
  const reach = (roots: string[]) => {
    const seen = new Set<string>();
    const lazy = new Set<string>();
    const visit = (path: string) => {
      if (seen.has(path)) return;
      seen.add(path);
      for (const i of graph.outputs.get(path)?.imports ?? []) {
        if (i.kind === "import-statement") visit(urlPath(i.path));
        else if (i.kind === "dynamic-import") lazy.add(urlPath(i.path));
      }
    };
    roots.forEach(visit);
    return { seen, lazy };
  };
  const entry = reach(graph.named);
  if (!screen) return { files: [...entry.seen], lazy: [...entry.lazy].filter((p) => !entry.seen.has(p)) };
  const roots = screen.stylesheets.map((sheet) => {
    const path = graph.sheets.get(sheet);
    if (!path) throw new Error(`no stylesheet is built for ${sheet}`);
    return path;
  });
  for (const module of [screen.page, ...screen.alongside]) {
    const chunk = [...graph.outputs].find(([path, out]) => out.entryPoint === module && path.endsWith(".js"));
    if (!chunk) throw new Error(`no chunk is built for ${module}`);
    roots.push(chunk[0]);
  }
  const own = reach(roots);
  const files = [...own.seen].filter((p) => !entry.seen.has(p));
  return { files, lazy: [...own.lazy].filter((p) => !own.seen.has(p) && !entry.seen.has(p)) };
}
