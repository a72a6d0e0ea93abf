/** The options the web app is bundled with: shared by the build (build-web.ts) and the bundle report. */
import { join, resolve } from "node:path";

export const webRoot = resolve(import.meta.dir, "..");

export function webBuildOptions(outdir: string) {
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
  } satisfies Bun.BuildConfig;
}
