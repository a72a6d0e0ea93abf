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

/** `stylesheets` is filled with the stylesheets built on their own: source (from the repository's root) → CSS. */
export function webBuildOptions(outdir: string, stylesheets = new Map<string, string>()) {
  return {
    entrypoints: [join(webRoot, "web/index.html")],
    outdir,
    target: "browser",
    minify: true,
    splitting: true,
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
