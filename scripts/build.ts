/** Builds the web app, then compiles the server with it embedded into one executable: dist/dreadcast. */
import { $ } from "bun";
import { join, resolve } from "node:path";
import pkg from "../package.json";
import { describeCheckout, versionFromDescribe } from "../src/version.ts";

const root = resolve(import.meta.dir, "..");
await $`bun ${join(root, "scripts/build-web.ts")}`;
const outfile = join(root, "dist/dreadcast");
// The tag or commit built from, fixed in the executable (which has no checkout to ask).
const version = versionFromDescribe(describeCheckout(root) ?? "", pkg.version);
const define = `DREADCAST_BUILD_VERSION=${JSON.stringify(version)}`;
await $`bun build --compile --minify --sourcemap=none --no-compile-autoload-dotenv --no-compile-autoload-bunfig --define ${define} ${join(root, "src/main.ts")} --outfile ${outfile}`.quiet();
const size = Bun.file(outfile).size;
console.log(`executable built: dist/dreadcast ${version} (${(size / 1024 / 1024).toFixed(1)} MiB)`);
