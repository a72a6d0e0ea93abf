/** Builds the web app, then compiles the server with it embedded into one executable: dist/dreadcast. */
import { $ } from "bun";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
await $`bun ${join(root, "scripts/build-web.ts")}`;
const outfile = join(root, "dist/dreadcast");
await $`bun build --compile --minify --sourcemap=none --no-compile-autoload-dotenv --no-compile-autoload-bunfig ${join(root, "src/main.ts")} --outfile ${outfile}`.quiet();
const size = Bun.file(outfile).size;
console.log(`executable built: dist/dreadcast (${(size / 1024 / 1024).toFixed(1)} MiB)`);
